/*
 * c11_once_inversion.c - once_inversion.c with C11 call_once: the
 * once_flag is a lock held while the initialiser runs.  T2 runs the
 * initialiser, which takes config_lock (config_once -> config_lock); later
 * main holds config_lock and calls call_once on the same flag
 * (config_lock -> config_once).  Had main come first, while T2 was
 * initialising, both would wait for each other.
 *
 * EXPECT: lock-order-inversion config_lock config_once
 */
#include "progs.h"

#include <threads.h>

static mtx_t config_lock;
static once_flag config_once = ONCE_FLAG_INIT;
static int config;

static void load_config(void)
{
    CHECK(mtx_lock(&config_lock) == thrd_success);
    config = 42;
    CHECK(mtx_unlock(&config_lock) == thrd_success);
}

static int first_user(void *arg)
{
    (void)arg;
    call_once(&config_once, load_config);
    return 0;
}

int main(void)
{
    thrd_t t;
    CHECK(mtx_init(&config_lock, mtx_plain) == thrd_success);
    uld_lock_set_name(&config_lock, "config_lock");
    CHECK(thrd_create(&t, first_user, NULL) == thrd_success);
    CHECK(thrd_join(t, NULL) == thrd_success);
    CHECK(mtx_lock(&config_lock) == thrd_success);
    call_once(&config_once, load_config);
    CHECK(config == 42);
    CHECK(mtx_unlock(&config_lock) == thrd_success);
    mtx_destroy(&config_lock);
    return 0;
}
