/*
 * class_wrapper_nng_inversion.c - locks behind two layers of wrappers, as
 * nng's: nni_mtx_init() -> nni_plat_mtx_init() -> pthread_mutex_init(),
 * nni_mtx_lock() -> nni_plat_mtx_lock() -> pthread_mutex_lock().
 *
 * A socket's lock and a pipe's lock, each created in its constructor.  One
 * thread takes sock1->mtx then pipe1->mtx; later another takes pipe2->mtx
 * then sock2->mtx.  Different objects, so no instance cycle, but the code
 * takes "a socket then a pipe" and "a pipe then a socket": a
 * class-order-inversion between the socket class and the pipe class.  The
 * wrappers are skipped (builtin_wrappers: `*mtx_init*`, `*mtx_lock*`), so
 * the classes are named by the constructors (nni_sock_open, nni_pipe_create),
 * not by the wrapper's one init line, and the report's location is the
 * caller of nni_mtx_lock, not the wrapper's call of pthread_mutex_lock.
 *
 * EXPECT: class-order-inversion nni_sock_open:* nni_pipe_create:*
 * EXPECT-STDERR: ^  at pipe_then_sock\+0x[0-9a-f]+ \(.*?class_wrapper_nng_inversion\.c:{{line:ps_s}}\)
 */
#include "progs.h"

typedef struct { pthread_mutex_t mtx; } nni_plat_mtx;
typedef struct { nni_plat_mtx mtx; } nni_mtx;

__attribute__((noinline)) void nni_plat_mtx_init(nni_plat_mtx *m)
{
    OK(pthread_mutex_init(&m->mtx, NULL));
}
__attribute__((noinline)) void nni_mtx_init(nni_mtx *m) { nni_plat_mtx_init(&m->mtx); __asm__ volatile(""); }
__attribute__((noinline)) void nni_plat_mtx_lock(nni_plat_mtx *m)
{
    OK(pthread_mutex_lock(&m->mtx));
}
__attribute__((noinline)) void nni_plat_mtx_unlock(nni_plat_mtx *m)
{
    OK(pthread_mutex_unlock(&m->mtx));
}
__attribute__((noinline)) void nni_mtx_lock(nni_mtx *m) { nni_plat_mtx_lock(&m->mtx); __asm__ volatile(""); }
__attribute__((noinline)) void nni_mtx_unlock(nni_mtx *m) { nni_plat_mtx_unlock(&m->mtx); __asm__ volatile(""); }

typedef struct { nni_mtx mtx; int npipes; } nni_sock;
typedef struct { nni_mtx mtx; int closed; } nni_pipe;

static __attribute__((noinline)) nni_sock *nni_sock_open(void)
{
    nni_sock *s = calloc(1, sizeof(*s));
    CHECK(s != NULL);
    nni_mtx_init(&s->mtx);
    return s;
}

static __attribute__((noinline)) nni_pipe *nni_pipe_create(void)
{
    nni_pipe *p = calloc(1, sizeof(*p));
    CHECK(p != NULL);
    nni_mtx_init(&p->mtx);
    return p;
}

struct pair { nni_sock *s; nni_pipe *p; };

static void *sock_then_pipe(void *arg)
{
    struct pair *x = arg;
    nni_mtx_lock(&x->s->mtx);
    nni_mtx_lock(&x->p->mtx);
    x->s->npipes++;
    nni_mtx_unlock(&x->p->mtx);
    nni_mtx_unlock(&x->s->mtx);
    return NULL;
}

static void *pipe_then_sock(void *arg)
{
    struct pair *x = arg;
    nni_mtx_lock(&x->p->mtx);
    nni_mtx_lock(&x->s->mtx); /* @line:ps_s */
    x->p->closed = 1;
    nni_mtx_unlock(&x->s->mtx);
    nni_mtx_unlock(&x->p->mtx);
    return NULL;
}

int main(void)
{
    struct pair one = {nni_sock_open(), nni_pipe_create()};
    struct pair two = {nni_sock_open(), nni_pipe_create()};
    run_thread(sock_then_pipe, &one);
    run_thread(pipe_then_sock, &two);
    CHECK(one.s->npipes == 1 && two.p->closed == 1);
    return 0;
}
