/*
 * custom_lock_abba.c - a home-made spinlock on C11 atomics, annotated
 * with uld_lock_init / uld_acquire / uld_release, taken ABBA by two
 * threads that run one after the other.
 *
 * The validator never sees a pthread call for these locks; the
 * annotations make them ordinary nodes of the graph, so the inversion is
 * reported like a mutex ABBA.  Names are set with uld_lock_set_name().
 * A trylock annotated with ULD_ACQUIRE_TRY adds no edge (see my_trylock).
 *
 * EXPECT: lock-order-inversion custom_a custom_b
 */
#include "progs.h"

#include <stdatomic.h>

struct my_spin {
    atomic_int v;
};

static struct my_spin spin_a, spin_b, spin_c;

static void my_init(struct my_spin *s, const char *name)
{
    atomic_init(&s->v, 0);
    uld_lock_init(s, name, 0);
    uld_lock_set_name(s, name);
}

static void my_lock(struct my_spin *s)
{
    uld_acquire(s, 0); /* validate before spinning */
    while (atomic_exchange_explicit(&s->v, 1, memory_order_acquire))
        ;
}

static int my_trylock(struct my_spin *s)
{
    if (atomic_exchange_explicit(&s->v, 1, memory_order_acquire))
        return 0;
    uld_acquire(s, ULD_ACQUIRE_TRY);
    return 1;
}

static void my_unlock(struct my_spin *s)
{
    uld_release(s);
    atomic_store_explicit(&s->v, 0, memory_order_release);
}

static void *thread_ab(void *arg)
{
    my_lock(&spin_a);
    my_lock(&spin_b);
    CHECK(my_trylock(&spin_c)); /* no edge into custom_c */
    my_unlock(&spin_c);
    my_unlock(&spin_b);
    my_unlock(&spin_a);
    return arg;
}

static void *thread_ba(void *arg)
{
    my_lock(&spin_c);
    my_lock(&spin_b);
    my_lock(&spin_a);
    my_unlock(&spin_a);
    my_unlock(&spin_b);
    my_unlock(&spin_c);
    return arg;
}

int main(void)
{
    my_init(&spin_a, "custom_a");
    my_init(&spin_b, "custom_b");
    my_init(&spin_c, "custom_c");
    run_thread(thread_ab, NULL);
    run_thread(thread_ba, NULL);
    uld_lock_destroy(&spin_a);
    uld_lock_destroy(&spin_b);
    uld_lock_destroy(&spin_c);
    return 0;
}
