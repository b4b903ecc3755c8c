/*
 * locktype.h - the lock vocabulary shared by the interposer and the model:
 * lock kinds, what the interposer knows of a lock object, and where the
 * identity tag lives.  hooks.h passes these to the validator; the model
 * stores them, so they live at the model's level.
 */
#ifndef ULD_LOCKTYPE_H
#define ULD_LOCKTYPE_H

#include <stdint.h>

enum uld_lock_type {
    ULD_TYPE_MUTEX,
    ULD_TYPE_RWLOCK,
    ULD_TYPE_SPIN,
    ULD_TYPE_CUSTOM,
    ULD_TYPE_COND,  /* condition variable: a wait object, never held */
    ULD_TYPE_SEM,   /* semaphore: a wait object, never held */
    ULD_TYPE_THREAD,  /* a thread's end, waited for by pthread_join: a wait object */
    ULD_TYPE_BARRIER, /* pthread barrier: a wait object */
    ULD_TYPE_ONCE,  /* pthread_once control or C++ static guard: a lock held while
                     * the initialiser runs */
};

/* What the interposer knows about a lock object (struct uld_lockdesc.flags). */
#define ULD_LF_RECURSIVE 0x01u   /* the owner may re-acquire it */
#define ULD_LF_ERRORCHECK 0x02u  /* re-acquiring returns EDEADLK */
#define ULD_LF_WRITER_PREF 0x04u /* rwlock: readers wait behind a waiting writer */
#define ULD_LF_READ_RECURSIVE 0x08u /* custom lock: readers never wait for writers */
#define ULD_LF_ROBUST 0x10u      /* robust mutex: its owner's death hands it on (EOWNERDEAD) */
#define ULD_LF_DESTROYED 0x20u   /* the object carries its implementation's "destroyed" mark
                                  * (glibc mutex: __kind -1); its tag, if any, is read-only */
#define ULD_LF_PRIO 0x40u        /* priority inheritance or protection: a blocking lock
                                  * may fail (EINVAL above the ceiling, EDEADLK) */

struct uld_lockdesc {
    uint8_t type;  /* enum uld_lock_type */
    uint8_t flags; /* ULD_LF_* */
    /*
     * A word inside the lock object that the implementation never uses for
     * this kind of lock, or NULL.  The validator stores the lock's identity
     * there: an object constructed again at the same address (a std::mutex
     * on a reused stack frame, never destroyed) has lost it, so it is
     * known to be a new lock that must not inherit the old one's edges.
     */
    uint64_t *tag;
};

#endif
