/*
 * exit_past_hang.c - memcached 1.6.18's hash-table expansion meeting an
 * `lru_crawler` command, then a normal shutdown.  The expander ("pauser")
 * pauses the workers: it takes hang_lock and crawler_lock, and waits on
 * registered until both workers have reported in.  Worker 1 reports, then
 * blocks on hang_lock, as paused workers do.  Worker 2 was serving a
 * command that takes crawler_lock, and blocks on it before it can report.
 * Nothing can move again; main returns from main() anyway (memcached does
 * on SIGTERM).  The exit sees two threads blocked on locks held by a thread
 * blocked in a wait, the same 200 ms later: one hang-through-wait each,
 * naming the lock and the condvar, and the wake-ups seen before.
 *
 * EXPECT: hang-through-wait hang_lock registered
 * EXPECT: hang-through-wait crawler_lock registered
 * EXPECT-STDERR: crawler_lock .*\n.*\n.*registered .*\nwhen the process exited; woken before by T3\.
 * EXPECT-STDERR: hang_lock .*\n.*\n.*registered .*\nwhen the process exited; the wait is ended only by T3, the blocked thread itself \(certain\)
 * EXPECT-STDERR: (?s)\[hang-through-wait\].*?in crawl_command\b[^\n]*exit_past_hang\.c:{{line:crawl}}\)
 */
#include "progs.h"

#include <stdatomic.h>
#include <time.h>

static pthread_mutex_t hang_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t crawler_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t registered = PTHREAD_COND_INITIALIZER;
static int init_count;
static atomic_int pausing, stuck;

static void register_thread(void)
{
    OK(pthread_mutex_lock(&init_lock));
    init_count++;
    OK(pthread_cond_signal(&registered));
    OK(pthread_mutex_unlock(&init_lock));
    atomic_fetch_add(&stuck, 1);
    OK(pthread_mutex_lock(&hang_lock)); /* paused workers pile up here */
    OK(pthread_mutex_unlock(&hang_lock));
}

static void *pauser(void *arg)
{
    OK(pthread_mutex_lock(&hang_lock));
    OK(pthread_mutex_lock(&crawler_lock));
    OK(pthread_mutex_lock(&init_lock));
    init_count = 0;
    atomic_store(&pausing, 1);
    while (init_count < 2)
        OK(pthread_cond_wait(&registered, &init_lock)); /* never ends */
    OK(pthread_mutex_unlock(&init_lock));
    OK(pthread_mutex_unlock(&crawler_lock));
    OK(pthread_mutex_unlock(&hang_lock));
    return arg;
}

static void *worker1(void *arg)
{
    while (!atomic_load(&pausing))
        sched_yield();
    register_thread();
    return arg;
}

static void crawl_command(void)
{
    OK(pthread_mutex_lock(&crawler_lock)); /* @line:crawl */
    OK(pthread_mutex_unlock(&crawler_lock));
}

static void *worker2(void *arg)
{
    while (!atomic_load(&pausing))
        sched_yield();
    atomic_fetch_add(&stuck, 1);
    crawl_command();
    register_thread();
    return arg;
}

int main(void)
{
    spawn_thread(pauser, NULL);
    while (!atomic_load(&pausing))
        sched_yield();
    spawn_thread(worker1, NULL);
    spawn_thread(worker2, NULL);
    while (atomic_load(&stuck) < 2)
        sched_yield();
    struct timespec ts = {0, 100 * 1000 * 1000}; /* both block */
    nanosleep(&ts, NULL);
    return 0;
}
