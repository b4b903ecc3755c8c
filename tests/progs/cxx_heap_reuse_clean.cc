/*
 * cxx_heap_reuse_clean.cc - an object holding two std::mutex is locked
 * first -> second and deleted; a new object allocated at the same address
 * (checked) is locked second -> first.
 *
 * std::mutex is constexpr-initialised and trivially destructible: no
 * pthread_mutex_init or _destroy call ever happens.  Only the free()
 * under operator delete ends the old mutexes' lifetimes; after it, the new
 * object's mutexes are new instances and no cycle exists.  Their classes
 * are their first acquisition sites, distinct between phase1 and phase2
 * or, if std::mutex::lock is not inlined, one shared site - a class
 * nested in itself, not a class cycle.  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <cstdint>
#include <mutex>

struct Pair {
    std::mutex first;
    std::mutex second;
    int value = 0;
};

static __attribute__((noinline)) uintptr_t phase1()
{
    Pair *p = new Pair;
    {
        std::lock_guard<std::mutex> g1(p->first);
        std::lock_guard<std::mutex> g2(p->second);
        p->value++;
    }
    uintptr_t addr = reinterpret_cast<uintptr_t>(p);
    delete p;
    return addr;
}

static __attribute__((noinline)) uintptr_t phase2()
{
    Pair *q = new Pair;
    {
        std::lock_guard<std::mutex> g2(q->second);
        std::lock_guard<std::mutex> g1(q->first);
        q->value++;
    }
    uintptr_t addr = reinterpret_cast<uintptr_t>(q);
    delete q;
    return addr;
}

int main()
{
    uintptr_t old = phase1();
    // glibc's tcache hands the freed chunk back: same address.
    CHECK(phase2() == old);
    return 0;
}
