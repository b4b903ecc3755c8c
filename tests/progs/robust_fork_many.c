/*
 * robust_fork_many.c - 50 forked children that each take locks and exit,
 * forked while other threads of the parent keep locking: one creates,
 * locks, destroys and frees heap mutexes in a loop, one keeps starting
 * short-lived threads that take bg_a -> bg_b.
 *
 * At each fork the other threads may be anywhere, inside the validator
 * too; the child inherits only the forking thread and must find the
 * validator's state usable (no internal lock left locked, no report about
 * the validator itself).  Each child touches only locks that no other
 * thread of the parent ever takes (child_a -> child_b, the order main also
 * uses before forking, and a heap mutex of its own), never bg_a or bg_b,
 * which other threads may hold at the fork: nothing a child takes can
 * still be held by a thread that is gone, and every order is consistent.
 * No report in any process.  Each child stores i*i in a MAP_SHARED array
 * under its locks and exits 0, half through exit(), half through _exit();
 * the parent checks every status and every value.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHILDREN 50

static pthread_mutex_t bg_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t bg_b = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t child_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t child_b = PTHREAD_MUTEX_INITIALIZER;
static atomic_int stop;
static pthread_barrier_t started;
static long bg_count;

static void nest(pthread_mutex_t *a, pthread_mutex_t *b)
{
    OK(pthread_mutex_lock(a));
    OK(pthread_mutex_lock(b));
    OK(pthread_mutex_unlock(b));
    OK(pthread_mutex_unlock(a));
}

static void *short_lived(void *arg)
{
    nest(&bg_a, &bg_b);
    bg_count++; /* joined before the next one starts */
    return arg;
}

static void *spawner(void *arg)
{
    pthread_barrier_wait(&started);
    while (!atomic_load(&stop))
        run_thread(short_lived, NULL);
    return arg;
}

static void *heap_churner(void *arg)
{
    pthread_barrier_wait(&started);
    while (!atomic_load(&stop)) {
        pthread_mutex_t *m = malloc(sizeof(*m));
        CHECK(m != NULL);
        OK(pthread_mutex_init(m, NULL));
        nest(&bg_a, m);
        OK(pthread_mutex_destroy(m));
        free(m);
    }
    return arg;
}

static void child(long i, long *results)
{
    pthread_mutex_t *own = malloc(sizeof(*own));
    CHECK(own != NULL);
    OK(pthread_mutex_init(own, NULL));
    OK(pthread_mutex_lock(&child_a));
    nest(&child_b, own);
    results[i] = i * i;
    OK(pthread_mutex_unlock(&child_a));
    OK(pthread_mutex_destroy(own));
    free(own);
    if (i % 2)
        _exit(0);
    exit(0);
}

int main(void)
{
    long *results = mmap(NULL, CHILDREN * sizeof(long), PROT_READ | PROT_WRITE,
                         MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    CHECK(results != MAP_FAILED);
    nest(&child_a, &child_b); /* the order the children use */

    OK(pthread_barrier_init(&started, NULL, 3));
    pthread_t bg[2] = {spawn_thread(spawner, NULL), spawn_thread(heap_churner, NULL)};
    pthread_barrier_wait(&started);

    pid_t pids[CHILDREN];
    for (long i = 0; i < CHILDREN; i++) {
        results[i] = -1;
        pids[i] = fork();
        CHECK(pids[i] >= 0);
        if (pids[i] == 0)
            child(i, results);
    }
    for (long i = 0; i < CHILDREN; i++) {
        int status;
        CHECK(waitpid(pids[i], &status, 0) == pids[i]);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            fprintf(stderr, "child %ld: status %#x\n", i, status);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        CHECK(results[i] == i * i);
    }
    atomic_store(&stop, 1);
    join_thread(bg[0]);
    join_thread(bg[1]);
    CHECK(bg_count > 0);
    return 0;
}
