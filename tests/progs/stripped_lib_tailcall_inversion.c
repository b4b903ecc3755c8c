/*
 * stripped_lib_tailcall_inversion.c - twin of stripped_lib_tailcall_clean.c
 * where both mutexes come from one purpose, two warp chunks of the
 * library's warp_chunk_new(): chunk 1 -> rw, and rw -> chunk 2.  One class
 * by any keying; the class cycle chunk -> rw -> chunk closes when one chunk
 * runs both orders, so the warning stays, named by the first caller of the
 * symbol-less helpers that has a name.
 *
 * EXPECT: class-order-inversion warp_chunk_new+0x* rw_mutex
 */
#include "progs.h"

struct warp_chunk { void *mutex; int done; };
struct warp_chunk *warp_chunk_new(void);

static pthread_mutex_t rw_mutex = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
    struct warp_chunk *c1 = warp_chunk_new(), *c2 = warp_chunk_new();
    CHECK(c1 && c2 && c1->mutex && c2->mutex);
    OK(pthread_mutex_lock(c1->mutex));
    OK(pthread_mutex_lock(&rw_mutex));
    OK(pthread_mutex_unlock(&rw_mutex));
    OK(pthread_mutex_unlock(c1->mutex));
    OK(pthread_mutex_lock(&rw_mutex));
    OK(pthread_mutex_lock(c2->mutex));
    OK(pthread_mutex_unlock(c2->mutex));
    OK(pthread_mutex_unlock(&rw_mutex));
    return 0;
}
