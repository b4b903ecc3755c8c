/*
 * graph.c + bfs.c: edges, removal, and the cycle search with its read/write
 * rules and gate locks.  Nodes are built by hand: no interposition here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "base/config.h"
#include "model/graph.h"

#define N 8
static struct uld_graph g;
static struct uld_node n[N];

static int setup(void **state)
{
    (void)state;
    uld_config_parse(NULL);
    memset(&g, 0, sizeof(g));
    for (int i = 0; i < N; i++)
        uld_node_init(&n[i], 100 + i, 0, NULL);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (int i = 0; i < N; i++)
        uld_graph_remove_node(&g, &n[i]);
    assert_int_equal(g.nedges, 0);
    return 0;
}

static enum uld_edge_change add(int from, int to, unsigned type)
{
    struct uld_edge *e;
    return uld_graph_add(&g, &n[from], &n[to], type, NULL, 0, &e);
}

static enum uld_edge_change add_gated(int from, int to, const uint32_t *gates, int ngates)
{
    struct uld_edge *e;
    return uld_graph_add(&g, &n[from], &n[to], ULD_DEP_EN, gates, ngates, &e);
}

/*
 * Would a new edge target -> start (target held shared?) close a cycle?
 * Asked both ways: the full search, and the one a search back from target
 * may stop early, which must agree with it.
 */
static int closes(int start, int start_rread, int target, int target_shared)
{
    struct uld_edge *path[16];
    assert_int_equal(uld_bfs_reach(&n[start], start_rread), 0);
    int full = uld_bfs_closes(&n[start], &n[target], target_shared, path, 16);
    int r = uld_bfs_reach_toward(&n[start], start_rread, 0, &n[target]);
    assert_true(r == 0 || r == 1);
    int toward = r ? uld_bfs_closes(&n[start], &n[target], target_shared, path, 16) : 0;
    assert_int_equal(toward, full);
    return full;
}

static unsigned long edges_scanned(void)
{
    struct uld_bfs_stats st;
    uld_bfs_stats(&st);
    return st.edges;
}

static void test_add_find_change(void **state)
{
    (void)state;
    assert_int_equal(add(0, 1, ULD_DEP_EN), ULD_EDGE_NEW);
    assert_int_equal(add(0, 1, ULD_DEP_EN), ULD_EDGE_SAME);
    assert_int_equal(add(0, 1, ULD_DEP_SR), ULD_EDGE_NEW_TYPE);
    struct uld_edge *e = uld_graph_find(&g, &n[0], &n[1]);
    assert_non_null(e);
    assert_int_equal(e->types, ULD_DEP_EN | ULD_DEP_SR);
    assert_null(uld_graph_find(&g, &n[1], &n[0]));
    assert_int_equal(g.nedges, 1);
}

static void test_remove_node_drops_both_directions(void **state)
{
    (void)state;
    add(0, 1, ULD_DEP_EN);
    add(1, 2, ULD_DEP_EN);
    add(2, 1, ULD_DEP_EN);
    add(3, 1, ULD_DEP_EN);
    uld_graph_remove_node(&g, &n[1]);
    assert_int_equal(g.nedges, 0);
    assert_null(n[0].out);
    assert_null(n[2].in);
    assert_null(n[1].in);
}

static void test_cycles_of_length_2_3_6(void **state)
{
    (void)state;
    add(0, 1, ULD_DEP_EN); /* 0 -> 1, new edge 1 -> 0 closes */
    assert_int_equal(closes(0, 0, 1, 0), 1);
    add(1, 2, ULD_DEP_EN); /* 0 -> 1 -> 2, new 2 -> 0 */
    assert_int_equal(closes(0, 0, 2, 0), 2);
    for (int i = 2; i < 5; i++)
        add(i, i + 1, ULD_DEP_EN);
    assert_int_equal(closes(0, 0, 5, 0), 5); /* six locks */
    assert_int_equal(closes(3, 0, 6, 0), 0); /* 6 is not reachable from 3 */
}

static void test_path_is_in_order(void **state)
{
    (void)state;
    add(0, 1, ULD_DEP_EN);
    add(1, 2, ULD_DEP_EN);
    add(0, 2, ULD_DEP_EN);
    add(2, 3, ULD_DEP_EN);
    struct uld_edge *path[8];
    assert_int_equal(uld_bfs_reach(&n[0], 0), 0);
    int len = uld_bfs_closes(&n[0], &n[3], 0, path, 8);
    assert_int_equal(len, 2); /* shortest: 0 -> 2 -> 3 */
    assert_ptr_equal(path[0]->from, &n[0]);
    assert_ptr_equal(path[0]->to, &n[2]);
    assert_ptr_equal(path[1]->to, &n[3]);
}

