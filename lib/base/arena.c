/*
 * arena.c - the validator's allocator.  Memory comes from mmap, never from
 * the program's malloc: the validator runs inside malloc's callers, inside
 * signal handlers and across fork.  Small blocks use power-of-two size
 * classes with free lists carved from 1 MiB chunks; large ones are mapped
 * directly.  arena_lock protects the free lists and the bump pointer.
 */
#include "internal.h"

#include <string.h>
#include <sys/mman.h>

#define ARENA_CHUNK (1u << 20)
#define ARENA_MIN_SHIFT 4   /* 16 bytes */
#define ARENA_MAX_SHIFT 12  /* 4 KiB; larger blocks are mapped directly */
#define ARENA_CLASSES (ARENA_MAX_SHIFT - ARENA_MIN_SHIFT + 1)

struct free_block {
    struct free_block *next;
};

static struct uld_mutex arena_lock;
static struct free_block *free_lists[ARENA_CLASSES];
static char *bump_cur, *bump_end;
static _Atomic size_t mapped_bytes;

void *uld_map(size_t size)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    atomic_fetch_add(&mapped_bytes, size);
    return p;
}

void uld_unmap(void *p, size_t size)
{
    munmap(p, size);
    atomic_fetch_sub(&mapped_bytes, size);
}

size_t uld_arena_bytes(void)
{
    return atomic_load(&mapped_bytes);
}

static unsigned size_class(size_t size)
{
    unsigned shift = ARENA_MIN_SHIFT;
    while (((size_t)1 << shift) < size)
        shift++;
    return shift - ARENA_MIN_SHIFT;
}

static size_t page_round(size_t size)
{
    return (size + 4095) & ~(size_t)4095;
}

void *uld_alloc(size_t size)
{
    if (size == 0)
        size = 1;
    if (size > ((size_t)1 << ARENA_MAX_SHIFT))
        return uld_map(page_round(size));
    unsigned cls = size_class(size);
    size_t bsize = (size_t)1 << (cls + ARENA_MIN_SHIFT);
    void *p = NULL;
    uld_mutex_lock(&arena_lock);
    if (free_lists[cls]) {
        p = free_lists[cls];
        free_lists[cls] = free_lists[cls]->next;
    } else {
        if (bump_cur == NULL || (size_t)(bump_end - bump_cur) < bsize) {
            /* The tail of the old chunk is dropped: at most 4 KiB per MiB. */
            char *chunk = uld_map(ARENA_CHUNK);
            if (chunk) {
                bump_cur = chunk;
                bump_end = chunk + ARENA_CHUNK;
            }
        }
        if (bump_cur && (size_t)(bump_end - bump_cur) >= bsize) {
            p = bump_cur;
            bump_cur += bsize;
        }
    }
    uld_mutex_unlock(&arena_lock);
    if (p)
        memset(p, 0, bsize);
    return p;
}

void uld_free(void *p, size_t size)
{
    if (!p)
        return;
    if (size == 0)
        size = 1;
    if (size > ((size_t)1 << ARENA_MAX_SHIFT)) {
        uld_unmap(p, page_round(size));
        return;
    }
    unsigned cls = size_class(size);
    struct free_block *fb = p;
    uld_mutex_lock(&arena_lock);
    fb->next = free_lists[cls];
    free_lists[cls] = fb;
    uld_mutex_unlock(&arena_lock);
}

char *uld_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = uld_alloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

void uld_arena_after_fork_child(void)
{
    uld_mutex_reset(&arena_lock);
}
