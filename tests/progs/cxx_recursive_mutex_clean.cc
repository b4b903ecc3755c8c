/*
 * cxx_recursive_mutex_clean.cc - std::recursive_mutex re-entered by its
 * owner through recursion (depth 5) and through try_lock().
 *
 * libstdc++ initialises it with PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP and
 * never calls pthread_mutex_init, so the validator must read the kind from
 * the mutex.  Relocking a recursive mutex you own never blocks: no
 * self-deadlock, and the counts balance, so no exit-holding either.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <mutex>
#include <thread>

std::recursive_mutex rmtx;  // not static: plain (unmangled) symbol name
int visits;

static void visit(int depth)
{
    std::lock_guard<std::recursive_mutex> g(rmtx);
    visits++;
    if (depth > 0)
        visit(depth - 1);
}

static void worker()
{
    visit(4);
    CHECK(rmtx.try_lock());
    rmtx.unlock();
}

int main()
{
    std::thread(worker).join();
    CHECK(visits == 5);
    return 0;
}
