/*
 * cxx_lock_guard_abba.cc - std::mutex with std::lock_guard, ABBA across
 * two std::threads that run one after the other.
 *
 * libstdc++'s std::mutex is a pthread_mutex_t locked through the PLT, so
 * the preload library sees it like a C mutex.  The mutexes are global,
 * constexpr-initialised (no init call ever happens): their names are the
 * symbols.  They are deliberately not `static`: a C++ internal-linkage
 * variable has a mangled symbol (_ZL5mtx_a), an external one is plain.
 *
 * EXPECT: lock-order-inversion mtx_a mtx_b
 */
#include "progs.h"

#include <mutex>
#include <thread>

std::mutex mtx_a;
std::mutex mtx_b;
int shared_value;

static void take_ab()
{
    std::lock_guard<std::mutex> ga(mtx_a);
    std::lock_guard<std::mutex> gb(mtx_b);
    shared_value++;
}

static void take_ba()
{
    std::lock_guard<std::mutex> gb(mtx_b);
    std::lock_guard<std::mutex> ga(mtx_a);
    shared_value++;
}

int main()
{
    std::thread(take_ab).join();
    std::thread(take_ba).join();
    CHECK(shared_value == 2);
    return 0;
}
