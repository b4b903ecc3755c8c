/*
 * cxx_wrapper_ctor_class_inversion.cc - twin of
 * cxx_wrapper_ctor_class_clean.cc with a real class inversion: one thread
 * nests a Db's mutex -> a Cache's, another (later) a Cache's -> a Db's,
 * on different objects (db1/cache1, then cache2/db2).
 *
 * No instance cycle, but the code takes "a Db then a Cache" and "a Cache
 * then a Db": once two such paths meet the same pair they deadlock.  The
 * Mutex wrapper must not hide that: its constructor is a lock wrapper
 * (builtin_wrappers: a C++ `*Mutex` constructor), so each class is the
 * init site outside it, "Db::Db():LINE" and "Cache::Cache():LINE", and
 * their cycle is a class-order-inversion warning.
 *
 * EXPECT: class-order-inversion 'Db::Db():*' 'Cache::Cache():*'
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
};

static void nest(Mutex *outer, Mutex *inner)
{
    outer->Lock();
    inner->Lock();
    inner->Unlock();
    outer->Unlock();
}

int main()
{
    Db db1, db2;
    Cache cache1, cache2;
    std::thread t1(nest, &db1.mu, &cache1.mu); /* a Db, then a Cache */
    t1.join();
    std::thread t2(nest, &cache2.mu, &db2.mu); /* a Cache, then a Db */
    t2.join();
    return 0;
}
