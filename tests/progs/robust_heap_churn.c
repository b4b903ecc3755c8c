/*
 * robust_heap_churn.c - a malloc/free-heavy program whose heap objects
 * contain mutexes: 100000 objects created, locked in nested pairs, freed,
 * and created again in the reused memory; an array of structs holding
 * mutexes grown and shrunk with realloc() while all are unlocked.
 *
 *   gen 1: obj_new() mallocs and inits each (one class: its init site);
 *          pairs nest ascending, objs[i] -> objs[i+1], one order, no cycle.
 *          Half are destroyed then freed, half only freed.
 *   gen 2: as many objects again, from the same freed memory (mostly the
 *          same addresses, in another order), with PTHREAD_MUTEX_INITIALIZER
 *          by assignment (no init call), nested descending, objs[i+1] ->
 *          objs[i].  They are new locks: free() ended the old ones (their
 *          memory was returned), so no old edge survives to close a cycle
 *          with the new ones.
 *   realloc: 1000 slots with mutexes, each nested with the next
 *          (ascending), then realloc'ed to 100000 slots (moved or grown:
 *          the program cannot tell and does not care), the new slots
 *          initialised, every pair nested ascending again, then shrunk to
 *          10 slots and to 0 bytes.  Same order always.
 * Nothing can deadlock: no report.  The values carried in the objects and
 * the slots are checked after every step, so a validator that disturbed
 * the heap (moved bytes wrongly, freed twice, leaked into the program's
 * memory) fails.
 *
 * TIMEOUT: 20
 * EXPECT: none
 */
#include "progs.h"

#define N 100000
#define SLOTS0 1000

struct obj {
    pthread_mutex_t m;
    long value;
};

static __attribute__((noinline)) struct obj *obj_new(long v)
{
    struct obj *o = malloc(sizeof(*o));
    CHECK(o != NULL);
    OK(pthread_mutex_init(&o->m, NULL));
    o->value = v;
    return o;
}

static __attribute__((noinline)) struct obj *obj_new_static(long v)
{
    struct obj *o = malloc(sizeof(*o));
    CHECK(o != NULL);
    *o = (struct obj){PTHREAD_MUTEX_INITIALIZER, v};
    return o;
}

/* Move one unit from a to b with both held, a first. */
static void nested(pthread_mutex_t *a, long *va, pthread_mutex_t *b, long *vb)
{
    OK(pthread_mutex_lock(a));
    OK(pthread_mutex_lock(b));
    (*va)--;
    (*vb)++;
    OK(pthread_mutex_unlock(b));
    OK(pthread_mutex_unlock(a));
}

int main(void)
{
    struct obj **objs = calloc(N, sizeof(*objs));
    CHECK(objs != NULL);
    for (long i = 0; i < N; i++)
        objs[i] = obj_new(10);
    for (long i = 0; i + 1 < N; i++)
        nested(&objs[i]->m, &objs[i]->value, &objs[i + 1]->m, &objs[i + 1]->value);
    long sum = 0;
    for (long i = 0; i < N; i++) {
        sum += objs[i]->value;
        if (i % 2)
            OK(pthread_mutex_destroy(&objs[i]->m));
        free(objs[i]);
    }
    CHECK(sum == 10L * N);

    for (long i = N - 1; i >= 0; i--)
        objs[i] = obj_new_static(20);
    for (long i = N - 2; i >= 0; i--)
        nested(&objs[i + 1]->m, &objs[i + 1]->value, &objs[i]->m, &objs[i]->value);
    CHECK(objs[0]->value == 21 && objs[N - 1]->value == 19 && objs[N / 2]->value == 20);
    for (long i = 0; i < N; i++)
        free(objs[i]);
    free(objs);

    struct slot {
        pthread_mutex_t m;
        long v;
    } *slots = malloc(SLOTS0 * sizeof(*slots));
    CHECK(slots != NULL);
    for (long i = 0; i < SLOTS0; i++) {
        OK(pthread_mutex_init(&slots[i].m, NULL));
        slots[i].v = i;
    }
    for (long i = 0; i + 1 < SLOTS0; i++)
        nested(&slots[i].m, &slots[i].v, &slots[i + 1].m, &slots[i + 1].v);
    CHECK((slots = realloc(slots, N * sizeof(*slots))) != NULL);
    for (long i = 0; i < SLOTS0; i++) /* the contents moved with the block */
        CHECK(slots[i].v == i - (i == 0) + (i == SLOTS0 - 1));
    for (long i = SLOTS0; i < N; i++) {
        OK(pthread_mutex_init(&slots[i].m, NULL));
        slots[i].v = i;
    }
    for (long i = 0; i + 1 < N; i++)
        nested(&slots[i].m, &slots[i].v, &slots[i + 1].m, &slots[i + 1].v);
    CHECK(slots[0].v == -2 && slots[1].v == 1 && slots[N - 1].v == N);
    slots = realloc(slots, 10 * sizeof(*slots));
    CHECK(slots != NULL && slots[9].v == 9);
    nested(&slots[8].m, &slots[8].v, &slots[9].m, &slots[9].v);
    CHECK(slots[8].v == 7 && slots[9].v == 10);
    CHECK(realloc(slots, 0) == NULL); /* glibc: frees the block */
    return 0;
}
