/*
 * robust_tls_dtor_inversion.cc - twin of robust_tls_dtors.cc with a real
 * ordering bug inside a thread_local destructor.
 *
 * The first thread takes mtx_a -> mtx_b while it runs.  The second
 * thread's thread_local object, destroyed as that thread exits, takes
 * mtx_b -> mtx_a.  A destructor runs on the exiting thread like any other
 * code: had the first thread run concurrently, the two would deadlock.
 * The validator must see locks taken during thread teardown and report the
 * inversion.  The counts are checked.
 *
 * EXPECT: lock-order-inversion mtx_a mtx_b
 */
#include "progs.h"

#include <mutex>
#include <thread>

std::mutex mtx_a;
std::mutex mtx_b;
static int dtors;

struct Flusher {
    bool used = false;
    ~Flusher()
    {
        if (!used)
            return;
        std::lock_guard<std::mutex> b(mtx_b);
        std::lock_guard<std::mutex> a(mtx_a); /* mtx_b -> mtx_a */
        dtors++;
    }
};
thread_local Flusher flusher;

int main()
{
    std::thread([] {
        std::lock_guard<std::mutex> a(mtx_a);
        std::lock_guard<std::mutex> b(mtx_b); /* mtx_a -> mtx_b */
    }).join();
    std::thread([] { flusher.used = true; }).join();
    std::lock_guard<std::mutex> a(mtx_a);
    CHECK(dtors == 1);
    return 0;
}
