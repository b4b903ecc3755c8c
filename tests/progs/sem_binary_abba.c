/*
 * sem_binary_abba.c - two semaphores initialised to 1 and used as mutexes
 * (sem_wait ... sem_post by the same thread), taken in opposite orders by
 * two threads that run one after the other (lib60870's sendASDU vs
 * handleTimeouts).
 *
 * While thread_ab has taken sem_a's only token, it waits on sem_b; while
 * thread_ba has taken sem_b's, it waits on sem_a.  Run at the same time,
 * each holds the token the other waits for and neither posts again: the
 * ABBA of mutexes, with semaphores.  A semaphore initialised to 1 is held
 * from the wait that took its token to its taker's post, so each wait on
 * the other semaphore records held -> waited, and the second closes the
 * cycle.  The report is a wait-for-cycle (its edges are semaphore waits),
 * naming where the held token was taken (thread_ba's first sem_wait).
 *
 * EXPECT: wait-for-cycle sem_a sem_b
 * EXPECT-STDERR: already holds:\n +sem_b .*acquired at thread_ba\+0x[0-9a-f]+ \(.*sem_binary_abba\.c:{{line:ba_b}}\)
 */
#include "progs.h"

#include <semaphore.h>

static sem_t sem_a, sem_b;
static int counter;

static void *thread_ab(void *arg)
{
    CHECK(sem_wait(&sem_a) == 0);
    CHECK(sem_wait(&sem_b) == 0);
    counter++;
    CHECK(sem_post(&sem_b) == 0);
    CHECK(sem_post(&sem_a) == 0);
    return arg;
}

static void *thread_ba(void *arg)
{
    CHECK(sem_wait(&sem_b) == 0); /* @line:ba_b */
    CHECK(sem_wait(&sem_a) == 0);
    counter++;
    CHECK(sem_post(&sem_a) == 0);
    CHECK(sem_post(&sem_b) == 0);
    return arg;
}

int main(void)
{
    CHECK(sem_init(&sem_a, 0, 1) == 0);
    CHECK(sem_init(&sem_b, 0, 1) == 0);
    run_thread(thread_ab, NULL);
    run_thread(thread_ba, NULL);
    CHECK(counter == 2);
    return 0;
}
