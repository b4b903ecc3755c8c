/*
 * cxx_std_lock_clean.cc - std::lock(m1, m2) in one thread and
 * std::lock(m2, m1) in another (one after the other).
 *
 * std::lock is deadlock-free by design: libstdc++ blocks on one mutex
 * with nothing held and only *try*-locks the others, backing off on
 * failure.  A trylock adds no edge into the tried lock, so the opposite
 * argument orders record nothing: no report.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <mutex>
#include <thread>

std::mutex m1;  // not static: plain (unmangled) symbol names
std::mutex m2;
int shared_value;

static void lock_12()
{
    std::lock(m1, m2);
    shared_value++;
    m2.unlock();
    m1.unlock();
}

static void lock_21()
{
    std::unique_lock<std::mutex> l2(m2, std::defer_lock);
    std::unique_lock<std::mutex> l1(m1, std::defer_lock);
    std::lock(l2, l1);
    shared_value++;
}

int main()
{
    std::thread(lock_12).join();
    std::thread(lock_21).join();
    CHECK(shared_value == 2);
    return 0;
}