/* Reader-preferring rwlocks: readers never wait for readers. */
static void test_read_read_is_not_a_cycle(void **state)
{
    (void)state;
    /* T1: rd(A) then rd(B): A -(SR)-> B.  T2 now: holds B for read, takes A for read. */
    add(0, 1, ULD_DEP_SR);
    assert_int_equal(closes(0, 1, 1, 1), 0);
}

static void test_write_read_mixes_are_cycles(void **state)
{
    (void)state;
    /* rd/wr: A -(SN)-> B; now holds B read, takes A write */
    add(0, 1, ULD_DEP_SN);
    assert_int_equal(closes(0, 0, 1, 1), 1);
    teardown(state);
    setup(state);
    /* wr/rd: A -(ER)-> B (holds A write, takes B read); now holds B write, takes A read */
    add(0, 1, ULD_DEP_ER);
    assert_int_equal(closes(0, 1, 1, 0), 1);
    teardown(state);
    setup(state);
    /* rd-rd vs wr-wr: A -(SR)-> B; now holds B write, takes A write */
    add(0, 1, ULD_DEP_SR);
    assert_int_equal(closes(0, 0, 1, 0), 1);
}

/* Writer-preferring rwlocks: reads are non-recursive, read-read cycles are real. */
static void test_nonrecursive_reads_cycle(void **state)
{
    (void)state;
    add(0, 1, ULD_DEP_SN);
    assert_int_equal(closes(0, 0, 1, 1), 1);
}

/* An arrival as recursive reader needs an exclusive holder downstream. */
static void test_state_through_middle_node(void **state)
{
    (void)state;
    /* A -(ER)-> B -(SN)-> C ; B is reached as recursive reader, B's out edge has
     * a shared source: the thread holding B for read does not block the reader. */
    add(0, 1, ULD_DEP_ER);
    add(1, 2, ULD_DEP_SN);
    assert_int_equal(closes(0, 0, 2, 0), 0);
    /* the same edge also taken with B held exclusively makes it strong */
    add(1, 2, ULD_DEP_EN);
    assert_int_equal(closes(0, 0, 2, 0), 2);
}

static void test_gates(void **state)
{
    (void)state;
    uint32_t gate = 7;
    struct uld_edge *path[8];
    /* 0 -> 1 under gate 7; new edge 1 -> 0 also under gate 7: guarded */
    add_gated(0, 1, &gate, 1);
    assert_int_equal(closes(0, 0, 1, 0), 1);
    struct uld_edge *e = uld_graph_find(&g, &n[0], &n[1]);
    assert_int_equal(uld_bfs_closes(&n[0], &n[1], 0, path, 8), 1);
    assert_true(uld_path_gated_by(path, 1, gate));
    assert_int_equal(uld_bfs_ungated(&n[0], 0, &n[1], 0, &gate, 1, path, 8), 0);
    /* a second, unguarded path 0 -> 2 -> 1 is a real cycle */
    add(0, 2, ULD_DEP_EN);
    add(2, 1, ULD_DEP_EN);
    assert_int_equal(uld_bfs_ungated(&n[0], 0, &n[1], 0, &gate, 1, path, 8), 2);
    assert_ptr_equal(path[0]->to, &n[2]);
    /* the gate set of an edge only shrinks */
    assert_int_equal(add_gated(0, 1, NULL, 0), ULD_EDGE_FEWER_GATES);
    assert_int_equal(e->ngates, 0);
    assert_int_equal(uld_bfs_ungated(&n[0], 0, &n[1], 0, &gate, 1, path, 8), 1);
}

/*
 * A hub (0 -> 2..7, a cache's table lock) does not make the search from it
 * cost its out-degree when the new edge's source has nothing leading to it;
 * the stopped search is resumed for the next target, and a path back into
 * it is still found.
 */
static void test_search_back_stops_early(void **state)
{
    (void)state;
    for (int i = 2; i < N; i++)
        add(0, i, ULD_DEP_EN);
    unsigned long before = edges_scanned();
    assert_int_equal(uld_bfs_reach_toward(&n[0], 0, 0, &n[1]), 0); /* 1 has no in-edge */
    assert_true(edges_scanned() - before <= 1);
    add(1, 0, ULD_DEP_EN); /* the new edge into the start changes nothing reachable */
    struct uld_edge *path[8];
    assert_int_equal(uld_bfs_reach_toward(&n[0], 0, 1, &n[7]), 1);
    assert_int_equal(uld_bfs_closes(&n[0], &n[7], 0, path, 8), 1);
    assert_ptr_equal(path[0]->to, &n[7]);
    /* a path two levels back from 1: 0 -> 3 -> 1 */
    teardown(state);
    setup(state);
    for (int i = 2; i < N; i++)
        add(0, i, ULD_DEP_EN);
    add(3, 1, ULD_DEP_EN);
    assert_int_equal(uld_bfs_reach_toward(&n[0], 0, 0, &n[1]), 1);
    assert_int_equal(uld_bfs_closes(&n[0], &n[1], 0, path, 8), 2);
    assert_ptr_equal(path[0]->to, &n[3]);
}

