/*
 * lifecycle_unlocked_instances.c - seven sessions initialised in
 * session_new(); most are never locked (a request that needed no locking)
 * and some are destroyed at once; the 3rd and the 6th are nested in
 * opposite orders by two threads (one after the other).
 *
 * A lock initialised and destroyed without being locked still is an
 * instance of its class: the instance numbers count every init in
 * creation order, locked or not, so the names are session_new:LINE#3 and
 * session_new:LINE#6 (not #2 and #3, which they would be if only locked
 * instances counted).  The never-locked ones are in no report.
 *
 * EXPECT: lock-order-inversion session_new:*#3 session_new:*#6
 */
#include "progs.h"

#define SESSIONS 7

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

static void session_free(struct session *s)
{
    OK(pthread_mutex_destroy(&s->lock));
    free(s);
}

static void nest(struct session *outer, struct session *inner)
{
    OK(pthread_mutex_lock(&outer->lock));
    OK(pthread_mutex_lock(&inner->lock));
    OK(pthread_mutex_unlock(&inner->lock));
    OK(pthread_mutex_unlock(&outer->lock));
}

static void *merge_3_into_6(void *arg)
{
    nest(sessions[2], sessions[5]);
    return arg;
}

static void *merge_6_into_3(void *arg)
{
    nest(sessions[5], sessions[2]);
    return arg;
}

int main(void)
{
    for (int i = 0; i < SESSIONS; i++) {
        sessions[i] = session_new(i + 1);
        if (i == 1 || i == 3) { /* requests #2 and #4 end before locking anything */
            session_free(sessions[i]);
            sessions[i] = NULL;
        }
    }
    run_thread(merge_3_into_6, NULL);
    run_thread(merge_6_into_3, NULL);
    for (int i = 0; i < SESSIONS; i++)
        if (sessions[i])
            session_free(sessions[i]);
    return 0;
}
