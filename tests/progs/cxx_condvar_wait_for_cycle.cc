/*
 * cxx_condvar_wait_for_cycle.cc - std::condition_variable: a waiter holds
 * std::mutex `big` (lock_guard) while it waits on `cv` with a
 * std::unique_lock on `cv_mutex`; the notifier holds big (and cv_mutex)
 * when it calls notify_one().
 *
 * std::condition_variable is a pthread condvar underneath: wait_for() is
 * a pthread_cond_clockwait on cv_mutex, notify_one() a
 * pthread_cond_signal.  The wait records big -> cv (cv_mutex is released
 * by the wait and does not count), the only notification cv -> big: run
 * at the same time, the notifier blocks on big while the waiter sleeps
 * holding it, a deadlock.  Here the notifier runs first (its notify finds
 * nobody) and the waiter's wait_for times out after 20 ms.
 *
 * EXPECT: wait-for-cycle big cv
 */
#include "progs.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

std::mutex big;  // not static: plain (unmangled) symbol names
std::mutex cv_mutex;
std::condition_variable cv;
bool ready;

__attribute__((noinline)) static void notifier()
{
    std::lock_guard<std::mutex> hold_big(big);
    std::lock_guard<std::mutex> lk(cv_mutex);
    ready = true;
    cv.notify_one(); // with big held: cv -> big
}

__attribute__((noinline)) static void waiter()
{
    std::lock_guard<std::mutex> hold_big(big);
    std::unique_lock<std::mutex> lk(cv_mutex);
    // big -> cv; nobody notifies any more: times out
    std::cv_status st = cv.wait_for(lk, std::chrono::milliseconds(20));
    CHECK(st == std::cv_status::timeout);
    CHECK(ready);
}

int main()
{
    std::thread(notifier).join();
    std::thread(waiter).join();
    return 0;
}
