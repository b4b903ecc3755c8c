/*
 * sem_handoff_destroy_clean.c - a Python lock handed to another thread to
 * release, then freed: the main thread takes the token of a semaphore
 * initialised to 1 (sem_trywait, as an uncontended Lock.acquire), another
 * thread posts it (Lock.release from any thread), and the main thread
 * destroys it (the lock object freed).  The foreign post made the
 * semaphore a signal, so the main thread holds nothing when it destroys
 * it.  No report (it was a destroy-held error, on some runs of programs
 * using threading.Condition with timeouts and ThreadPoolExecutor).
 *
 * EXPECT: none
 */
#include "progs.h"

#include <semaphore.h>

static sem_t handed;

static void *releaser(void *arg)
{
    CHECK(sem_post(&handed) == 0);
    return arg;
}

int main(void)
{
    CHECK(sem_init(&handed, 0, 1) == 0);
    CHECK(sem_trywait(&handed) == 0);
    run_thread(releaser, NULL);
    CHECK(sem_destroy(&handed) == 0);
    return 0;
}
