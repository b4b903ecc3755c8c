/*
 * class_set_class.c - explicit classes with uld_lock_set_class():
 * inode_lock (i1, i2) and dentry_lock (d1, d2); thread 1 nests i1 -> d1,
 * thread 2 (later) nests d2 -> i2.
 *
 * As in class_inversion.c, no instance cycle but a class cycle: a
 * class-order-inversion warning (exit 0).  The class name given to
 * uld_lock_set_class() comes first in the naming rules, so the report
 * names inode_lock and dentry_lock although all four locks were
 * initialised at one call site.
 *
 * EXPECT: class-order-inversion inode_lock dentry_lock
 */
#include "progs.h"

static char inode_key, dentry_key;
static pthread_mutex_t i1, i2, d1, d2;

static void init_lock(pthread_mutex_t *m, const void *key, const char *class_name)
{
    OK(pthread_mutex_init(m, NULL));
    uld_lock_set_class(m, key, class_name);
}

struct pair {
    pthread_mutex_t *first, *second;
};

static void *nest(void *arg)
{
    struct pair *p = arg;
    OK(pthread_mutex_lock(p->first));
    OK(pthread_mutex_lock(p->second));
    OK(pthread_mutex_unlock(p->second));
    OK(pthread_mutex_unlock(p->first));
    return NULL;
}

int main(void)
{
    init_lock(&i1, &inode_key, "inode_lock");
    init_lock(&i2, &inode_key, "inode_lock");
    init_lock(&d1, &dentry_key, "dentry_lock");
    init_lock(&d2, &dentry_key, "dentry_lock");
    struct pair i1d1 = {&i1, &d1}, d2i2 = {&d2, &i2};
    run_thread(nest, &i1d1);
    run_thread(nest, &d2i2);
    return 0;
}
