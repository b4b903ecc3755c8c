/*
 * robust_tls_dtors.cc - locks taken while threads are being torn down: C++
 * thread_local objects whose destructors lock mutexes, and
 * pthread_key_create destructors that lock too.  Half the threads return
 * from their start routine, half leave with pthread_exit().
 *
 * At thread exit glibc first runs the thread_local destructors
 * (__call_tls_dtors), then the destructors of the thread-specific keys.
 * Both take outer -> inner orders that the threads also use while running
 * (tls_outer -> stats_mutex, key_lock -> stats_mutex), never the reverse,
 * and release everything they take: nothing can deadlock and no thread
 * exits holding a lock.  No report.  The counts prove that every
 * destructor ran exactly once per thread, and the main thread's own
 * thread_local object is destroyed at exit() (it checks the totals then).
 *
 * EXPECT: none
 * EXPECT-STDERR: ^robust_tls_dtors: main thread_local destroyed, 8 9 9$
 */
#include "progs.h"

#include <mutex>
#include <thread>
#include <unistd.h>

std::mutex tls_outer;
std::mutex stats_mutex;
pthread_mutex_t key_lock = PTHREAD_MUTEX_INITIALIZER;
static int key_dtors, tls_dtors, tls_ctors;
static pthread_key_t key;
static pthread_barrier_t all_started;

struct PerThread {
    long work = 0;
    PerThread()
    {
        std::lock_guard<std::mutex> g(stats_mutex);
        tls_ctors++;
    }
    ~PerThread()
    {
        std::lock_guard<std::mutex> a(tls_outer);
        std::lock_guard<std::mutex> b(stats_mutex);
        tls_dtors++;
        if (work == -1) /* the main thread's, at exit(): every worker is gone */
            fprintf(stderr, "robust_tls_dtors: main thread_local destroyed, %d %d %d\n",
                    key_dtors, tls_dtors, tls_ctors);
    }
};
thread_local PerThread per_thread;

static void key_dtor(void *value)
{
    OK(pthread_mutex_lock(&key_lock));
    {
        std::lock_guard<std::mutex> b(stats_mutex);
        key_dtors++;
    }
    OK(pthread_mutex_unlock(&key_lock));
    free(value);
}

static void *worker(void *arg)
{
    long i = (long)arg;
    per_thread.work = i; /* constructs this thread's object */
    OK(pthread_setspecific(key, malloc(16)));
    {
        std::lock_guard<std::mutex> a(tls_outer);
        std::lock_guard<std::mutex> b(stats_mutex);
    }
    pthread_barrier_wait(&all_started); /* all 8 live at once */
    if (i % 2)
        pthread_exit(arg);
    return arg;
}

int main(void)
{
    OK(pthread_key_create(&key, key_dtor));
    OK(pthread_barrier_init(&all_started, NULL, 8));
    pthread_t t[8];
    for (long i = 0; i < 8; i++)
        t[i] = spawn_thread(worker, (void *)i);
    for (long i = 0; i < 8; i++)
        CHECK(join_thread(t[i]) == (void *)i);
    {
        std::lock_guard<std::mutex> g(stats_mutex);
        CHECK(key_dtors == 8 && tls_dtors == 8 && tls_ctors == 8);
    }
    per_thread.work = -1; /* the 9th object; destroyed by exit() */
    return 0;
}
