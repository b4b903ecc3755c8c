/*
 * state.c - the validator's global state (state.h): owned here, below
 * every layer that reads it, so that no lower file reaches up into the
 * entry points for it.
 */
#include "state.h"

struct uld_mutex uld_graph_lock;
_Atomic int uld_state;
_Atomic int uld_untracked_locks;
__thread struct uld_thread *uld_fast_self __attribute__((tls_model("initial-exec")));
struct uld_graph uld_lock_graph = {.name = "lock"};
struct uld_graph uld_class_graph = {.name = "class"};
int uld_forked_child;
int uld_watchdog_on;
pthread_key_t uld_thread_key;

struct uld_thread *uld_thread_attach(void)
{
    struct uld_thread *t = uld_thread_create();
    if (!t)
        return NULL;
    uld_self = t;
    pthread_setspecific(uld_thread_key, t);
    uld_signal_thread_init(t);
    return t;
}
