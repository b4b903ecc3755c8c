/*
 * timeout_woken_waiter_clean.c - a timed wait that expired while the thread
 * it waited for had already been woken.  The worker signals `reply` once,
 * then sleeps on `go` (with gate_mx).  A third thread takes gate_mx and keeps
 * it for 300 ms.  main broadcasts `go` (it is the only thread that ever
 * wakes it) and waits 50 ms for a second `reply`: the worker, woken, is
 * still inside pthread_cond_wait taking gate_mx back from the third thread,
 * so main's wait expires.  Nothing here would hang without the timeout:
 * the worker waits for the third thread, not for main.  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <semaphore.h>
#include <stdatomic.h>
#include <unistd.h>

static pthread_mutex_t gate_mx = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t reply_mx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go = PTHREAD_COND_INITIALIZER;
static pthread_cond_t reply = PTHREAD_COND_INITIALIZER;
static atomic_int going;
static int waiting, replies;
static sem_t gate_held;

static void send_reply(void)
{
    OK(pthread_mutex_lock(&reply_mx));
    replies++;
    OK(pthread_cond_signal(&reply));
    OK(pthread_mutex_unlock(&reply_mx));
}

static void *worker(void *arg)
{
    send_reply();
    OK(pthread_mutex_lock(&gate_mx));
    waiting = 1;
    while (!atomic_load(&going))
        OK(pthread_cond_wait(&go, &gate_mx));
    OK(pthread_mutex_unlock(&gate_mx));
    send_reply();
    return arg;
}

static void *gate_keeper(void *arg)
{
    OK(pthread_mutex_lock(&gate_mx));
    CHECK(sem_post(&gate_held) == 0);
    usleep(500 * 1000);
    OK(pthread_mutex_unlock(&gate_mx));
    return arg;
}

int main(void)
{
    CHECK(sem_init(&gate_held, 0, 0) == 0);
    pthread_t w = spawn_thread(worker, NULL);
    for (int ready = 0; !ready;) { /* the worker sleeps on `go` */
        OK(pthread_mutex_lock(&gate_mx));
        ready = waiting;
        OK(pthread_mutex_unlock(&gate_mx));
        if (!ready)
            usleep(1000);
    }
    pthread_t k = spawn_thread(gate_keeper, NULL);
    CHECK(sem_wait(&gate_held) == 0);
    atomic_store(&going, 1);
    OK(pthread_cond_broadcast(&go));
    OK(pthread_mutex_lock(&reply_mx));
    struct timespec until = in_ms(CLOCK_REALTIME, 50);
    int r = 0;
    while (replies < 2 && r == 0)
        r = pthread_cond_timedwait(&reply, &reply_mx, &until);
    CHECK(r == ETIMEDOUT || r == 0); /* 0: main ran late, the case was not met */
    OK(pthread_mutex_unlock(&reply_mx));
    join_thread(k);
    join_thread(w);
    CHECK(replies == 2);
    return 0;
}
