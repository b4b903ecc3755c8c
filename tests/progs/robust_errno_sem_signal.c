/*
 * robust_errno_sem_signal.c - the semaphore and signal wrappers hand the
 * program the real function's result and errno: these calls report a
 * failure as -1 with errno (pthread_sigmask returns its error instead), and
 * must leave errno alone when they succeed.
 *
 * sem_trywait -1/EAGAIN, sem_timedwait and sem_clockwait -1/ETIMEDOUT,
 * sem_timedwait with a bad timespec -1/EINVAL, sem_post past SEM_VALUE_MAX
 * -1/EOVERFLOW; sigaction on SIGKILL -1/EINVAL, signal(SIGKILL) SIG_ERR/
 * EINVAL, sigprocmask with a bad `how` -1/EINVAL, pthread_sigmask with a
 * bad `how` EINVAL (errno untouched).  errno holds a sentinel before every
 * successful call (sem_init, sem_post, sem_wait, sem_destroy, sigaction,
 * pthread_sigmask, sigprocmask) and must still hold it after.  No lock is
 * ever held: no report.  See robust_errno_passthrough.c for the locks.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <limits.h>
#include <semaphore.h>
#include <signal.h>

#define SENTINEL 12345
/* A successful call must leave errno as it was. */
#define KEEPS_ERRNO(call)                                                  \
    do {                                                                   \
        errno = SENTINEL;                                                  \
        OK(call);                                                          \
        CHECK(errno == SENTINEL);                                          \
    } while (0)
/* A failing -1/errno call. */
#define FAILS_WITH(call, err)                                              \
    do {                                                                   \
        errno = 0;                                                         \
        CHECK((call) == -1);                                               \
        CHECK_RC(errno, err);                                              \
    } while (0)

int main(void)
{
    struct timespec bad = {.tv_sec = 0, .tv_nsec = -1};
    sem_t sem, full;
    KEEPS_ERRNO(sem_init(&sem, 0, 0));
    FAILS_WITH(sem_trywait(&sem), EAGAIN);
    struct timespec soon = in_ms(CLOCK_REALTIME, 20);
    FAILS_WITH(sem_timedwait(&sem, &soon), ETIMEDOUT);
    struct timespec mono = in_ms(CLOCK_MONOTONIC, 20);
    FAILS_WITH(sem_clockwait(&sem, CLOCK_MONOTONIC, &mono), ETIMEDOUT);
    FAILS_WITH(sem_timedwait(&sem, &bad), EINVAL);
    KEEPS_ERRNO(sem_post(&sem));
    KEEPS_ERRNO(sem_trywait(&sem));
    KEEPS_ERRNO(sem_post(&sem));
    KEEPS_ERRNO(sem_wait(&sem));
    KEEPS_ERRNO(sem_init(&full, 0, SEM_VALUE_MAX));
    FAILS_WITH(sem_post(&full), EOVERFLOW);
    KEEPS_ERRNO(sem_destroy(&full));
    KEEPS_ERRNO(sem_destroy(&sem));

    struct sigaction act;
    memset(&act, 0, sizeof(act));
    act.sa_handler = SIG_IGN;
    FAILS_WITH(sigaction(SIGKILL, &act, NULL), EINVAL);
    errno = 0;
    CHECK(signal(SIGKILL, SIG_IGN) == SIG_ERR);
    CHECK_RC(errno, EINVAL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR2);
    FAILS_WITH(sigprocmask(12345, &set, NULL), EINVAL);
    errno = SENTINEL;
    CHECK_RC(pthread_sigmask(12345, &set, NULL), EINVAL);
    CHECK(errno == SENTINEL);
    KEEPS_ERRNO(pthread_sigmask(SIG_BLOCK, &set, NULL));
    KEEPS_ERRNO(sigprocmask(SIG_UNBLOCK, &set, NULL));
    KEEPS_ERRNO(sigaction(SIGUSR1, &act, NULL));
    return 0;
}
