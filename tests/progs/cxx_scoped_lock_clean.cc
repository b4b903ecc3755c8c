/*
 * cxx_scoped_lock_clean.cc - std::scoped_lock over (m1, m2) in one thread
 * and (m2, m1) in another, plus a single-mutex scoped_lock.
 *
 * scoped_lock's constructor calls std::lock, which blocks only with
 * nothing held and try-locks the rest (see cxx_std_lock_clean.cc): no
 * edges, no report, whatever the argument order.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <mutex>
#include <thread>

std::mutex m1;  // not static: plain (unmangled) symbol names
std::mutex m2;
int shared_value;

static void scoped_12()
{
    std::scoped_lock both(m1, m2);
    shared_value++;
}

static void scoped_21()
{
    std::scoped_lock both(m2, m1);
    shared_value++;
}

static void scoped_1()
{
    std::scoped_lock one(m1);
    shared_value++;
}

int main()
{
    std::thread(scoped_12).join();
    std::thread(scoped_21).join();
    std::thread(scoped_1).join();
    CHECK(shared_value == 3);
    return 0;
}
