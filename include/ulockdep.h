/*
 * ulockdep.h - annotation API of the ulockdep lock-dependency validator.
 *
 * Programs normally need no source change: LD_PRELOAD=libulockdep.so (or
 * `ulockdep run -- prog`) intercepts pthread locks.  This header lets a
 * program teach the validator what it cannot infer:
 *
 *   - readable names and explicit classes for locks,
 *   - nesting subclasses for locks of one class taken in an order that an
 *     outer rule guarantees (the kernel's spin_lock_nested()),
 *   - custom lock types built on atomics or futexes,
 *   - assertions that a lock is held, and regions with checking turned off.
 *
 * Every function is declared weak and called through a static inline
 * wrapper that checks it resolved: a program built with this header runs
 * unchanged, at no cost, when libulockdep.so is not loaded.  Do not link
 * against libulockdep.so: that would instrument every run.
 *
 * Example, migrating timers between two per-CPU bases of one class:
 *
 *     pthread_mutex_lock(&old->lock);
 *     uld_lock_nested(&new->lock, 1);   // new->lock nests inside old->lock
 *     pthread_mutex_lock(&new->lock);
 *
 * Example, a custom spinlock:
 *
 *     void my_lock(struct my_spin *s) {
 *         uld_acquire(s, 0);            // validate before spinning
 *         while (atomic_exchange(&s->v, 1)) cpu_relax();
 *     }
 *     void my_unlock(struct my_spin *s) {
 *         uld_release(s);
 *         atomic_store(&s->v, 0);
 *     }
 */
#ifndef ULOCKDEP_H
#define ULOCKDEP_H

#ifdef __cplusplus
extern "C" {
#endif

#define ULD_API_VERSION 1

/* Flags for uld_acquire(). */
#define ULD_ACQUIRE_READ 0x1u /* shared (reader) acquisition */
#define ULD_ACQUIRE_TRY  0x2u /* trylock that succeeded: adds no edge into the lock */

/* Flags for uld_lock_init() describing a custom lock type. */
#define ULD_LOCK_RECURSIVE     0x1u /* the owner may re-acquire it */
#define ULD_LOCK_READ_RECURSIVE 0x2u /* readers never wait for a waiting writer */

/* Highest subclass accepted by uld_lock_nested(); subclass 0 is the default. */
#define ULD_MAX_SUBCLASS 7u

#if defined(__GNUC__)
#define ULD_WEAK __attribute__((weak))
#else
#define ULD_WEAK
#endif

/* The implementations, provided by libulockdep.so when it is loaded. */
ULD_WEAK void uld_lock_set_name_impl(const void *lock, const char *name);
ULD_WEAK void uld_lock_set_class_impl(const void *lock, const void *key, const char *name);
ULD_WEAK void uld_lock_nested_impl(const void *lock, unsigned subclass);
ULD_WEAK void uld_lock_init_impl(const void *lock, const char *name, unsigned flags);
ULD_WEAK void uld_lock_destroy_impl(const void *lock);
ULD_WEAK void uld_acquire_impl(const void *lock, unsigned flags);
ULD_WEAK void uld_release_impl(const void *lock);
ULD_WEAK int uld_is_held_impl(const void *lock);
ULD_WEAK void uld_assert_held_impl(const void *lock, const char *file, int line);
ULD_WEAK void uld_checking_impl(int enable);

/*
 * Name a lock for reports, e.g. "account->lock".  The name is copied.
 * Applies to the lock's current lifetime (until destroy or free).
 */
static inline void uld_lock_set_name(const void *lock, const char *name)
{
    if (uld_lock_set_name_impl)
        uld_lock_set_name_impl(lock, name);
}

/*
 * Put a lock into the class identified by `key` (the address of any static
 * object, often a `static char` next to the lock's type) named `name`.
 * Without this, a lock's class is its static variable, else the call site
 * that initialised it, else the call site that first acquired it.
 */
static inline void uld_lock_set_class(const void *lock, const void *key, const char *name)
{
    if (uld_lock_set_class_impl)
        uld_lock_set_class_impl(lock, key, name);
}

/*
 * The calling thread's next acquisition of `lock` uses nesting subclass
 * `subclass` (1..ULD_MAX_SUBCLASS): the validator treats (lock, subclass)
 * as a node of its own, so nesting two locks of one class in an order an
 * outer rule guarantees is not reported.  Use sparingly: it hides cycles.
 */
static inline void uld_lock_nested(const void *lock, unsigned subclass)
{
    if (uld_lock_nested_impl)
        uld_lock_nested_impl(lock, subclass);
}

/* Declare a custom (non-pthread) lock at `lock`; flags: ULD_LOCK_*. */
static inline void uld_lock_init(const void *lock, const char *name, unsigned flags)
{
    if (uld_lock_init_impl)
        uld_lock_init_impl(lock, name, flags);
}

/* The custom lock at `lock` is gone; the validator forgets it. */
static inline void uld_lock_destroy(const void *lock)
{
    if (uld_lock_destroy_impl)
        uld_lock_destroy_impl(lock);
}

/*
 * A custom lock is being acquired: call before blocking so a deadlock is
 * reported before it happens (for a trylock, call after it succeeded, with
 * ULD_ACQUIRE_TRY).  flags: ULD_ACQUIRE_*.
 */
static inline void uld_acquire(const void *lock, unsigned flags)
{
    if (uld_acquire_impl)
        uld_acquire_impl(lock, flags);
}

/* A custom lock is being released by the calling thread. */
static inline void uld_release(const void *lock)
{
    if (uld_release_impl)
        uld_release_impl(lock);
}

/* 1 if the calling thread holds `lock` (any lock kind), 0 if not, -1 if unknown (not loaded). */
static inline int uld_is_held(const void *lock)
{
    return uld_is_held_impl ? uld_is_held_impl(lock) : -1;
}

/* Report an assert-not-held error unless the calling thread holds `lock`. */
#define uld_assert_held(lock)                                   \
    do {                                                        \
        if (uld_assert_held_impl)                               \
            uld_assert_held_impl((lock), __FILE__, __LINE__);   \
    } while (0)

/*
 * Turn checking off (0) or back on (1) for the calling thread.  Calls nest:
 * checking resumes when every disable has been matched.  Locks acquired
 * while checking is off are not tracked, and their release is not checked.
 */
static inline void uld_checking(int enable)
{
    if (uld_checking_impl)
        uld_checking_impl(enable);
}

#ifdef __cplusplus
}
#endif

#endif /* ULOCKDEP_H */
