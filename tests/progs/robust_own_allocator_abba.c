/*
 * robust_own_allocator_abba.c - twin of robust_own_allocator.c with a
 * real ordering bug: the program replaces malloc in its own executable
 * (the glibc-documented set of functions; a bump allocator, free() only
 * counts) and, on its only thread, takes lock_a -> lock_b and later
 * lock_b -> lock_a.
 *
 * Had the two sequences run in two threads they could deadlock: one
 * lock-order-inversion report, whose text the validator builds with
 * memory from the program's allocator (the symboliser allocates), all of
 * which must go back to the program's free(), never to glibc's.  No
 * thread is created, so this isolates the report path from thread
 * start-up.  The program counts frees of blocks it never handed out
 * (none allowed) and writes the counts to stderr.
 *
 * EXPECT: lock-order-inversion lock_a lock_b
 * EXPECT-STDERR: ^robust_own_allocator_abba: foreign frees 0$
 */
#include "progs.h"

#include <stdatomic.h>
#include <stdint.h>

#define ARENA (16u << 20)
#define HDR 16 /* block header: the requested size; keeps 16-byte alignment */

static _Alignas(4096) unsigned char arena[ARENA];
static atomic_size_t used;
static atomic_long foreign_frees;

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
    if (p && ((unsigned char *)p < arena || (unsigned char *)p >= arena + ARENA))
        atomic_fetch_add(&foreign_frees, 1);
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

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_unlock(&lock_b));
    OK(pthread_mutex_unlock(&lock_a));

    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_lock(&lock_a)); /* lock_b -> lock_a: reported here */
    OK(pthread_mutex_unlock(&lock_a));
    OK(pthread_mutex_unlock(&lock_b));
    fprintf(stderr, "robust_own_allocator_abba: foreign frees %ld\n",
            (long)atomic_load(&foreign_frees));
    CHECK(atomic_load(&foreign_frees) == 0);
    return 0;
}
