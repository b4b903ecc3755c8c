/*
 * sem_queue_clean.c - a bounded producer/consumer queue: counting
 * semaphores `items` and `slots`, the ring protected by queue_lock, which
 * both sides take and release between their wait and their post.
 *
 * producer: sem_wait(slots); lock; push; unlock; sem_post(items)
 * consumer: sem_wait(items); lock; pop;  unlock; sem_post(slots)
 *
 * Nobody holds a lock while waiting, so there is no lock -> semaphore
 * edge at all.  A post counts the locks taken since a wait only when it
 * posts the semaphore that was waited on (a semaphore used as a lock);
 * here each side posts the *other* semaphore, and holds nothing when it
 * posts: no dependency, no report.  1000 items through a ring of 4, the
 * two threads really running at the same time.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <semaphore.h>

#define ITEMS 1000
#define RING 4

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static sem_t items, slots;
static int ring[RING], head, tail;

static void *producer(void *arg)
{
    for (int i = 1; i <= ITEMS; i++) {
        CHECK(sem_wait(&slots) == 0);
        OK(pthread_mutex_lock(&queue_lock));
        ring[tail] = i;
        tail = (tail + 1) % RING;
        OK(pthread_mutex_unlock(&queue_lock));
        CHECK(sem_post(&items) == 0);
    }
    return arg;
}

static void *consumer(void *arg)
{
    long sum = 0;
    for (int i = 1; i <= ITEMS; i++) {
        CHECK(sem_wait(&items) == 0);
        OK(pthread_mutex_lock(&queue_lock));
        CHECK(ring[head] == i);
        sum += ring[head];
        head = (head + 1) % RING;
        OK(pthread_mutex_unlock(&queue_lock));
        CHECK(sem_post(&slots) == 0);
    }
    CHECK(sum == (long)ITEMS * (ITEMS + 1) / 2);
    return arg;
}

int main(void)
{
    CHECK(sem_init(&items, 0, 0) == 0);
    CHECK(sem_init(&slots, 0, RING) == 0);
    pthread_t c = spawn_thread(consumer, NULL);
    pthread_t p = spawn_thread(producer, NULL);
    join_thread(p);
    join_thread(c);
    CHECK(head == tail);
    CHECK(sem_destroy(&items) == 0);
    CHECK(sem_destroy(&slots) == 0);
    return 0;
}
