/*
 * cxx_unique_lock_abba.cc - std::unique_lock ABBA: thread 1 locks mtx_a,
 * defers mtx_b and locks it explicitly; thread 2 (later) locks mtx_b,
 * then mtx_a.  Thread 1 also releases early with unlock() and relocks.
 *
 * Deferred and explicit lock()/unlock() calls on unique_lock map to the
 * same pthread calls: mtx_a -> mtx_b and mtx_b -> mtx_a, an inversion.
 * The early unlock()/lock() cycle of mtx_b adds nothing new.
 *
 * EXPECT: lock-order-inversion mtx_a mtx_b
 */
#include "progs.h"

#include <mutex>
#include <thread>

std::mutex mtx_a;  // not static: plain (unmangled) symbol names
std::mutex mtx_b;
int shared_value;

static void thread_1()
{
    std::unique_lock<std::mutex> la(mtx_a);
    std::unique_lock<std::mutex> lb(mtx_b, std::defer_lock);
    lb.lock();
    shared_value++;
    lb.unlock();
    lb.lock();
    shared_value++;
}

static void thread_2()
{
    std::unique_lock<std::mutex> lb(mtx_b);
    std::unique_lock<std::mutex> la(mtx_a);
    shared_value++;
}

int main()
{
    std::thread(thread_1).join();
    std::thread(thread_2).join();
    CHECK(shared_value == 3);
    return 0;
}
