/*
 * cxx_stack_mutex_reuse_clean.cc - two different std::mutex objects live,
 * one after the other, in the same stack slot.
 *
 * first() takes its local mutex, then global_lock; second() takes
 * global_lock, then its own local mutex, which the compiler places at the
 * very address first()'s mutex had.  std::mutex is constexpr-constructed
 * and trivially destroyed: no init or destroy call ever tells the
 * validator that the first object is gone.  The two locals are different
 * locks, so there is no cycle.  (The validator knows because constructing
 * a std::mutex zeroes a word of it in which it keeps the lock's identity.)
 * The program checks that the address really was reused.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <mutex>

std::mutex global_lock;
static void *first_addr, *second_addr;

__attribute__((noinline)) static void first()
{
    std::mutex local;
    first_addr = &local;
    std::lock_guard<std::mutex> a(local);
    std::lock_guard<std::mutex> b(global_lock);
}

__attribute__((noinline)) static void second()
{
    std::mutex local;
    second_addr = &local;
    std::lock_guard<std::mutex> b(global_lock);
    std::lock_guard<std::mutex> a(local);
}

int main()
{
    first();
    second();
    CHECK(first_addr == second_addr);
    return 0;
}
