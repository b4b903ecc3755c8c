/*
 * cxx_static_guard_clean.cc - cxx_static_guard_cycle.cc's twin: the
 * constructor takes log_mutex too, but main waits for the initialisation
 * holding cache_mutex, which the constructor never needs: the wait ends.
 * No report.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <mutex>
#include <thread>
#include <unistd.h>

std::mutex log_mutex;
std::mutex cache_mutex;
static pthread_barrier_t main_holds_cache;

struct Logger {
    Logger()
    {
        pthread_barrier_wait(&main_holds_cache);
        usleep(100 * 1000); /* main is waiting for the guard now */
        std::lock_guard<std::mutex> g(log_mutex);
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
    OK(pthread_barrier_init(&main_holds_cache, nullptr, 2));
    std::thread first([] { CHECK(instance().lines == 1); });
    std::lock_guard<std::mutex> c(cache_mutex);
    pthread_barrier_wait(&main_holds_cache);
    CHECK(instance().lines == 1);
    first.join();
    return 0;
}
