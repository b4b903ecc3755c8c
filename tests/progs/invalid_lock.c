/*
 * invalid_lock.c - unlocking memory that is not a lock the validator
 * knows: a struct copied by value while another thread held its mutex
 * (the copy's mutex says "locked by that thread" but nobody ever locked
 * it), and a heap block never initialised, full of leftover bytes.
 *
 * Neither address was ever initialised or acquired as a lock, and neither
 * object looks unlocked, so this is no unbalanced unlock of a real lock
 * and no unlock by a non-owner: it is not a lock at all (TSan: "unlock of
 * an unlocked mutex (or by a wrong thread)"; Helgrind: "not a mutex").
 * One invalid-lock report per call site; glibc's results pass through
 * (the copy of a normal mutex "unlocks", the garbage gets EPERM).  A copy
 * that says it is locked by the unlocking thread itself is not reported:
 * it cannot be told from a lock taken before the validator started.
 *
 * EXPECT: invalid-lock *
 * EXPECT: invalid-lock *
 * EXPECT-STDERR: invalid_lock\.c:{{line:copy}}\b
 * EXPECT-STDERR: invalid_lock\.c:{{line:garbage}}\b
 */
#include "progs.h"

struct account {
    pthread_mutex_t lock;
    int balance;
};

static struct account live = {PTHREAD_MUTEX_INITIALIZER, 10};
static pthread_barrier_t locked, copied;

static void *holder(void *arg)
{
    OK(pthread_mutex_lock(&live.lock));
    pthread_barrier_wait(&locked);
    pthread_barrier_wait(&copied);
    OK(pthread_mutex_unlock(&live.lock));
    return arg;
}

int main(void)
{
    struct account *copy = malloc(sizeof(*copy));
    CHECK(copy);
    OK(pthread_barrier_init(&locked, NULL, 2));
    OK(pthread_barrier_init(&copied, NULL, 2));
    pthread_t t = spawn_thread(holder, NULL);
    pthread_barrier_wait(&locked);
    memcpy(copy, &live, sizeof(*copy)); /* copies a mutex holder() has locked */
    pthread_barrier_wait(&copied);
    join_thread(t);
    OK(pthread_mutex_unlock(&copy->lock)); /* @line:copy */

    pthread_mutex_t *garbage = malloc(sizeof(*garbage));
    CHECK(garbage);
    memset(garbage, 0x01, sizeof(*garbage)); /* what an uninitialised block may hold */
    CHECK_RC(pthread_mutex_unlock(garbage), EPERM); /* @line:garbage */
    free(garbage);
    free(copy);
    return 0;
}
