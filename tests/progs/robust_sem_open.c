/*
 * robust_sem_open.c - a named POSIX semaphore (sem_open) shared by two
 * processes: the parent creates it (a unique name with the pid, O_EXCL),
 * forks, and the parent and the child hand a token back and forth through
 * it and a second named semaphore, each also updating a counter in a
 * MAP_SHARED page under a process-shared mutex; both sem_close, the parent
 * sem_unlink's both names at the end (checked: a later sem_open without
 * O_CREAT fails with ENOENT).
 *
 * Named semaphores are the same sem_t operations on a shared mapping: the
 * wrappers must pass them through (sem_wait, sem_post, sem_trywait EAGAIN
 * with errno, sem_getvalue).  Nobody waits holding a lock: no report.  The
 * counter, the values and the child's exit status are checked.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <fcntl.h>
#include <semaphore.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define ROUNDS 200

struct shared {
    pthread_mutex_t m;
    long counter;
};

int main(void)
{
    char to_child[64], to_parent[64];
    snprintf(to_child, sizeof(to_child), "/ulockdep-robust-%d-c", (int)getpid());
    snprintf(to_parent, sizeof(to_parent), "/ulockdep-robust-%d-p", (int)getpid());
    sem_t *sc = sem_open(to_child, O_CREAT | O_EXCL, 0600, 0);
    sem_t *sp = sem_open(to_parent, O_CREAT | O_EXCL, 0600, 0);
    CHECK(sc != SEM_FAILED && sp != SEM_FAILED);
    struct shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
                             MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    CHECK(sh != MAP_FAILED);
    pthread_mutexattr_t attr;
    OK(pthread_mutexattr_init(&attr));
    OK(pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED));
    OK(pthread_mutex_init(&sh->m, &attr));
    OK(pthread_mutexattr_destroy(&attr));

    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        sem_t *c = sem_open(to_child, 0); /* opened again by name in the child */
        CHECK(c != SEM_FAILED);
        for (int i = 0; i < ROUNDS; i++) {
            CHECK(sem_wait(c) == 0);
            OK(pthread_mutex_lock(&sh->m));
            CHECK(sh->counter == 2 * i + 1);
            sh->counter++;
            OK(pthread_mutex_unlock(&sh->m));
            CHECK(sem_post(sp) == 0);
        }
        errno = 0;
        CHECK(sem_trywait(c) == -1 && errno == EAGAIN);
        CHECK(sem_close(c) == 0);
        exit(0);
    }
    for (int i = 0; i < ROUNDS; i++) {
        OK(pthread_mutex_lock(&sh->m));
        CHECK(sh->counter == 2 * i);
        sh->counter++;
        OK(pthread_mutex_unlock(&sh->m));
        CHECK(sem_post(sc) == 0);
        CHECK(sem_wait(sp) == 0);
    }
    int status, value = -1;
    CHECK(waitpid(pid, &status, 0) == pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fprintf(stderr, "child status %#x\n", status);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(sh->counter == 2 * ROUNDS);
    CHECK(sem_getvalue(sc, &value) == 0 && value == 0);
    CHECK(sem_close(sc) == 0 && sem_close(sp) == 0);
    CHECK(sem_unlink(to_child) == 0 && sem_unlink(to_parent) == 0);
    errno = 0;
    CHECK(sem_open(to_child, 0) == SEM_FAILED && errno == ENOENT);
    OK(pthread_mutex_destroy(&sh->m));
    return 0;
}
