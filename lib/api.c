/*
 * api.c - the annotation API of include/ulockdep.h: names, classes, nesting
 * subclasses, custom locks, assertions, per-thread checking switch.
 */
#include "../include/ulockdep.h"

#include "core.h"
#include "report/report.h"

#include <errno.h>

#define CALLER ((uintptr_t)__builtin_return_address(0))

static const struct uld_lockdesc unknown_desc = {.type = ULD_TYPE_CUSTOM, .flags = 0};

/* The lock at addr, created (as first used at ip) if unknown.  graph_lock held. */
static struct uld_lock *lock_for_annotation(uintptr_t addr, uintptr_t ip)
{
    struct uld_lock *l = uld_lock_lookup(addr);
    if (!l && uld_self && uld_self != ULD_THREAD_DEAD) /* initialised by this thread */
        l = uld_lazy_record_mine(uld_self, addr);
    return l ? l : uld_lock_first_use(addr, unknown_desc, ip);
}

static void set_name(struct uld_lock *l, const char *name)
{
    if (l->name)
        uld_free(l->name, strlen(l->name) + 1);
    l->name = name ? uld_strdup(name) : NULL;
}

ULD_EXPORT void uld_lock_set_name_impl(const void *lock, const char *name)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    int saved = errno;
    uld_mutex_lock(&uld_graph_lock);
    struct uld_lock *l = lock_for_annotation((uintptr_t)lock, CALLER);
    if (l)
        set_name(l, name);
    uld_mutex_unlock(&uld_graph_lock);
    errno = saved;
    uld_leave();
}

/* A new class is a new identity: the lock starts a fresh lifetime in it. */
ULD_EXPORT void uld_lock_set_class_impl(const void *lock, const void *key, const char *name)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    int saved = errno;
    uintptr_t addr = (uintptr_t)lock;
    uld_mutex_lock(&uld_graph_lock);
    struct uld_lock *old = uld_lock_lookup(addr);
    if (!old) /* initialised by this thread, not recorded yet: as if it had been */
        old = uld_lazy_record_mine(t, addr);
    struct uld_lockdesc d = old ? (struct uld_lockdesc){.type = old->type, .flags = old->flags} : unknown_desc;
    char *keep_name = old && old->name ? uld_strdup(old->name) : NULL;
    if (old)
        uld_lock_forget(old);
    uld_class_get((uintptr_t)key, 0, ULD_SITE_ANNOTATION, d.type, name);
    struct uld_lock *l = uld_lock_create(addr, d, ULD_SITE_ANNOTATION, CALLER, key);
    if (l)
        l->name = keep_name;
    else if (keep_name)
        uld_free(keep_name, strlen(keep_name) + 1);
    uld_mutex_unlock(&uld_graph_lock);
    errno = saved;
    uld_leave();
}

ULD_EXPORT void uld_lock_nested_impl(const void *lock, unsigned subclass)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    t->nest_addr = (uintptr_t)lock;
    t->nest_subclass = subclass < ULD_NUM_SUBCLASSES ? subclass : ULD_NUM_SUBCLASSES - 1;
    uld_leave();
}

ULD_EXPORT void uld_lock_init_impl(const void *lock, const char *name, unsigned flags)
{
    struct uld_lockdesc d = {.type = ULD_TYPE_CUSTOM, .flags = 0};
    if (flags & ULD_LOCK_RECURSIVE)
        d.flags |= ULD_LF_RECURSIVE;
    if (flags & ULD_LOCK_READ_RECURSIVE)
        d.flags |= ULD_LF_READ_RECURSIVE;
    uld_lock_created(lock, d, CALLER);
    if (name)
        uld_lock_set_name_impl(lock, name);
}

ULD_EXPORT void uld_lock_destroy_impl(const void *lock)
{
    uld_lock_destroyed(lock, unknown_desc, 0, 1, CALLER);
}

/* A custom lock keeps the flags it was declared with. */
static struct uld_lockdesc custom_desc(const void *lock)
{
    struct uld_lock *l = uld_lock_lookup((uintptr_t)lock);
    return l ? (struct uld_lockdesc){.type = l->type, .flags = l->flags} : unknown_desc;
}

ULD_EXPORT void uld_acquire_impl(const void *lock, unsigned flags)
{
    struct uld_acq a;
    unsigned af = ((flags & ULD_ACQUIRE_READ) ? ULD_AF_READ : 0) |
                  ((flags & ULD_ACQUIRE_TRY) ? ULD_AF_TRY : 0);
    if (uld_acquire_begin(&a, lock, custom_desc(lock), af, CALLER))
        uld_acquire_end(&a, 1);
}

ULD_EXPORT void uld_release_impl(const void *lock)
{
    uld_on_release(lock, custom_desc(lock), 0, CALLER);
}

ULD_EXPORT int uld_is_held_impl(const void *lock)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return -1;
    int held = uld_held_find(t, (uintptr_t)lock) >= 0;
    uld_leave();
    return held;
}

ULD_EXPORT void uld_assert_held_impl(const void *lock, const char *file, int line)
{
    (void)file;
    (void)line;
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    if (uld_held_find(t, (uintptr_t)lock) < 0) {
        int saved = errno;
        uld_mutex_lock(&uld_graph_lock);
        uld_check_assert_held(t, (uintptr_t)lock, CALLER);
        uld_mutex_unlock(&uld_graph_lock);
        uld_report_flush();
        errno = saved;
    }
    uld_leave();
}

ULD_EXPORT void uld_checking_impl(int enable)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    if (!enable)
        t->disabled++;
    else if (t->disabled > 0)
        t->disabled--;
    uld_leave();
}
