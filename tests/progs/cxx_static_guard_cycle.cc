/*
 * cxx_static_guard_cycle.cc - a function-local static is initialised under
 * its guard (__cxa_guard_acquire .. release): the guard is a lock held
 * while the constructor runs.  T2 calls instance() and runs the
 * constructor, which waits until main holds log_mutex and then asks for
 * it (guard -> log_mutex, recorded before T2 blocks).  Main, holding
 * log_mutex, calls instance() while the initialisation is under way: it
 * waits for the guard (log_mutex -> guard), and the two threads deadlock
 * (HANGS).  A caller that comes after the initialisation finds the guard
 * set inline and never calls into the runtime, so only such a wait shows
 * the guard.  Its name is its symbol, demangled.
 *
 * HANGS: 3
 * EXPECT: lock-order-inversion log_mutex 'guard variable for instance()::logger'
 */
#include "progs.h"

#include <mutex>
#include <thread>
#include <unistd.h>

std::mutex log_mutex;
static pthread_barrier_t main_holds_log;

struct Logger {
    Logger()
    {
        pthread_barrier_wait(&main_holds_log);
        std::lock_guard<std::mutex> g(log_mutex); /* blocks forever */
        lines = 1;
    }
    int lines;
};

__attribute__((noinline)) static Logger &instance()
{
    static Logger logger;
    return logger;
}

int main()
{
    OK(pthread_barrier_init(&main_holds_log, nullptr, 2));
    std::thread first([] { CHECK(instance().lines == 1); });
    std::lock_guard<std::mutex> l(log_mutex);
    pthread_barrier_wait(&main_holds_log);
    usleep(200 * 1000); /* T2 is now blocked on log_mutex inside the constructor */
    CHECK(instance().lines == 1);
    first.join();
    return 0;
}
