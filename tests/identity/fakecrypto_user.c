/* fakecrypto_user.c - drives libfakecrypto.so: one thread takes
 * global -> ctx -> store, a later one store -> ctx -> global. */
#include <pthread.h>
#include <stddef.h>

struct ctx;
struct store;
void fc_make(struct ctx **c, struct store **s);
void fc_ctx_then_store(struct ctx *c, struct store *s);
void fc_store_then_ctx(struct ctx *c, struct store *s);

static struct ctx *c;
static struct store *s;

static void *forward(void *arg) { fc_ctx_then_store(c, s); return arg; }
static void *backward(void *arg) { fc_store_then_ctx(c, s); return arg; }

int main(void)
{
    pthread_t t;
    fc_make(&c, &s);
    pthread_create(&t, NULL, forward, NULL);
    pthread_join(t, NULL);
    pthread_create(&t, NULL, backward, NULL);
    pthread_join(t, NULL);
    return 0;
}
