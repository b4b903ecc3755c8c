/*
 * timeout_woken_waiter_mutex.c - a timed wait that expired while the thread
 * it waited for, already woken, was taking back a mutex the waiter holds.
 * The worker signals `reply` once, then sleeps on `go` (with gate_mx).
 * main takes gate_mx, broadcasts `go` (it is the only thread that ever
 * wakes it) and, still holding gate_mx, waits 50 ms for a second `reply`:
 * the woken worker cannot leave pthread_cond_wait without gate_mx.  Without
 * the timeout the two would hang: timeout-deadlock, naming `reply` and the
 * lock the worker is really blocked on, gate_mx (not `go`, which it left).
 *
 * EXPECT: timeout-deadlock reply gate_mx
 */
#include "progs.h"

#include <stdatomic.h>
#include <unistd.h>

static pthread_mutex_t gate_mx = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t reply_mx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go = PTHREAD_COND_INITIALIZER;
static pthread_cond_t reply = PTHREAD_COND_INITIALIZER;
static atomic_int going;
static int waiting, replies;

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

int main(void)
{
    pthread_t w = spawn_thread(worker, NULL);
    for (;;) { /* until the worker sleeps on `go` */
        OK(pthread_mutex_lock(&gate_mx));
        if (waiting)
            break;
        OK(pthread_mutex_unlock(&gate_mx));
        usleep(1000);
    }
    atomic_store(&going, 1);
    OK(pthread_cond_broadcast(&go));
    usleep(20 * 1000); /* the worker is woken and blocked on gate_mx */
    OK(pthread_mutex_lock(&reply_mx));
    struct timespec until = in_ms(CLOCK_REALTIME, 50);
    int r = 0;
    while (replies < 2 && r == 0)
        r = pthread_cond_timedwait(&reply, &reply_mx, &until);
    CHECK_RC(r, ETIMEDOUT);
    OK(pthread_mutex_unlock(&reply_mx));
    OK(pthread_mutex_unlock(&gate_mx));
    join_thread(w);
    CHECK(replies == 2);
    return 0;
}
