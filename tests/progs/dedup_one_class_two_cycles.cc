/*
 * dedup_one_class_two_cycles.cc - TSan's deadlock stress test, sub-test 7:
 * ten locks built by one wrapper class (one init site, one caller: one
 * lock class), then two unrelated inversions among them, each closed by
 * a trylock-then-lock and a lock-then-lock order in one thread:
 *   T(4) L(5) ... L(5) L(4)    -> cycle 4 => 5
 *   L(7) L(6) ... T(6) L(7)    -> cycle 6 => 7
 * while 0 => 1 and 2 => 3 only ever trylock the inner lock (no cycle).
 *
 * Both cycles have the same set of classes, but they are different
 * cycles, taken at different places: two reports (deduplicating by the
 * set of classes alone made them one, so suppressing one hid the other).
 *
 * EXPECT: lock-order-inversion 'LockTest::Init*#5' 'LockTest::Init*#6'
 * EXPECT: lock-order-inversion 'LockTest::Init*#7' 'LockTest::Init*#8'
 */
#include "progs.h"

class PthreadMutex {
public:
    __attribute__((noinline)) PthreadMutex() { OK(pthread_mutex_init(&mu_, nullptr)); }
    ~PthreadMutex() { OK(pthread_mutex_destroy(&mu_)); }
    __attribute__((noinline)) void lock() { OK(pthread_mutex_lock(&mu_)); }
    __attribute__((noinline)) void unlock() { OK(pthread_mutex_unlock(&mu_)); }
    __attribute__((noinline)) bool try_lock() { return pthread_mutex_trylock(&mu_) == 0; }

private:
    pthread_mutex_t mu_;
};

class LockTest {
public:
    __attribute__((noinline)) void Init(size_t n)
    {
        n_ = n;
        locks_ = new PthreadMutex *[n_];
        for (size_t i = 0; i < n_; i++)
            locks_[i] = new PthreadMutex;
    }
    ~LockTest()
    {
        for (size_t i = 0; i < n_; i++)
            delete locks_[i];
        delete[] locks_;
    }
    void L(size_t i) { locks_[i]->lock(); }
    void U(size_t i) { locks_[i]->unlock(); }
    void T(size_t i) { CHECK(locks_[i]->try_lock()); }

    void Test7()
    {
        Init(10);
        L(0), T(1), U(1), U(0);
        T(1), L(0), U(1), U(0); /* no cycle: 0 => 1 */
        T(2), L(3), U(3), U(2);
        L(3), T(2), U(3), U(2); /* no cycle: 2 => 3 */
        T(4), L(5), U(4), U(5);
        L(5), L(4), U(4), U(5); /* cycle: 4 => 5 */
        L(7), L(6), U(6), U(7);
        T(6), L(7), U(6), U(7); /* cycle: 6 => 7 */
    }

private:
    size_t n_ = 0;
    PthreadMutex **locks_ = nullptr;
};

int main()
{
    LockTest t;
    t.Test7();
    return 0;
}
