/*
 * sem_condition_waiter_clean.c - a condition variable built from binary
 * semaphores, as Python's threading.Condition is (every Python lock is a
 * sem_t initialised to 1; an uncontended acquire is a sem_trywait).
 *
 * wait():   take `guard`; make a fresh waiter semaphore and take its token;
 *           publish it; give `guard` back; wait on the waiter again (it
 *           blocks until a notify posts it); take `guard` again.
 * notify(): take `guard`; post the published waiter; give `guard` back.
 *
 * The waiter takes its waiter's token before it gives `guard` back, and the
 * notifier posts the waiter holding `guard`.  Giving `guard` back is the
 * release of a lock its taker holds, not a wake-up that needs the waiter's
 * token, so there is no cycle guard -> waiter -> guard: nobody ever waits
 * for `guard` holding a waiter's token.  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <semaphore.h>

static sem_t guard;
static sem_t waiters[2];
static sem_t *published;
static int notified;

static void take(sem_t *s)
{
    if (sem_trywait(s) != 0)
        CHECK(sem_wait(s) == 0);
}

static void *notifier(void *arg)
{
    for (;;) {
        take(&guard);
        if (published) {
            CHECK(sem_post(published) == 0);
            published = NULL;
            notified++;
            CHECK(sem_post(&guard) == 0);
            return arg;
        }
        CHECK(sem_post(&guard) == 0);
        sched_yield();
    }
}

static void condition_wait(sem_t *waiter)
{
    take(&guard);
    CHECK(sem_init(waiter, 0, 1) == 0);
    take(waiter);
    published = waiter;
    CHECK(sem_post(&guard) == 0);
    take(waiter); /* blocks until the notifier posts it */
    take(&guard);
    CHECK(notified > 0);
    CHECK(sem_post(&guard) == 0);
    CHECK(sem_destroy(waiter) == 0);
}

int main(void)
{
    CHECK(sem_init(&guard, 0, 1) == 0);
    for (int i = 0; i < 2; i++) {
        pthread_t t;
        OK(pthread_create(&t, NULL, notifier, NULL));
        condition_wait(&waiters[i]);
        OK(pthread_join(t, NULL));
    }
    return 0;
}
