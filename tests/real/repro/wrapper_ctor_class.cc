// REPRO: class-order-inversion
//
// ulockdep false positive found on rocksdb's db_bench (docs/real-world.md,
// "rocksdb"): every lock initialised inside one out-of-line wrapper
// constructor gets the same class, so a plain nesting
//
//     Db::mu  ->  registry_lock  ->  Cache::mu
//
// (three different locks, always taken in this one order, no cycle between
// instances and none possible: a Db's mutex is never a Cache's mutex) is a
// class cycle  class(Mutex::Mutex) -> registry_lock -> class(Mutex::Mutex),
// reported as class-order-inversion.  rocksdb::port::Mutex is such a
// wrapper: its constructor calls pthread_mutex_init out of line, so every
// rocksdb mutex is class "rocksdb::port::Mutex::Mutex(bool)+0x2d".
//
// The same program with the pthread_mutex_init call inlined into Db's and
// Cache's constructors (or with uld_lock_set_class) reports nothing.
//
// Native: exits 0.  Under ulockdep: one class-order-inversion warning.
#include <pthread.h>
#include <stdio.h>

#include <thread>  // links libstdc++, so ulockdep demangles the names

class Mutex {  // as rocksdb::port::Mutex (port/port_posix.cc)
 public:
  __attribute__((noinline)) Mutex() { pthread_mutex_init(&mu_, nullptr); }
  __attribute__((noinline)) ~Mutex() { pthread_mutex_destroy(&mu_); }
  __attribute__((noinline)) void Lock() { pthread_mutex_lock(&mu_); }
  __attribute__((noinline)) void Unlock() { pthread_mutex_unlock(&mu_); }

 private:
  pthread_mutex_t mu_;
};

// Out-of-line constructors, as DBImpl's and LRUCacheShard's are: the
// function that calls the wrapper tells their classes apart.
struct Db {      // as rocksdb::DBImpl::mutex_
  __attribute__((noinline)) Db() {}
  Mutex mu;
};
struct Cache {   // as rocksdb::LRUCacheShard::mutex_
  __attribute__((noinline)) Cache() {}
  Mutex mu;
  int lookups = 0;
  __attribute__((noinline)) void Lookup() {
    mu.Lock();
    lookups++;
    mu.Unlock();
  }
};

// as the function-local static mutex of rocksdb::CacheEntryStatsCollector::GetShared
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

static Db db;
static Cache cache;

__attribute__((noinline)) static void get_shared(Cache *c) {
  pthread_mutex_lock(&registry_lock);
  c->Lookup();  // registry_lock -> Cache::mu
  pthread_mutex_unlock(&registry_lock);
}

static void open_db() {  // as DBImpl::Recover -> InternalStats::InternalStats
  db.mu.Lock();
  get_shared(&cache);  // Db::mu -> registry_lock
  db.mu.Unlock();
}

int main() {
  std::thread t(open_db);
  t.join();
  printf("lookups %d\n", cache.lookups);
  return 0;
}
