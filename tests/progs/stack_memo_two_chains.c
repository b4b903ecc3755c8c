/*
 * stack_memo_two_chains.c - an edge's stack is its own call chain's, even
 * when another chain made an edge at the same site and depth before.
 *
 * One thread takes outer -> inner in take_pair(), reached once through
 * via_alpha() and once through via_beta(): the same acquisition site at
 * the same stack depth (both callers have one frame layout), with other
 * locks each time, so each is a new edge.  The stack of the second may not
 * be the first's (edge stacks are memoized per thread by site and depth,
 * stackmemo.c): each cycle, closed by taking the pair in reverse, must
 * show the caller that made its edge.  Both pairs are of the same two
 * classes (pair_init's), so a wrong stack would also merge the two cycles
 * into one pattern and drop the second report.
 *
 * EXPECT: lock-order-inversion alpha alpha+0x28
 * EXPECT: lock-order-inversion beta beta+0x28
 * EXPECT-STDERR: then acquired at:\n\s+#0 +\S+ in take_pair\+\S+ \(\S+:{{line:site}}\)\n[^\n]*\n\s+#1 +\S+ in via_alpha\+
 * EXPECT-STDERR: then acquired at:\n\s+#0 +\S+ in take_pair\+\S+ \(\S+:{{line:site}}\)\n[^\n]*\n\s+#1 +\S+ in via_beta\+
 */
#include "progs.h"

struct pair {
    pthread_mutex_t outer, inner;
};

static struct pair alpha, beta;

static __attribute__((noinline)) void pair_init(struct pair *p)
{
    OK(pthread_mutex_init(&p->outer, NULL));
    OK(pthread_mutex_init(&p->inner, NULL));
}

static __attribute__((noinline, noipa)) void take_pair(struct pair *p)
{
    OK(pthread_mutex_lock(&p->outer));
    OK(pthread_mutex_lock(&p->inner)); /* @line:site */
    OK(pthread_mutex_unlock(&p->inner));
    OK(pthread_mutex_unlock(&p->outer));
}

static volatile int calls;

/* Two callers of one frame layout: the same depth at the site. */
static __attribute__((noinline, noipa)) void via_alpha(struct pair *p)
{
    take_pair(p);
    calls += 1; /* no tail call: the return address stays on the stack */
}

static __attribute__((noinline, noipa)) void via_beta(struct pair *p)
{
    take_pair(p);
    calls += 2;
}

static __attribute__((noinline, noipa)) void take_reversed(struct pair *p)
{
    OK(pthread_mutex_lock(&p->inner));
    OK(pthread_mutex_lock(&p->outer));
    OK(pthread_mutex_unlock(&p->outer));
    OK(pthread_mutex_unlock(&p->inner));
}

int main(void)
{
    pair_init(&alpha);
    pair_init(&beta);
    via_alpha(&alpha);
    via_beta(&beta);
    take_reversed(&alpha);
    take_reversed(&beta);
    CHECK(calls == 3);
    return 0;
}
