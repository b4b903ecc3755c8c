/*
 * cxx_stack_mutex_shared_inversion.cc - a std::mutex on main's stack,
 * shared with two threads that take it and a global mutex in opposite
 * orders, one after the other.
 *
 * The stack object lives for the whole run (main joins both threads
 * before returning), so both threads use one lock: holding local, take
 * global; holding global, take local.  That is a real ABBA, and knowing
 * that stack locks can be replaced must not hide it.  The local lock has
 * no symbol: it is named by the site that first acquired it.
 *
 * EXPECT: lock-order-inversion global_lock local_then_global*#1
 */
#include "progs.h"

#include <mutex>

std::mutex global_lock;

__attribute__((noinline)) static void *local_then_global(void *arg)
{
    std::mutex *local = static_cast<std::mutex *>(arg);
    std::lock_guard<std::mutex> a(*local);
    std::lock_guard<std::mutex> b(global_lock);
    return nullptr;
}

__attribute__((noinline)) static void *global_then_local(void *arg)
{
    std::mutex *local = static_cast<std::mutex *>(arg);
    std::lock_guard<std::mutex> b(global_lock);
    std::lock_guard<std::mutex> a(*local);
    return nullptr;
}

int main()
{
    std::mutex local;
    run_thread(local_then_global, &local);
    run_thread(global_then_local, &local);
    return 0;
}
