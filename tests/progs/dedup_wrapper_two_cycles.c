/*
 * dedup_wrapper_two_cycles.c - pjproject's shape: every mutex of the
 * program comes from one wrapper (pj_mutex_create through an inner
 * helper), and every lock and unlock goes through
 * pj_mutex_lock/pj_mutex_unlock.  The sessions and dialogs are created
 * by one function (one creation site each: one class for the sessions,
 * one for the dialogs).
 *
 * Two unrelated inversions: a session lock against its dialog's lock
 * (session_update vs dialog_terminate), and a transaction lock against
 * the endpoint lock (tsx_on_timer vs endpt_shutdown).  Then the session
 * bug again, on a second session and dialog: the same code, the same
 * cycle pattern on other objects (edges of the same classes recorded at
 * the same places).
 *
 * Each inversion is a different deadlock: two reports.  The repetition
 * on other objects is the first problem again: no third report.
 *
 * EXPECT: lock-order-inversion sess1 dlg1
 * EXPECT: lock-order-inversion tsx endpt
 */
#include "progs.h"

typedef pthread_mutex_t pj_mutex_t;

static __attribute__((noinline)) void mutex_init(pj_mutex_t *m)
{
    OK(pthread_mutex_init(m, NULL));
}

static __attribute__((noinline)) pj_mutex_t *pj_mutex_create(const char *name)
{
    pj_mutex_t *m = malloc(sizeof(*m));
    CHECK(m != NULL);
    mutex_init(m);
    uld_lock_set_name(m, name);
    return m;
}

static __attribute__((noinline)) void pj_mutex_lock(pj_mutex_t *m)
{
    OK(pthread_mutex_lock(m));
}

static __attribute__((noinline)) void pj_mutex_unlock(pj_mutex_t *m)
{
    OK(pthread_mutex_unlock(m));
}

static __attribute__((noinline)) void session_update(pj_mutex_t *sess, pj_mutex_t *dlg)
{
    pj_mutex_lock(sess);
    pj_mutex_lock(dlg);
    pj_mutex_unlock(dlg);
    pj_mutex_unlock(sess);
}

static __attribute__((noinline)) void dialog_terminate(pj_mutex_t *dlg, pj_mutex_t *sess)
{
    pj_mutex_lock(dlg);
    pj_mutex_lock(sess);
    pj_mutex_unlock(sess);
    pj_mutex_unlock(dlg);
}

static __attribute__((noinline)) void tsx_on_timer(pj_mutex_t *tsx, pj_mutex_t *endpt)
{
    pj_mutex_lock(tsx);
    pj_mutex_lock(endpt);
    pj_mutex_unlock(endpt);
    pj_mutex_unlock(tsx);
}

static __attribute__((noinline)) void endpt_shutdown(pj_mutex_t *endpt, pj_mutex_t *tsx)
{
    pj_mutex_lock(endpt);
    pj_mutex_lock(tsx);
    pj_mutex_unlock(tsx);
    pj_mutex_unlock(endpt);
}

static __attribute__((noinline)) void call_create(int i, pj_mutex_t **sess, pj_mutex_t **dlg)
{
    static const char *const sess_names[2] = {"sess1", "sess2"};
    static const char *const dlg_names[2] = {"dlg1", "dlg2"};
    *sess = pj_mutex_create(sess_names[i]);
    *dlg = pj_mutex_create(dlg_names[i]);
}

int main(void)
{
    pj_mutex_t *sess[2], *dlg[2];
    for (int i = 0; i < 2; i++)
        call_create(i, &sess[i], &dlg[i]);
    pj_mutex_t *tsx = pj_mutex_create("tsx"), *endpt = pj_mutex_create("endpt");
    for (int i = 0; i < 2; i++) { /* a call, then its hang-up */
        session_update(sess[i], dlg[i]);
        dialog_terminate(dlg[i], sess[i]);
        if (i == 0) {
            tsx_on_timer(tsx, endpt);
            endpt_shutdown(endpt, tsx);
        }
    }
    return 0;
}
