/*
 * class_hand_over_hand_clean.c - hand-over-hand (lock coupling) traversal
 * of a linked list whose node locks are all initialised in node_new(),
 * hence of one class; two threads traverse it at the same time, both from
 * the head.
 *
 * Each step takes node i+1 while holding node i: instance edges
 * n0 -> n1 -> ... -> n7, always forward, so no cycle and no deadlock.  At
 * class level that is one class nested in itself; a same-class nesting is
 * judged on the instances (acyclic here), not reported as a class cycle.
 *
 * EXPECT: none
 */
#include "progs.h"

#define NODES 8

struct node {
    pthread_mutex_t lock;
    struct node *next;
    int value;
};

static __attribute__((noinline)) struct node *node_new(int value, struct node *next)
{
    struct node *n = malloc(sizeof(*n));
    CHECK(n != NULL);
    OK(pthread_mutex_init(&n->lock, NULL));
    n->next = next;
    n->value = value;
    return n;
}

static void *walk(void *arg)
{
    struct node *n = arg;
    long sum = 0;
    OK(pthread_mutex_lock(&n->lock));
    while (n->next) {
        struct node *next = n->next;
        OK(pthread_mutex_lock(&next->lock));
        OK(pthread_mutex_unlock(&n->lock));
        sum += next->value;
        n = next;
    }
    OK(pthread_mutex_unlock(&n->lock));
    CHECK(sum == NODES * (NODES - 1) / 2);
    return NULL;
}

int main(void)
{
    struct node *head = NULL;
    for (int i = NODES - 1; i >= 0; i--)
        head = node_new(i, head);
    pthread_t t1 = spawn_thread(walk, head);
    pthread_t t2 = spawn_thread(walk, head);
    join_thread(t1);
    join_thread(t2);
    while (head) {
        struct node *next = head->next;
        OK(pthread_mutex_destroy(&head->lock));
        free(head);
        head = next;
    }
    return 0;
}
