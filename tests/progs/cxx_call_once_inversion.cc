/*
 * cxx_call_once_inversion.cc - std::call_once (built on pthread_once in
 * libstdc++ 12) holds its flag while the callable runs: T2's call runs
 * the callable, which takes registry_mutex (flag -> registry_mutex); then
 * main holds registry_mutex and calls std::call_once on the same flag
 * (registry_mutex -> flag).  Concurrently, main would wait for the
 * callable holding the mutex the callable needs.  The flag is a global,
 * so it is named by its symbol.
 *
 * EXPECT: lock-order-inversion registry_mutex registry_flag
 */
#include "progs.h"

#include <mutex>
#include <thread>

std::mutex registry_mutex;
std::once_flag registry_flag;
static int registry;

static void fill_registry()
{
    std::lock_guard<std::mutex> g(registry_mutex);
    registry = 1;
}

int main()
{
    std::thread first([] { std::call_once(registry_flag, fill_registry); });
    first.join();
    std::lock_guard<std::mutex> g(registry_mutex);
    std::call_once(registry_flag, fill_registry);
    CHECK(registry == 1);
    return 0;
}