/* The search back ignores dependency types: meeting there is no cycle yet,
 * the exact search decides (0 -(ER)-> 1 -(SN)-> 2 does not block). */
static void test_search_back_meets_then_exact(void **state)
{
    (void)state;
    add(0, 1, ULD_DEP_ER);
    add(1, 2, ULD_DEP_SN);
    assert_int_equal(uld_bfs_reach_toward(&n[0], 0, 0, &n[2]), 1);
    struct uld_edge *path[8];
    assert_int_equal(uld_bfs_closes(&n[0], &n[2], 0, path, 8), 0);
}

/*
 * A daemon runs 2^32 searches: marks a node kept from before the search
 * counter wrapped must not pass for the current search's when the counter
 * comes back to their value (set here by hand: the same value after a wrap).
 */
static void wrap_counter_then_set(uint32_t g)
{
    uld_bfs_set_generation(UINT32_MAX);
    assert_int_equal(uld_bfs_reach(&n[7], 0), 0); /* a search that wraps it */
    uld_bfs_set_generation(g);
}

static void test_marks_from_before_a_wrap(void **state)
{
    (void)state;
    struct uld_edge *path[8];
    add(0, 1, ULD_DEP_EN);
    uld_bfs_set_generation(1000);
    assert_int_equal(uld_bfs_reach(&n[0], 0), 0); /* marks 1 reached, at 1001 */
    wrap_counter_then_set(1000);
    assert_int_equal(uld_bfs_reach(&n[2], 0), 0); /* 1001 again: 2 reaches nothing */
    assert_int_equal(uld_bfs_closes(&n[2], &n[1], 0, path, 8), 0);
    /* the gated search: a node seen long ago is not skipped now */
    uint32_t gate = 77;
    uld_bfs_set_generation(2000);
    assert_int_equal(uld_bfs_ungated(&n[0], 0, &n[1], 0, &gate, 1, path, 8), 1);
    wrap_counter_then_set(2000);
    assert_int_equal(uld_bfs_ungated(&n[0], 0, &n[1], 0, &gate, 1, path, 8), 1);
}

/* A forward search started just before the counter's end is resumed across
 * the backward searches that follow it, with its marks intact. */
static void test_resume_at_the_counter_end(void **state)
{
    (void)state;
    struct uld_edge *path[8];
    for (int i = 2; i < N; i++)
        add(0, i, ULD_DEP_EN);
    add(4, 1, ULD_DEP_EN);
    uld_bfs_set_generation(UINT32_MAX - 1);
    assert_int_equal(uld_bfs_reach_toward(&n[0], 0, 0, &n[6]), 1);
    assert_int_equal(uld_bfs_closes(&n[0], &n[6], 0, path, 8), 1);
    assert_int_equal(uld_bfs_reach_toward(&n[0], 0, 1, &n[1]), 1);
    assert_int_equal(uld_bfs_closes(&n[0], &n[1], 0, path, 8), 2);
    assert_ptr_equal(path[0]->to, &n[4]);
}

static void test_edge_limit(void **state)
{
    (void)state;
    uld_config.max_edges = 2;
    assert_int_equal(add(0, 1, ULD_DEP_EN), ULD_EDGE_NEW);
    assert_int_equal(add(1, 2, ULD_DEP_EN), ULD_EDGE_NEW);
    assert_int_equal(add(2, 3, ULD_DEP_EN), ULD_EDGE_FULL);
    assert_int_equal(add(0, 1, ULD_DEP_EN), ULD_EDGE_SAME);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_add_find_change, setup, teardown),
        cmocka_unit_test_setup_teardown(test_remove_node_drops_both_directions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cycles_of_length_2_3_6, setup, teardown),
        cmocka_unit_test_setup_teardown(test_path_is_in_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_read_is_not_a_cycle, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_read_mixes_are_cycles, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nonrecursive_reads_cycle, setup, teardown),
        cmocka_unit_test_setup_teardown(test_state_through_middle_node, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gates, setup, teardown),
        cmocka_unit_test_setup_teardown(test_search_back_stops_early, setup, teardown),
        cmocka_unit_test_setup_teardown(test_search_back_meets_then_exact, setup, teardown),
        cmocka_unit_test_setup_teardown(test_marks_from_before_a_wrap, setup, teardown),
        cmocka_unit_test_setup_teardown(test_resume_at_the_counter_end, setup, teardown),
        cmocka_unit_test_setup_teardown(test_edge_limit, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
