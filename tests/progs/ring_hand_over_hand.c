/*
 * ring_hand_over_hand.c - MariaDB 10.11's Aria log buffers
 * (translog_buffer_next): 8 buffers in a ring, all initialised by one
 * helper (one class); one thread moves from buffer i to buffer i+1 mod 8
 * hand over hand: it locks the next buffer while holding the current one.
 *
 * Once the ring wraps, buf0 -> buf1 -> ... -> buf7 -> buf0 is an instance
 * cycle: eight threads each holding one buffer and waiting for the next
 * would deadlock (dining philosophers), so it stays one ERROR report.  But
 * seven of its eight edges are the same step of one class recorded at the
 * same place: the chain shows them as one folded stanza with a count and
 * one representative stack, keeping the report short (the real one was
 * 186 lines, eight near-identical 16-frame stacks).
 *
 * EXPECT: lock-order-inversion buffers 'buffers+0x*' 'buffers+0x*' 'buffers+0x*' 'buffers+0x*' 'buffers+0x*' 'buffers+0x*' 'buffers+0x*'
 * EXPECT-STDERR: #7\.\.#1: 7 dependencies of this form
 * EXPECT-STDERR: threads 1\.\.8 each hold one and wait for the next
 * EXPECT-MAX-LINES: 80
 */
#include "progs.h"

#define BUFFERS 8

struct log_buffer {
    pthread_mutex_t mutex;
    int used;
};

static struct log_buffer buffers[BUFFERS];

static __attribute__((noinline)) void buffer_init(struct log_buffer *b)
{
    OK(pthread_mutex_init(&b->mutex, NULL));
}

static __attribute__((noinline)) void log_init(void)
{
    for (int i = 0; i < BUFFERS; i++)
        buffer_init(&buffers[i]);
}

/* translog_buffer_next: with cur locked, lock the next one, release cur. */
static __attribute__((noinline)) int buffer_next(int cur)
{
    int next = (cur + 1) % BUFFERS;
    OK(pthread_mutex_lock(&buffers[next].mutex));
    buffers[next].used++;
    OK(pthread_mutex_unlock(&buffers[cur].mutex));
    return next;
}

static __attribute__((noinline)) int write_record(int cur, int depth)
{
    if (depth > 0)
        return write_record(cur, depth - 1); /* deep stacks, as in the server */
    return buffer_next(cur);
}

int main(void)
{
    log_init();
    int cur = 0;
    OK(pthread_mutex_lock(&buffers[cur].mutex));
    for (int i = 0; i < 2 * BUFFERS; i++)
        cur = write_record(cur, 6);
    OK(pthread_mutex_unlock(&buffers[cur].mutex));
    return 0;
}
