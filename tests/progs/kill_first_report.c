/*
 * kill_first_report.c - a hung program killed from outside (as `timeout`
 * does), whose kill-time report is its first report: no earlier report
 * loaded the symboliser, and the kill-time report runs in a signal handler,
 * where loading libdw could deadlock on the loader's lock held by the code
 * the signal interrupted (and the process must still end).  So its frames
 * and names are module+offset, one line says why, and the process dies of
 * SIGTERM as it would have.
 *
 * One thread holds lock_busy and waits on a semaphore nobody posts (no
 * report: nothing shows who would post it); another blocks on lock_busy;
 * a child process sends SIGTERM to main, as `timeout` would.
 *
 * HANGS: 8
 * EXPECT-SIGNAL: SIGTERM
 * EXPECT: blocked-at-kill kill_first_report+0x* kill_first_report+0x*
 * EXPECT-STDERR: libdw is not loaded while a fatal signal is handled
 * EXPECT-STDERR: SIGTERM ends the process; 2 threads blocked
 * EXPECT-STDERR: \?\? \(\S*kill_first_report\+0x[0-9a-f]+\)
 */
#include "progs.h"

#include <semaphore.h>
#include <signal.h>
#include <unistd.h>

static pthread_mutex_t lock_busy = PTHREAD_MUTEX_INITIALIZER;
static sem_t never_posted;
static pthread_barrier_t holding;

static void *holder(void *arg)
{
    OK(pthread_mutex_lock(&lock_busy));
    pthread_barrier_wait(&holding);
    CHECK(sem_wait(&never_posted) == 0); /* blocks forever */
    return arg;
}

static void *blocked(void *arg)
{
    pthread_barrier_wait(&holding);
    OK(pthread_mutex_lock(&lock_busy)); /* blocks forever */
    return arg;
}

int main(void)
{
    CHECK(sem_init(&never_posted, 0, 0) == 0);
    OK(pthread_barrier_init(&holding, NULL, 2));
    spawn_thread(holder, NULL);
    spawn_thread(blocked, NULL);
    pid_t parent = getpid();
    if (fork() == 0) { /* the signal comes from another process */
        struct timespec ts = {1, 0};
        nanosleep(&ts, NULL);
        kill(parent, SIGTERM);
        _exit(0);
    }
    for (;;)
        pause();
}
