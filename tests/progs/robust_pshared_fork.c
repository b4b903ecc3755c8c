/*
 * robust_pshared_fork.c - a process-shared mutex and process-shared
 * semaphores in shared memory (mmap MAP_SHARED | MAP_ANONYMOUS), used by a
 * parent and its forked child at the same time.
 *
 * First a handshake that makes the contention deterministic: the parent
 * locks sh->m and posts `locked`; the child, woken by it, finds sh->m busy
 * (trylock EBUSY: the *parent process* holds it, legitimately, and will
 * release it) and posts `tried`; the parent unlocks.  Then both processes
 * add 1 to a shared counter 20000 times each under sh->m, concurrently,
 * and ping-pong 100 times through two semaphores.  A process-shared mutex
 * held by another process is the normal state of such a lock, not a lock
 * "held by another thread when the process forked" (nobody held it at the
 * fork), and no process ever holds sh->m while waiting on a semaphore:
 * nothing can deadlock, no report in either process.  The counter must
 * be exactly 40000 and both processes must exit 0 (the parent checks the
 * child's status).
 *
 * EXPECT: none
 */
#include "progs.h"

#include <semaphore.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define ROUNDS 20000
#define PINGS 100

struct shared {
    pthread_mutex_t m;
    sem_t locked, tried, ping, pong;
    long counter, pings, pongs;
};

static void count_up(struct shared *sh)
{
    for (int i = 0; i < ROUNDS; i++) {
        OK(pthread_mutex_lock(&sh->m));
        sh->counter++;
        OK(pthread_mutex_unlock(&sh->m));
    }
}

int main(void)
{
    struct shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
                             MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    CHECK(sh != MAP_FAILED);
    pthread_mutexattr_t attr;
    OK(pthread_mutexattr_init(&attr));
    OK(pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED));
    OK(pthread_mutex_init(&sh->m, &attr));
    OK(pthread_mutexattr_destroy(&attr));
    CHECK(sem_init(&sh->locked, 1, 0) == 0 && sem_init(&sh->tried, 1, 0) == 0);
    CHECK(sem_init(&sh->ping, 1, 0) == 0 && sem_init(&sh->pong, 1, 0) == 0);
    OK(pthread_mutex_lock(&sh->m)); /* known to the validator before the fork */
    OK(pthread_mutex_unlock(&sh->m));

    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        CHECK(sem_wait(&sh->locked) == 0);
        CHECK_RC(pthread_mutex_trylock(&sh->m), EBUSY); /* the parent holds it */
        CHECK(sem_post(&sh->tried) == 0);
        count_up(sh);
        for (int i = 0; i < PINGS; i++) {
            CHECK(sem_wait(&sh->ping) == 0);
            sh->pongs++;
            CHECK(sem_post(&sh->pong) == 0);
        }
        exit(0);
    }
    OK(pthread_mutex_lock(&sh->m));
    CHECK(sem_post(&sh->locked) == 0);
    CHECK(sem_wait(&sh->tried) == 0);
    OK(pthread_mutex_unlock(&sh->m));
    count_up(sh);
    for (int i = 0; i < PINGS; i++) {
        sh->pings++;
        CHECK(sem_post(&sh->ping) == 0);
        CHECK(sem_wait(&sh->pong) == 0);
        CHECK(sh->pongs == sh->pings);
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fprintf(stderr, "child status %#x\n", status);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(sh->counter == 2 * ROUNDS && sh->pongs == PINGS);
    OK(pthread_mutex_destroy(&sh->m));
    OK(munmap(sh, sizeof(*sh)));
    return 0;
}
