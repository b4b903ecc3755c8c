/*
 * class_lazy_gate_clean.c - an event-loop lock that guards every nesting,
 * initialised lazily by one function reached from two places, as in an
 * OPC UA stack (the server's and the client's start-up both call the
 * loop's lazy init).
 *
 * Under loop1->lock a thread nests a1 -> b1; later, under loop2->lock,
 * another nests b2 -> a2.  Classes A and B are taken in both orders, but
 * every such nesting happens with a loop lock held exclusively: the loop
 * lock class is a gate, the class cycle cannot close, nothing to report.
 * With the loop lock's class keyed by its init site *and* caller, loop1's
 * and loop2's locks were two classes, no class was common to both
 * recordings, and a false class-order-inversion came out (one per test
 * binary).  One init call site in the source, one class: no report.
 *
 * EXPECT: none
 */
#include "progs.h"

struct loop { pthread_mutex_t lock; int started; };
struct obj { pthread_mutex_t lock; int n; };

static __attribute__((noinline)) void loop_lazy_init(struct loop *l)
{
    if (l->started)
        return;
    OK(pthread_mutex_init(&l->lock, NULL));
    l->started = 1;
}

static __attribute__((noinline)) void server_start(struct loop *l) { loop_lazy_init(l); }
static __attribute__((noinline)) void client_connect(struct loop *l) { loop_lazy_init(l); }

static __attribute__((noinline)) struct obj *a_new(void)
{
    struct obj *o = calloc(1, sizeof(*o));
    CHECK(o != NULL);
    OK(pthread_mutex_init(&o->lock, NULL));
    return o;
}

static __attribute__((noinline)) struct obj *b_new(void)
{
    struct obj *o = calloc(1, sizeof(*o));
    CHECK(o != NULL);
    OK(pthread_mutex_init(&o->lock, NULL));
    return o;
}

struct job { struct loop *loop; struct obj *first, *second; };

static void *run_job(void *arg)
{
    struct job *j = arg;
    OK(pthread_mutex_lock(&j->loop->lock));
    OK(pthread_mutex_lock(&j->first->lock));
    OK(pthread_mutex_lock(&j->second->lock));
    j->second->n++;
    OK(pthread_mutex_unlock(&j->second->lock));
    OK(pthread_mutex_unlock(&j->first->lock));
    OK(pthread_mutex_unlock(&j->loop->lock));
    return NULL;
}

int main(void)
{
    static struct loop loop1, loop2;
    server_start(&loop1);
    client_connect(&loop2);
    struct job one = {&loop1, a_new(), b_new()};  /* a1 -> b1 under loop1 */
    struct job two = {&loop2, b_new(), a_new()};  /* b2 -> a2 under loop2 */
    run_thread(run_job, &one);
    run_thread(run_job, &two);
    CHECK(one.second->n == 1 && two.second->n == 1);
    return 0;
}
