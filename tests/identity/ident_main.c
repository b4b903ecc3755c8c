/* ident_main.c - a program whose reports must keep their identity when it is
 * rebuilt (identity_test.py): static locks (global and file-local), init
 * classes through a helper in another file, a first-use lock, misuse. */
#include <pthread.h>
#include <stdlib.h>

struct account;
struct account *account_new(void);
void account_lock(struct account *a);
void account_unlock(struct account *a);

pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t local_lock = PTHREAD_MUTEX_INITIALIZER;

struct queue {
    pthread_mutex_t lock;
    int len;
};

__attribute__((noinline)) static struct queue *queue_new(void)
{
    struct queue *q = calloc(1, sizeof(*q));
    pthread_mutex_init(&q->lock, NULL);
    return q;
}

struct stats {
    pthread_mutex_t lock; /* never initialised: a first-use class */
    long n;
};

static struct account *a1, *a2;
static struct queue *q1, *q2;
static struct stats *stats;

static void *ab(void *arg)
{
    pthread_mutex_lock(&lock_a);
    pthread_mutex_lock(&local_lock);
    pthread_mutex_unlock(&local_lock);
    pthread_mutex_unlock(&lock_a);
    account_lock(a1); /* account -> queue */
    pthread_mutex_lock(&q1->lock);
    pthread_mutex_unlock(&q1->lock);
    account_unlock(a1);
    pthread_mutex_lock(&stats->lock); /* stats -> lock_a */
    pthread_mutex_lock(&lock_a);
    pthread_mutex_unlock(&lock_a);
    pthread_mutex_unlock(&stats->lock);
    return arg;
}

static void *ba(void *arg)
{
    pthread_mutex_lock(&local_lock);
    pthread_mutex_lock(&lock_a);
    pthread_mutex_unlock(&lock_a);
    pthread_mutex_unlock(&local_lock);
    pthread_mutex_lock(&q2->lock); /* queue -> account: a class inversion */
    account_lock(a2);
    account_unlock(a2);
    pthread_mutex_unlock(&q2->lock);
    pthread_mutex_lock(&lock_a); /* lock_a -> stats */
    pthread_mutex_lock(&stats->lock);
    pthread_mutex_unlock(&stats->lock);
    pthread_mutex_unlock(&lock_a);
    return arg;
}

int main(void)
{
    pthread_t t;
    a1 = account_new();
    a2 = account_new();
    q1 = queue_new();
    q2 = queue_new();
    stats = calloc(1, sizeof(*stats));
    pthread_create(&t, NULL, ab, NULL);
    pthread_join(t, NULL);
    pthread_create(&t, NULL, ba, NULL);
    pthread_join(t, NULL);
    pthread_mutex_unlock(&local_lock); /* unlock-not-held */
    return 0;
}
