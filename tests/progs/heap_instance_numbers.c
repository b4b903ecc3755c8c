/*
 * heap_instance_numbers.c - five sessions whose unnamed locks are all
 * initialised in session_new(); the 3rd and the 5th are nested in
 * opposite orders by two threads (one after the other), the others are
 * only locked alone.
 *
 * An inversion on exactly those two instances.  The instance number n in
 * the default name <class>#<n> counts the instances of the class from 1
 * in creation order, so the names are session_new:LINE#3 and
 * session_new:LINE#5.  Locks #1, #2 and #4 are in no cycle.
 *
 * EXPECT: lock-order-inversion session_new:*#3 session_new:*#5
 */
#include "progs.h"

#define SESSIONS 5

struct session {
    pthread_mutex_t lock;
    int id;
};

static struct session *sessions[SESSIONS];

static __attribute__((noinline)) struct session *session_new(int id)
{
    struct session *s = malloc(sizeof(*s));
    CHECK(s != NULL);
    OK(pthread_mutex_init(&s->lock, NULL));
    s->id = id;
    return s;
}

static void nest(struct session *outer, struct session *inner)
{
    OK(pthread_mutex_lock(&outer->lock));
    OK(pthread_mutex_lock(&inner->lock));
    OK(pthread_mutex_unlock(&inner->lock));
    OK(pthread_mutex_unlock(&outer->lock));
}

static void *merge_3_into_5(void *arg)
{
    nest(sessions[2], sessions[4]);
    return arg;
}

static void *merge_5_into_3(void *arg)
{
    nest(sessions[4], sessions[2]);
    return arg;
}

int main(void)
{
    for (int i = 0; i < SESSIONS; i++)
        sessions[i] = session_new(i + 1);
    for (int i = 0; i < SESSIONS; i++) {
        OK(pthread_mutex_lock(&sessions[i]->lock));
        OK(pthread_mutex_unlock(&sessions[i]->lock));
    }
    run_thread(merge_3_into_5, NULL);
    run_thread(merge_5_into_3, NULL);
    for (int i = 0; i < SESSIONS; i++) {
        OK(pthread_mutex_destroy(&sessions[i]->lock));
        free(sessions[i]);
    }
    return 0;
}
