/*
 * thread.c - per-thread states: mapped (never malloc'd, so a first lock
 * taken inside a signal handler is fine), recycled through a free list, and
 * linked in a registry under thread_lock.
 */
#include "thread.h"

#include "chain.h"

#include <string.h>
#include <sys/prctl.h>

__thread struct uld_thread *uld_self __attribute__((tls_model("initial-exec")));
__thread unsigned uld_busy __attribute__((tls_model("initial-exec")));
__thread uint32_t uld_next_serial __attribute__((tls_model("initial-exec")));
struct uld_lock uld_recordless; /* id 0: every recordless entry's lock_id is UINT32_MAX */

#define INFO_CHUNK 1024
#define INFO_CHUNKS 1024 /* about a million threads described */

static struct uld_mutex thread_lock;
static struct uld_thread *registry, *free_states;
static uint32_t next_serial = 1;
static struct uld_thread_info *info_chunks[INFO_CHUNKS];
static struct uld_thread_totals exited; /* statistics of threads gone */

static void add_totals(struct uld_thread_totals *sum, const struct uld_thread *t)
{
    sum->chain_hits += t->chain_hits + t->fast_hits;
    sum->chain_misses += t->chain_misses;
    sum->slow_ns += t->slow_ns;
    if (t->max_depth > sum->max_depth)
        sum->max_depth = t->max_depth;
}

void uld_threads_totals(struct uld_thread_totals *out)
{
    uld_mutex_lock(&thread_lock);
    *out = exited;
    for (struct uld_thread *t = registry; t; t = t->next)
        add_totals(out, t);
    out->threads = next_serial - 1;
    uld_mutex_unlock(&thread_lock);
}

static struct uld_thread_info *info_slot(uint32_t serial)
{
    uint32_t c = serial / INFO_CHUNK;
    if (c >= INFO_CHUNKS)
        return NULL;
    if (!info_chunks[c])
        info_chunks[c] = uld_map(INFO_CHUNK * sizeof(struct uld_thread_info));
    return info_chunks[c] ? &info_chunks[c][serial % INFO_CHUNK] : NULL;
}

void uld_thread_publish(const struct uld_thread *t)
{
    uld_mutex_lock(&thread_lock);
    struct uld_thread_info *i = info_slot(t->serial);
    if (i) {
        i->tid = t->tid;
        i->parent_serial = t->parent_serial;
        i->created_stack = t->created_stack;
        memcpy(i->name, t->name, sizeof(i->name));
    }
    uld_mutex_unlock(&thread_lock);
}

int uld_thread_info(uint32_t serial, struct uld_thread_info *out)
{
    int ok = 0;
    uld_mutex_lock(&thread_lock);
    uint32_t c = serial / INFO_CHUNK;
    if (serial && c < INFO_CHUNKS && info_chunks[c] && info_chunks[c][serial % INFO_CHUNK].tid) {
        *out = info_chunks[c][serial % INFO_CHUNK];
        ok = 1;
    }
    uld_mutex_unlock(&thread_lock);
    return ok;
}

void uld_thread_refresh_name(struct uld_thread *t)
{
    char name[16] = {0};
    if (prctl(PR_GET_NAME, name, 0, 0, 0) == 0)
        memcpy(t->name, name, sizeof(t->name));
    t->name[sizeof(t->name) - 1] = '\0';
}

uint32_t uld_thread_reserve_serial(void)
{
    uld_mutex_lock(&thread_lock);
    uint32_t s = next_serial++;
    uld_mutex_unlock(&thread_lock);
    return s;
}

struct uld_thread *uld_thread_create(void)
{
    uld_mutex_lock(&thread_lock);
    struct uld_thread *t = free_states;
    if (t)
        free_states = t->next;
    uld_mutex_unlock(&thread_lock);
    if (t) {
        /* only the header: held[] entries are written before being read */
        memset(t, 0, offsetof(struct uld_thread, held));
    } else {
        t = uld_map(sizeof(*t));
        if (!t)
            return NULL;
    }
    t->held_sentinel = (struct uld_held){.addr = ULD_HELD_NONE};
    t->tid = uld_gettid();
    uld_thread_refresh_name(t);
    uld_mutex_lock(&thread_lock);
    t->serial = uld_next_serial ? uld_next_serial : next_serial++;
    t->next = registry;
    if (registry)
        registry->prev = t;
    registry = t;
    uld_mutex_unlock(&thread_lock);
    uld_thread_publish(t);
    return t;
}

