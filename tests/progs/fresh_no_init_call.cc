/*
 * fresh_no_init_call.cc - the GDAL creation pattern with std::mutex, which
 * has no init call (constexpr constructor): a mutex built under the global
 * mutex and locked there first.  Without an observed init the validator
 * cannot tell a new object from one that other threads already share, so
 * its first acquisition counts like any other: global -> m, then
 * m -> global, is reported.
 *
 * EXPECT: lock-order-inversion global_mutex 'main:*#1'
 */
#include "progs.h"

#include <mutex>

std::mutex global_mutex;

int main()
{
    std::mutex *m;
    {
        std::lock_guard<std::mutex> g(global_mutex);
        m = new std::mutex;
        m->lock(); /* its first acquisition */
        m->unlock();
    }
    {
        std::lock_guard<std::mutex> l(*m);
        std::lock_guard<std::mutex> g(global_mutex);
    }
    delete m;
    return 0;
}
