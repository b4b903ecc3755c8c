/*
 * robust_alloc.c - librobust_alloc.so, linked normally into
 * tests/progs/robust_locked_allocator.c: a malloc replacement in a shared
 * library (as libjemalloc.so is) whose allocations take pthread mutexes:
 * alloc_lock always, and page_lock nested inside it for large blocks.
 *
 * Every malloc in the process, the validator's own included, comes here.
 * A bump allocator over a static arena; free() only counts.  A test hook:
 * when alloc_hold_for_waiter is set, the next large allocation keeps
 * alloc_lock until another thread waits for it (glibc's mutex word is 2
 * once a thread waits), and only then takes page_lock.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define ARENA (64u << 20)
#define HDR 16 /* block header: the requested size; keeps 16-byte alignment */
#define LARGE 65536

static _Alignas(4096) unsigned char arena[ARENA];
static size_t used;
pthread_mutex_t alloc_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t page_lock = PTHREAD_MUTEX_INITIALIZER;
int alloc_hold_for_waiter;
long alloc_large, alloc_frees;

static void *bump(size_t align, size_t size)
{
    if (align < HDR)
        align = HDR;
    void *r = NULL;
    pthread_mutex_lock(&alloc_lock);
    if (size >= LARGE) {
        if (__atomic_exchange_n(&alloc_hold_for_waiter, 0, __ATOMIC_ACQ_REL))
            while (__atomic_load_n(&alloc_lock.__data.__lock, __ATOMIC_ACQUIRE) != 2)
                ; /* until someone waits for alloc_lock */
        pthread_mutex_lock(&page_lock); /* alloc_lock -> page_lock */
        alloc_large++;
        pthread_mutex_unlock(&page_lock);
    }
    size_t need = size + align + HDR;
    if (used + need <= ARENA) {
        uintptr_t p = ((uintptr_t)arena + used + HDR + align - 1) & ~(uintptr_t)(align - 1);
        ((size_t *)p)[-1] = size;
        used += need;
        r = (void *)p;
    }
    pthread_mutex_unlock(&alloc_lock);
    return r;
}

void *malloc(size_t n) { return bump(HDR, n); }
void *calloc(size_t k, size_t n) { return k && n > SIZE_MAX / k ? NULL : bump(HDR, k * n); } /* zeroed */
void *memalign(size_t a, size_t n) { return bump(a, n); }
void *aligned_alloc(size_t a, size_t n) { return bump(a, n); }
void *valloc(size_t n) { return bump(4096, n); }
void *pvalloc(size_t n) { return bump(4096, (n + 4095) & ~(size_t)4095); }
size_t malloc_usable_size(void *p) { return p ? ((size_t *)p)[-1] : 0; }

int posix_memalign(void **out, size_t a, size_t n)
{
    void *p = bump(a, n);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

void free(void *p)
{
    if (p)
        __atomic_fetch_add(&alloc_frees, 1, __ATOMIC_RELAXED);
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
