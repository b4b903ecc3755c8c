/*
 * robust_mutex_owner_dead_abba.c - a process-shared robust mutex whose
 * owner *process* dies holding it (the usual reason for robust mutexes),
 * followed by a real ordering bug in the survivor.
 *
 * robust_m lives in a MAP_SHARED mapping (PTHREAD_PROCESS_SHARED,
 * PTHREAD_MUTEX_ROBUST).  A forked child locks it and kills itself with
 * SIGKILL.  The parent's next lock returns EOWNERDEAD: the parent owns
 * robust_m now, repairs the state holding store_lock inside it (robust_m
 * -> store_lock), marks it consistent and unlocks.  Then another thread
 * takes store_lock -> robust_m.  Run concurrently, the recovering code and
 * that thread deadlock (EOWNERDEAD hands over ownership exactly like a
 * plain lock), so the validator must count the EOWNERDEAD acquisition and
 * report the inversion.  The child dies by a signal, so it reports nothing
 * itself; see robust_mutex_owner_dead.c for the clean, in-process case.
 * Return values and the child's fate are checked.
 *
 * EXPECT: lock-order-inversion robust_m store_lock
 */
#include "progs.h"

#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t store_lock = PTHREAD_MUTEX_INITIALIZER;

struct shared {
    pthread_mutex_t robust_m;
    int state; /* 1 consistent, 0 being changed */
};
static struct shared *sh;

static void *store_then_robust(void *arg)
{
    OK(pthread_mutex_lock(&store_lock));
    OK(pthread_mutex_lock(&sh->robust_m)); /* store_lock -> robust_m: closes the cycle */
    CHECK(sh->state == 1);
    OK(pthread_mutex_unlock(&sh->robust_m));
    OK(pthread_mutex_unlock(&store_lock));
    return arg;
}

int main(void)
{
    sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    CHECK(sh != MAP_FAILED);
    pthread_mutexattr_t attr;
    OK(pthread_mutexattr_init(&attr));
    OK(pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED));
    OK(pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST));
    OK(pthread_mutex_init(&sh->robust_m, &attr));
    OK(pthread_mutexattr_destroy(&attr));
    uld_lock_set_name(&sh->robust_m, "robust_m");
    sh->state = 1;

    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        if (pthread_mutex_lock(&sh->robust_m) != 0)
            _exit(1);
        sh->state = 0;
        raise(SIGKILL); /* dies holding robust_m */
        _exit(1);
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

    CHECK_RC(pthread_mutex_lock(&sh->robust_m), EOWNERDEAD); /* owned now */
    CHECK(sh->state == 0);
    OK(pthread_mutex_lock(&store_lock)); /* robust_m -> store_lock */
    sh->state = 1;
    OK(pthread_mutex_unlock(&store_lock));
    OK(pthread_mutex_consistent(&sh->robust_m));
    OK(pthread_mutex_unlock(&sh->robust_m));

    run_thread(store_then_robust, NULL);
    OK(pthread_mutex_destroy(&sh->robust_m));
    OK(munmap(sh, sizeof(*sh)));
    return 0;
}
