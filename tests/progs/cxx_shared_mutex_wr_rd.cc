/*
 * cxx_shared_mutex_wr_rd.cc - std::shared_mutex: thread 1 holds sm_a
 * exclusively (unique_lock) and takes sm_b shared (shared_lock); thread 2
 * (later) does the same with sm_b and sm_a swapped.
 *
 * libstdc++ implements std::shared_mutex on pthread_rwlock_t.  Each
 * thread's shared acquisition waits for the other's exclusive hold: a
 * real write/read deadlock, reported on sm_a and sm_b (global, never
 * passed to an init call: symbol names).
 *
 * EXPECT: lock-order-inversion sm_a sm_b
 */
#include "progs.h"

#include <mutex>
#include <shared_mutex>
#include <thread>

std::shared_mutex sm_a;  // not static: plain (unmangled) symbol names
std::shared_mutex sm_b;

static void write_a_read_b()
{
    std::unique_lock<std::shared_mutex> wa(sm_a);
    std::shared_lock<std::shared_mutex> rb(sm_b);
}

static void write_b_read_a()
{
    std::unique_lock<std::shared_mutex> wb(sm_b);
    std::shared_lock<std::shared_mutex> ra(sm_a);
}

int main()
{
    std::thread(write_a_read_b).join();
    std::thread(write_b_read_a).join();
    return 0;
}
