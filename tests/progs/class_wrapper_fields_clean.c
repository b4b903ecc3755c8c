/*
 * class_wrapper_fields_clean.c - seven mutex fields of one object
 * initialised in one constructor through one out-of-line init wrapper, as
 * a Kafka client does (rd_kafka_new() calling tinycthread's mtx_init(),
 * which calls pthread_mutex_init, once per field).
 *
 * One thread takes client->conf_lock, then the global client list lock,
 * then client->topic_lock, always in that order: three locks, one order,
 * nothing can deadlock.  Were the class the wrapper's init site (plus its
 * caller, the constructor), the seven fields would be one class and that
 * nesting the class cycle K -> list_lock -> K: a false warning.  The
 * wrapper is a lock-API wrapper (builtin_wrappers: `*mtx_init*`), so each
 * class is the init site outside it, one per field, as the kernel's
 * one-class-per-mutex_init() gives.  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

enum { mtx_plain = 0, mtx_recursive = 1 };

/* tinycthread's mtx_init: attributes, init, result mapped */
__attribute__((noinline)) int tc_mtx_init(pthread_mutex_t *mtx, int type)
{
    pthread_mutexattr_t attr;
    OK(pthread_mutexattr_init(&attr));
    if (type & mtx_recursive)
        OK(pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE));
    int ret = pthread_mutex_init(mtx, &attr);
    OK(pthread_mutexattr_destroy(&attr));
    return ret == 0 ? 0 : -1;
}

struct client {
    pthread_mutex_t conf_lock, topic_lock, broker_lock, queue_lock, timer_lock, stats_lock,
        suppress_lock;
    int ntopics;
};

static pthread_mutex_t client_list_lock = PTHREAD_MUTEX_INITIALIZER;
static int nclients;

static __attribute__((noinline)) struct client *client_new(void)
{
    struct client *c = calloc(1, sizeof(*c));
    CHECK(c != NULL);
    CHECK(tc_mtx_init(&c->conf_lock, mtx_plain) == 0);
    CHECK(tc_mtx_init(&c->topic_lock, mtx_plain) == 0);
    CHECK(tc_mtx_init(&c->broker_lock, mtx_recursive) == 0);
    CHECK(tc_mtx_init(&c->queue_lock, mtx_plain) == 0);
    CHECK(tc_mtx_init(&c->timer_lock, mtx_plain) == 0);
    CHECK(tc_mtx_init(&c->stats_lock, mtx_plain) == 0);
    CHECK(tc_mtx_init(&c->suppress_lock, mtx_plain) == 0);
    return c;
}

static void *add_topic(void *arg)
{
    struct client *c = arg;
    OK(pthread_mutex_lock(&c->conf_lock));
    OK(pthread_mutex_lock(&client_list_lock)); /* conf_lock -> client_list_lock */
    nclients++;
    OK(pthread_mutex_lock(&c->topic_lock));    /* client_list_lock -> topic_lock */
    c->ntopics++;
    OK(pthread_mutex_unlock(&c->topic_lock));
    OK(pthread_mutex_unlock(&client_list_lock));
    OK(pthread_mutex_unlock(&c->conf_lock));
    return NULL;
}

int main(void)
{
    struct client *c = client_new();
    run_thread(add_topic, c);
    CHECK(c->ntopics == 1 && nclients == 1);
    return 0;
}
