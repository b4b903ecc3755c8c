/* REPRO: wait-for-cycle
 *
 * ulockdep false positive found on knotd 3.2 (docs/real-world.md, "Knot
 * DNS"), not yet fixed.  Knot's thread units (dthreads.c): a worker takes
 * the unit's report_mx to report its state before it ends; the main
 * thread scans the unit under report_mx then the unit lock (dt_join), and
 * tears the unit down joining the worker while holding the unit lock.
 * ulockdep completes the cycle "join holding unit_mx" -> "the worker ends
 * only after taking report_mx" -> "report_mx -> unit_mx".  The only thread
 * that takes report_mx then unit_mx is the main thread, the one joining,
 * so no other thread can hold report_mx while waiting for unit_mx: it
 * cannot deadlock.  A lock-order validator cannot know that a single
 * thread owns that order.
 *
 * Native: exits 0.  Under ulockdep: one wait-for-cycle error.
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t report_mx = PTHREAD_MUTEX_INITIALIZER; /* unit->_report_mx */
static pthread_mutex_t unit_mx = PTHREAD_MUTEX_INITIALIZER;   /* unit->_mx */
static int reports;

static void *thread_ep(void *arg)
{
    usleep(50 * 1000);
    pthread_mutex_lock(&report_mx); /* state report on the way out */
    reports++;
    pthread_mutex_unlock(&report_mx);
    usleep(100 * 1000);
    return arg;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, thread_ep, NULL);
    pthread_mutex_lock(&report_mx); /* dt_join's scan */
    pthread_mutex_lock(&unit_mx);
    pthread_mutex_unlock(&unit_mx);
    pthread_mutex_unlock(&report_mx);
    usleep(100 * 1000);             /* the worker has reported */
    pthread_mutex_lock(&unit_mx);   /* unit teardown: join under the unit lock */
    pthread_join(t, NULL);
    pthread_mutex_unlock(&unit_mx);
    printf("reports %d\n", reports);
    return 0;
}
