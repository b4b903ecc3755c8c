/*
 * cxx_shared_mutex_rd_rd_clean.cc - std::shared_mutex read side only:
 * thread 1 shared-locks sm_a then sm_b, thread 2 (later) sm_b then sm_a.
 *
 * std::shared_mutex is a default (prefer-reader) pthread rwlock and
 * nobody takes it exclusively: readers never block readers, so this is
 * not a deadlock (see rw_rd_rd_clean.c).  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <shared_mutex>
#include <thread>

std::shared_mutex sm_a;  // not static: plain (unmangled) symbol names
std::shared_mutex sm_b;

static void read_ab()
{
    std::shared_lock<std::shared_mutex> ra(sm_a);
    std::shared_lock<std::shared_mutex> rb(sm_b);
}

static void read_ba()
{
    std::shared_lock<std::shared_mutex> rb(sm_b);
    std::shared_lock<std::shared_mutex> ra(sm_a);
}

int main()
{
    std::thread(read_ab).join();
    std::thread(read_ba).join();
    return 0;
}
