/*
 * kinds.c - the report kinds the tools know (docs/reports.md, "Report
 * kinds"), with their severity and descriptions for SARIF rules.  A kind
 * missing here (a newer library) is still printed; only suppression files
 * reject unknown kinds.  Read-only data.
 */
#include "kinds.h"

#include <string.h>

static const struct kind_info kinds[] = {
    {"lock-order-inversion", "error", "Lock order inversion",
     "Acquiring a lock while holding another closes a cycle in the graph of lock instances: "
     "threads taking the locks in these orders can deadlock."},
    {"class-order-inversion", "warning", "Lock class order inversion",
     "A cycle among lock classes that no cycle among lock instances explains (e.g. a1 -> b1 and "
     "b2 -> a2): a deadlock if the same objects ever meet."},
    {"self-deadlock", "error", "Recursive locking",
     "A thread acquires a lock it already holds in a way that blocks or fails."},
    {"unlock-not-held", "error", "Unlock of a lock not held",
     "A lock is released that no thread holds."},
    {"unlock-not-owner", "error", "Unlock by a thread that does not own the lock",
     "A mutex, rwlock or spinlock is released by a thread other than its holder."},
    {"destroy-held", "error", "Held lock destroyed",
     "A lock is destroyed or freed while it is held."},
    {"exit-holding", "error", "Thread exits holding locks",
     "A thread ends (return, pthread_exit, cancellation) while holding locks."},
    {"assert-not-held", "error", "Lock assertion failed",
     "uld_assert_held() found the lock not held by the calling thread."},
    {"limit-reached", "warning", "Internal table full",
     "An internal table of the validator filled up; checking continued in a degraded mode."},
    {"wait-for-cycle", "error", "Wait that its waker cannot reach",
     "A thread waits on a condition variable or semaphore while holding a lock that every "
     "wake-up seen so far needed: the wait can deadlock."},
    {"cond-mutex-mismatch", "error", "Condition variable used with the wrong mutex",
     "A condition variable is waited on with a mutex the thread does not hold, or with two "
     "different mutexes at once."},
    {"signal-unsafe-lock", "error", "Lock taken in a signal handler and where it can interrupt",
     "A lock class is taken inside a handler for a signal and also where that signal is not "
     "blocked: the handler can deadlock on the interrupted thread."},
    {"fork-holding", "error", "Lock held at fork() used in the child",
     "In a fork child, a lock is acquired that another thread held when the process forked."},
    {"deadlock-detected", "error", "Deadlock",
     "Threads have been blocked on each other in a cycle for the watchdog period."},
    {"invalid-lock", "error", "Unlock of memory that is not a lock",
     "An unlock names memory that was never initialised or acquired as a lock and that does "
     "not look unlocked: garbage, an uninitialised object, a copy of a locked lock."},
    {"use-after-destroy", "error", "Lock used after destroy",
     "A mutex, rwlock or spinlock is locked, unlocked or destroyed again after "
     "pthread_*_destroy, with no init since; the report says where it was destroyed."},
    {"trylock-held", "warning", "Trylock of a lock the thread holds",
     "A trylock of a non-recursive lock that the calling thread already holds failed (EBUSY): "
     "the blocking call in its place would deadlock the thread on itself."},
    {"hang-through-wait", "error", "Hang through a wait",
     "A thread has been blocked for the watchdog period on a lock whose holder is itself "
     "blocked in a wait (condition variable, semaphore, join, barrier)."},
    {"timeout-deadlock", "error", "Timeout that broke a deadlock",
     "A timed lock or wait expired while what it waited for was held by a thread blocked "
     "waiting for the timed-out thread: without the timeout both would hang."},
    {"blocked-at-kill", "error", "Process killed with blocked threads",
     "A terminating signal ended the process while threads were blocked on locks or waits; "
     "the report lists each with what it holds and waits for."},
    {"cross-run-cycle", "error", "Lock order cycle across processes",
     "The lock-class graphs of several processes, merged, contain a deadlocking cycle that no "
     "single process recorded: the orders are incompatible even though no one run showed it. "
     "Every class of the cycle stands for one object (a static lock, or one live instance in "
     "every process that recorded its edges)."},
    {"cross-run-class-cycle", "warning", "Lock class order cycle across processes",
     "As cross-run-cycle, but some class of the cycle had several live instances in a process "
     "that recorded its edges: the orders may concern different objects of that class."},
};

const struct kind_info *kind_find(const char *name)
{
    for (size_t i = 0; name && i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (!strcmp(kinds[i].name, name))
            return &kinds[i];
    return NULL;
}

int kind_is_known(const char *name)
{
    return kind_find(name) != NULL;
}
