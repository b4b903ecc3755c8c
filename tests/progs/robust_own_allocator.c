/*
 * robust_own_allocator.c - a program that replaces malloc in its own
 * executable, as glibc documents ("Replacing malloc": define malloc, free,
 * calloc, realloc, and aligned_alloc, malloc_usable_size, memalign,
 * posix_memalign, pvalloc, valloc), which is what statically linked
 * jemalloc, tcmalloc or mimalloc do.  Here: a thread-safe bump allocator
 * over a static arena, free() only counts.
 *
 * Every malloc in the process, glibc's and other libraries' included, now
 * comes from this arena, so memory from it must never reach glibc's own
 * free().  The program starts threads, locks heap mutexes allocated from
 * its arena in one consistent order (outer -> node), frees them and grows
 * an array of structs holding mutexes with realloc.  Nothing can deadlock:
 * no report.  The values and the allocator's counters are checked (every
 * block the program freed was one the allocator handed out).
 *
 * EXPECT: none
 */
#include "progs.h"

#include <stdatomic.h>
#include <stdint.h>

#define ARENA (64u << 20)
#define HDR 16 /* block header: the requested size; keeps 16-byte alignment */

static _Alignas(4096) unsigned char arena[ARENA];
static atomic_size_t used;
static atomic_long frees, foreign_frees;

static void *bump(size_t align, size_t size)
{
    if (align < HDR)
        align = HDR;
    size_t need = size + align + HDR, start = atomic_fetch_add(&used, need);
    if (start + need > ARENA)
        return NULL;
    uintptr_t p = ((uintptr_t)arena + start + HDR + align - 1) & ~(uintptr_t)(align - 1);
    ((size_t *)p)[-1] = size;
    return (void *)p;
}

static int ours(const void *p)
{
    return (const unsigned char *)p >= arena && (const unsigned char *)p < arena + ARENA;
}

void *malloc(size_t n) { return bump(HDR, n); }
void *calloc(size_t k, size_t n) { return k && n > SIZE_MAX / k ? NULL : bump(HDR, k * n); } /* zeroed */
void *memalign(size_t a, size_t n) { return bump(a, n); }
void *aligned_alloc(size_t a, size_t n) { return bump(a, n); }
void *valloc(size_t n) { return bump(4096, n); }
void *pvalloc(size_t n) { return bump(4096, (n + 4095) & ~(size_t)4095); }
size_t malloc_usable_size(void *p) { return p ? ((size_t *)p)[-1] : 0; }

int posix_memalign(void **out, size_t a, size_t n) { return (*out = bump(a, n)) ? 0 : ENOMEM; }

void free(void *p)
{
    if (p)
        atomic_fetch_add(ours(p) ? &frees : &foreign_frees, 1);
}

void *realloc(void *p, size_t n)
{
    void *q = bump(HDR, n);
    if (q && p) {
        size_t old = malloc_usable_size(p);
        memcpy(q, p, old < n ? old : n);
        free(p);
    }
    return q;
}

/* ---- the program ---------------------------------------------------- */

static pthread_mutex_t outer = PTHREAD_MUTEX_INITIALIZER;

struct node {
    pthread_mutex_t m;
    long v;
};

static void *worker(void *arg)
{
    for (int i = 0; i < 100; i++) {
        struct node *n = malloc(sizeof(*n));
        CHECK(n != NULL && ours(n));
        OK(pthread_mutex_init(&n->m, NULL));
        OK(pthread_mutex_lock(&outer));
        OK(pthread_mutex_lock(&n->m));
        n->v = i;
        OK(pthread_mutex_unlock(&n->m));
        OK(pthread_mutex_unlock(&outer));
        OK(pthread_mutex_destroy(&n->m));
        free(n);
    }
    return arg;
}

int main(void)
{
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        t[i] = spawn_thread(worker, NULL);
    for (int i = 0; i < 4; i++)
        join_thread(t[i]);

    struct node *arr = malloc(10 * sizeof(*arr));
    CHECK(arr != NULL);
    for (int i = 0; i < 10; i++) {
        OK(pthread_mutex_init(&arr[i].m, NULL));
        OK(pthread_mutex_lock(&arr[i].m));
        arr[i].v = i;
        OK(pthread_mutex_unlock(&arr[i].m));
    }
    arr = realloc(arr, 1000 * sizeof(*arr)); /* while all are unlocked */
    CHECK(arr != NULL && ours(arr) && arr[9].v == 9);
    OK(pthread_mutex_lock(&outer));
    OK(pthread_mutex_lock(&arr[9].m));
    arr[9].v++;
    OK(pthread_mutex_unlock(&arr[9].m));
    OK(pthread_mutex_unlock(&outer));
    CHECK(arr[9].v == 10);
    free(arr);
    CHECK(atomic_load(&frees) >= 401 && atomic_load(&foreign_frees) == 0);
    return 0;
}
