/*
 * glibc.h - what the interposer reads from glibc's lock objects (layouts of
 * glibc 2.36 on x86_64, see ../shared facts in docs/design.md): the mutex
 * type, the rwlock kind, and who holds a lock.  Reads are racy by nature and
 * only feed diagnostics, never the program's behaviour.
 */
#ifndef ULD_PRELOAD_GLIBC_H
#define ULD_PRELOAD_GLIBC_H

#include "../lib/hooks.h"

#include <pthread.h>

#define GLIBC_RWLOCK_WRLOCKED 2u     /* __readers bit: a writer holds it */
#define GLIBC_RWLOCK_READER_SHIFT 3  /* __readers >> 3: reader count */

#define GLIBC_MUTEX_ROBUST 16
#define GLIBC_MUTEX_PI 32                    /* priority inheritance */
#define GLIBC_MUTEX_PP 64                    /* priority protection */
#define GLIBC_MUTEX_PRIO (GLIBC_MUTEX_PI | GLIBC_MUTEX_PP)
#define GLIBC_MUTEX_PSHARED 128
#define GLIBC_MUTEX_CEILING_MASK 0xfff80000u /* PP: __lock's bits 19..31 are the ceiling */

/*
 * The identity tag's home: the robust-list links of a mutex that is neither
 * robust nor process-shared, the padding word of a private rwlock.  glibc
 * never touches either for such locks; process-shared ones get no tag (each
 * process would overwrite the other's).
 */
static inline uint64_t *mutex_tag_word(const pthread_mutex_t *m)
{
    return (uint64_t *)&m->__data.__list.__next;
}

static inline uint64_t *rwlock_tag_word(const pthread_rwlock_t *rw)
{
    return (uint64_t *)&rw->__data.__pad2;
}

/* The tag word if this lock may have one, else NULL. */
static inline uint64_t *mutex_tag(const pthread_mutex_t *m)
{
    if (m->__data.__kind & (GLIBC_MUTEX_ROBUST | GLIBC_MUTEX_PSHARED))
        return NULL;
    return mutex_tag_word(m);
}

static inline uint64_t *rwlock_tag(const pthread_rwlock_t *rw)
{
    return rw->__data.__shared ? NULL : rwlock_tag_word(rw);
}

#define GLIBC_MUTEX_DESTROYED (-1) /* __kind after pthread_mutex_destroy */

static inline struct uld_lockdesc mutex_desc(const pthread_mutex_t *m)
{
    if (__atomic_load_n(&m->__data.__kind, __ATOMIC_RELAXED) == GLIBC_MUTEX_DESTROYED)
        return (struct uld_lockdesc){ULD_TYPE_MUTEX, ULD_LF_DESTROYED,
                                     uld_lock_tags ? mutex_tag_word(m) : NULL}; /* its site */
    struct uld_lockdesc d = {ULD_TYPE_MUTEX, 0, uld_lock_tags ? mutex_tag(m) : NULL};
    switch (m->__data.__kind & 3) { /* low bits: type; higher: robust, PI, pshared */
    case PTHREAD_MUTEX_RECURSIVE_NP:
        d.flags = ULD_LF_RECURSIVE;
        break;
    case PTHREAD_MUTEX_ERRORCHECK_NP:
        d.flags = ULD_LF_ERRORCHECK;
        break;
    }
    if (m->__data.__kind & GLIBC_MUTEX_ROBUST)
        d.flags |= ULD_LF_ROBUST;
    if (m->__data.__kind & GLIBC_MUTEX_PRIO)
        d.flags |= ULD_LF_PRIO;
    return d;
}

static inline struct uld_lockdesc rwlock_desc(const pthread_rwlock_t *rw)
{
    struct uld_lockdesc d = {ULD_TYPE_RWLOCK, 0, uld_lock_tags ? rwlock_tag(rw) : NULL};
    /* PREFER_WRITER_NP is treated as prefer-reader by glibc; only this one queues readers */
    if (rw->__data.__flags == PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP)
        d.flags = ULD_LF_WRITER_PREF;
    return d;
}

static inline struct uld_lockdesc spin_desc(void)
{
    return (struct uld_lockdesc){ULD_TYPE_SPIN, 0, NULL};
}

/* The lock word's locked state: a PP mutex keeps its ceiling there, locked or not. */
static inline unsigned mutex_lock_state(const pthread_mutex_t *m)
{
    unsigned v = (unsigned)__atomic_load_n(&m->__data.__lock, __ATOMIC_RELAXED);
    return (m->__data.__kind & GLIBC_MUTEX_PP) ? v & ~GLIBC_MUTEX_CEILING_MASK : v;
}

/* Owner as uld_on_release() wants it: 0 unlocked, ULD_OWNER_SOMEONE, or a tid. */
static inline int mutex_owner(const pthread_mutex_t *m)
{
    int tid = __atomic_load_n(&m->__data.__owner, __ATOMIC_RELAXED);
    if (tid)
        return tid;
    return mutex_lock_state(m) ? ULD_OWNER_SOMEONE : 0;
}

/*
 * Owner for the fork-holding check in a fork child: a process-shared lock
 * counts as unlocked, since another process may hold it and release it.
 */
static inline int mutex_fork_owner(const pthread_mutex_t *m)
{
    return (m->__data.__kind & GLIBC_MUTEX_PSHARED) ? 0 : mutex_owner(m);
}

/* A plain mutex: normal or adaptive, with no other bit in __kind (not
 * destroyed, robust, shared, priority-aware or marked for elision).  Each
 * has a tag word and no flags in mutex_desc; the elision-marked ones,
 * which mutex_desc also calls plain, take the slow path. */
static inline int mutex_plain(const pthread_mutex_t *m)
{
    int kind = __atomic_load_n(&m->__data.__kind, __ATOMIC_RELAXED);
    return uld_lock_tags && (kind == PTHREAD_MUTEX_TIMED_NP || kind == PTHREAD_MUTEX_ADAPTIVE_NP);
}

static inline int mutex_locked(const pthread_mutex_t *m)
{
    return mutex_lock_state(m) != 0;
}

static inline int rwlock_locked(const pthread_rwlock_t *rw)
{
    unsigned r = __atomic_load_n(&rw->__data.__readers, __ATOMIC_RELAXED);
    return (r & GLIBC_RWLOCK_WRLOCKED) || (r >> GLIBC_RWLOCK_READER_SHIFT) != 0;
}

static inline int rwlock_owner(const pthread_rwlock_t *rw)
{
    int writer = __atomic_load_n(&rw->__data.__cur_writer, __ATOMIC_RELAXED);
    if (writer)
        return writer;
    return rwlock_locked(rw) ? ULD_OWNER_SOMEONE : 0;
}

static inline int rwlock_fork_owner(const pthread_rwlock_t *rw)
{
    return rw->__data.__shared ? 0 : rwlock_owner(rw);
}

/* x86_64 glibc: pthread_spin_init is pthread_spin_unlock, storing 1; lock decrements. */
static inline int spin_locked(const pthread_spinlock_t *s)
{
#if defined(__x86_64__) || defined(__i386__)
    return __atomic_load_n(s, __ATOMIC_RELAXED) <= 0;
#else
    return __atomic_load_n(s, __ATOMIC_RELAXED) != 0;
#endif
}

static inline int spin_owner(const pthread_spinlock_t *s)
{
    return spin_locked(s) ? ULD_OWNER_SOMEONE : 0;
}

#endif