static void unlink_state(struct uld_thread *t)
{
    if (t->prev)
        t->prev->next = t->next;
    else
        registry = t->next;
    if (t->next)
        t->next->prev = t->prev;
}

void uld_thread_destroy(struct uld_thread *t)
{
    uld_mutex_lock(&thread_lock);
    add_totals(&exited, t);
    unlink_state(t);
    t->prev = NULL;
    t->next = free_states;
    free_states = t;
    uld_mutex_unlock(&thread_lock);
}

/* Only the forking thread survives in the child. */
void uld_threads_after_fork_child(struct uld_thread *self)
{
    uld_mutex_reset(&thread_lock);
    struct uld_thread *t = registry;
    while (t) {
        struct uld_thread *next = t->next;
        if (t != self) {
            t->prev = NULL;
            t->next = free_states;
            free_states = t;
        }
        t = next;
    }
    registry = self;
    if (self) {
        self->next = self->prev = NULL;
        self->tid = uld_gettid();
    }
}

/* fork's prepare step: what the threads that will not exist in the child hold. */
void uld_threads_held_elsewhere(const struct uld_thread *self,
                                void (*fn)(const struct uld_held *h))
{
    uld_mutex_lock(&thread_lock);
    for (struct uld_thread *t = registry; t; t = t->next) {
        if (t == self)
            continue;
        int depth = t->depth; /* racy: the thread may be locking right now */
        for (int i = 0; i < depth && i < ULD_MAX_HELD; i++)
            fn(&t->held[i]);
    }
    uld_mutex_unlock(&thread_lock);
}

int uld_held_find(const struct uld_thread *t, uintptr_t addr)
{
    for (int i = t->depth - 1; i >= 0; i--)
        if (t->held[i].addr == addr)
            return i;
    return -1;
}

int uld_held_once(const struct uld_thread *t)
{
    for (int i = t->depth - 1; i >= 0; i--)
        if (t->held[i].type == ULD_TYPE_ONCE)
            return 1;
    return 0;
}

void uld_held_remove(struct uld_thread *t, int i)
{
    memmove(&t->held[i], &t->held[i + 1], (size_t)(t->depth - i - 1) * sizeof(t->held[0]));
    t->depth--;
    uint64_t key = i ? t->held[i - 1].chain_key : 0;
    for (int j = i; j < t->depth; j++) {
        key = uld_chain_mix(key, t->held[j].node_id, t->held[j].mode);
        t->held[j].chain_key = key;
    }
}

int uld_threads_snapshot(struct uld_thread_snap *out, int max)
{
    int n = 0;
    uld_mutex_lock(&thread_lock);
    for (struct uld_thread *t = registry; t && n < max; t = t->next) {
        struct uld_thread_snap *s = &out[n++];
        s->t = t;
        s->serial = t->serial;
        s->tid = t->tid;
        s->blocked_on = atomic_load(&t->blocked_on);
        s->blocked_ip = t->blocked_ip;
        s->blocked_since = t->blocked_since;
        s->blocked_seq = t->blocked_seq;
        int depth = t->depth;
        s->nheld = 0;
        for (int i = 0; i < depth && i < ULD_MAX_HELD && s->nheld < ULD_SNAP_HELD; i++) {
            s->held[s->nheld] = t->held[i].addr;
            int rl = uld_held_recordless(&t->held[i]);
            s->held_pending[s->nheld] = rl ? t->held[i].pending : 0;
            s->held_tag_word[s->nheld] = rl ? (uint64_t *)t->held[i].chain_key : NULL;
            s->held_mode[s->nheld] = t->held[i].mode;
            s->held_ip[s->nheld++] = t->held[i].ip;
        }
        s->top = depth > 0 && depth <= ULD_MAX_HELD ? t->held[depth - 1].addr : 0;
        s->top_ip = s->top ? t->held[depth - 1].ip : 0;
        s->top_mode = s->top ? t->held[depth - 1].mode : 0;
    }
    uld_mutex_unlock(&thread_lock);
    return n;
}
