/*
 * cxx_wrapper_ctor_class_clean.cc - locks initialised through one wrapper
 * constructor (tests/real/repro/wrapper_ctor_class.cc, rocksdb's
 * port::Mutex): Mutex::Mutex() calls pthread_mutex_init out of line for
 * Db's mutex and for Cache's.  One thread nests Db::mu -> registry_lock ->
 * Cache::mu, always in that order.
 *
 * Three different locks, one order: no cycle, nothing can deadlock.  Were
 * the class the init call site alone, Db::mu and Cache::mu would be one
 * class and the nesting the class cycle Mutex -> registry_lock -> Mutex.
 * The Mutex constructor is a lock wrapper (a C++ `*Mutex` constructor, in
 * the built-in wrapper names), so an init class is the first site outside
 * it (here in Db::Db and Cache::Cache, out of line as rocksdb's
 * constructors are), and the classes differ.  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <thread>

class Mutex {
  public:
    __attribute__((noinline)) Mutex() { OK(pthread_mutex_init(&mu_, nullptr)); }
    __attribute__((noinline)) ~Mutex() { OK(pthread_mutex_destroy(&mu_)); }
    void Lock() { OK(pthread_mutex_lock(&mu_)); }
    void Unlock() { OK(pthread_mutex_unlock(&mu_)); }

  private:
    pthread_mutex_t mu_;
};

struct Db {
    __attribute__((noinline)) Db() {}
    Mutex mu;
};

struct Cache {
    __attribute__((noinline)) Cache() {}
    Mutex mu;
    int lookups = 0;
};

pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

static void get_shared(Cache *c)
{
    OK(pthread_mutex_lock(&registry_lock));
    c->mu.Lock(); /* registry_lock -> Cache::mu */
    c->lookups++;
    c->mu.Unlock();
    OK(pthread_mutex_unlock(&registry_lock));
}

static void open_db(Db *db, Cache *cache)
{
    db->mu.Lock();
    get_shared(cache); /* Db::mu -> registry_lock */
    db->mu.Unlock();
}

int main()
{
    Db db;
    Cache cache;
    std::thread t(open_db, &db, &cache);
    t.join();
    CHECK(cache.lookups == 1);
    return 0;
}
