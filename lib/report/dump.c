/*
 * dump.c - the lock-class graph of this process (graph_path=FILE), for
 * `ulockdep graph` and `ulockdep merge` (format: docs/reports.md), written
 * as the process runs so that a process killed by SIGKILL, one that ends in
 * abort(), or one that sandboxes itself (Landlock) still leaves what it saw:
 *
 * - the file is created at start-up (a fork child: at fork), while creating
 *   files is still allowed, and its header names the program; later writes
 *   go through that descriptor (high, close-on-exec, checked by output.c);
 * - edges new or changed since the last write are appended at the next
 *   report flush outside a signal handler (a new edge is on the slow path
 *   already), named and written with report_lock held as reports are, so
 *   the fast path never writes;
 * - at exit, classes whose live-instance count grew are written again and
 *   a final "end" record says the dump is complete.
 *
 * Edges are copied under graph_lock, then named and written without it,
 * since symbolisation may allocate.  dump state: report_lock.
 */
#include "symbolize.h"
#include "base/config.h"
#include "model/modules.h"
#include "dump.h"
#include "model/state.h"
#include "base/output.h"
#include "report.h"
#include "model/stack.h"
#include "base/uthash_arena.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

struct edge_copy {
    struct uld_class *from, *to;
    uint8_t types;
    int ngates;
    uint32_t gates[ULD_MAX_GATES];
    uint32_t stack_id;
    uintptr_t from_ip;
};

/* Every class by node id (gates name classes by id); refreshed when classes were added. */
struct class_by_id {
    uint32_t id;
    struct uld_class *cls;
    uint32_t written_live; /* max_live in the last class line written; 0: none yet */
    UT_hash_handle hh;
};

static struct class_by_id *class_map;
static long class_map_count = -1;
static unsigned long written_version; /* uld_class_graph.version last written */
static int dump_enabled;             /* this process writes a graph */
static char line_mem[1 << 16];

static void index_class(struct uld_class *c, void *arg)
{
    (void)arg;
    struct class_by_id *e;
    uint32_t id = c->node.id;
    HASH_FIND(hh, class_map, &id, sizeof(id), e);
    if (e || !(e = uld_alloc(sizeof(*e))))
        return;
    e->id = id;
    e->cls = c;
    e->written_live = 0;
    HASH_ADD(hh, class_map, id, sizeof(e->id), e);
}

static struct class_by_id *class_of(uint32_t id)
{
    struct class_by_id *e;
    HASH_FIND(hh, class_map, &id, sizeof(id), e);
    return e;
}

static uint32_t live_of(const struct uld_class *c)
{
    uint32_t n = __atomic_load_n(&c->base->max_live, __ATOMIC_RELAXED);
    return n ? n : 1;
}

static void put_key(struct uld_buf *b, const struct uld_class *c)
{
    char key[ULD_NAME_MAX];
    uld_class_stable_key((int)c->k.kind, c->k.key, c->base->site_stack, c->k.subclass, key,
                         sizeof(key));
    uld_buf_json_str(b, key);
}

static void put_frame(struct uld_buf *b, uintptr_t addr)
{
    struct uld_frame_info fi;
    if (!addr) {
        uld_buf_puts(b, "null");
        return;
    }
    uld_symbolize(addr, 1, &fi);
    uld_buf_printf(b, "{\"address\":\"%p\",\"function\":", (void *)uld_addr_real(addr));
    uld_buf_json_str(b, fi.function);
    uld_buf_puts(b, ",\"file\":");
    uld_buf_json_str(b, fi.file);
    uld_buf_printf(b, ",\"line\":%d,\"module\":", fi.line);
    uld_buf_json_str(b, fi.module);
    uld_buf_putc(b, '}');
}

static void put_class(struct uld_buf *b, struct uld_class *c)
{
    struct uld_rlock rl = {.class_kind = (uint8_t)c->k.kind, .class_key = c->k.key,
                           .class_stack = c->base->site_stack, .subclass = (uint8_t)c->k.subclass};
    char name[ULD_NAME_MAX];
    if (c->base->name)
        uld_snprintf(rl.class_name, sizeof(rl.class_name), "%s", c->base->name);
    uld_rlock_class_name(&rl, name, sizeof(name));
    uld_buf_puts(b, "{\"type\":\"class\",\"key\":");
    put_key(b, c);
    uld_buf_puts(b, ",\"name\":");
    uld_buf_json_str(b, name);
    uld_buf_printf(b, ",\"lock_type\":\"%s\",\"site\":\"%s\",\"at\":", uld_lock_type_name(c->type),
                   uld_site_kind_name((int)c->k.kind));
    uintptr_t site = c->k.kind == ULD_SITE_INIT ? uld_init_class_site(c->k.key, c->base->site_stack)
                     : c->k.kind == ULD_SITE_FIRST_USE ? uld_class_site_frame(c->base->site_stack, 0)
                                                       : 0;
    put_frame(b, site);
    uld_buf_printf(b, ",\"max_live\":%u}\n", (unsigned)live_of(c));
}

static void put_edge(struct uld_buf *b, const struct edge_copy *e)
{
    static const char *const types[] = {"EN", "ER", "SN", "SR"};
    uld_buf_puts(b, "{\"type\":\"edge\",\"from\":");
    put_key(b, e->from);
    uld_buf_puts(b, ",\"to\":");
    put_key(b, e->to);
    uld_buf_puts(b, ",\"types\":[");
    for (int i = 0, first = 1; i < 4; i++)
        if (e->types & (1u << i)) {
            uld_buf_printf(b, "%s\"%s\"", first ? "" : ",", types[i]);
            first = 0;
        }
    uld_buf_puts(b, "],\"gates\":[");
    for (int i = 0, first = 1; i < e->ngates; i++) {
        struct class_by_id *g = class_of(e->gates[i]);
        if (!g)
            continue;
        uld_buf_puts(b, first ? "" : ",");
        put_key(b, g->cls);
        first = 0;
    }
    uld_buf_puts(b, "],\"from_acquired_at\":");
    put_frame(b, e->from_ip);
    uld_buf_puts(b, ",\"stack\":[");
    const uintptr_t *frames;
    int n = uld_stack_frames(e->stack_id, &frames);
    for (int i = 0; i < n; i++) {
        uld_buf_puts(b, i ? "," : "");
        put_frame(b, frames[i]);
    }
    uld_buf_puts(b, "]}\n");
}

/* The edges changed since the last write; graph_lock held.  *out: uld_alloc'd. */
static long changed_edges(struct edge_copy **out, long *cap)
{
    long n = 0;
    struct uld_edge *e, *tmp;
    HASH_ITER(hh, uld_class_graph.edges, e, tmp)
        n += e->types != e->dumped_types || e->ngates != e->dumped_ngates;
    *cap = n ? n : 1;
    struct edge_copy *copy = uld_alloc((size_t)*cap * sizeof(*copy));
    if (!copy)
        return -1;
    long k = 0;
    HASH_ITER(hh, uld_class_graph.edges, e, tmp)
    {
        if (e->types == e->dumped_types && e->ngates == e->dumped_ngates)
            continue;
        e->dumped_types = e->types;
        e->dumped_ngates = e->ngates;
        struct edge_copy *c = &copy[k++];
        c->from = e->from->owner;
        c->to = e->to->owner;
        c->types = e->types;
        c->ngates = e->ngates;
        memcpy(c->gates, e->gates, sizeof(c->gates));
        c->stack_id = e->stack_id;
        c->from_ip = e->from_ip;
    }
    if (uld_class_count() != class_map_count) {
        class_map_count = uld_class_count();
        uld_class_for_each(index_class, NULL);
    }
    *out = copy;
    return k;
}

/* A class line the first time this file names the class, and again when
 * it has had more live instances at once since (the reader takes the most). */
static void put_class_once(struct uld_buf *b, struct uld_class *c)
{
    struct class_by_id *e = class_of(c->node.id);
    if (!e) {
        put_class(b, c); /* not indexed (out of memory): written every time */
        return;
    }
    uint32_t live = live_of(c);
    if (e->written_live >= live)
        return;
    e->written_live = live;
    put_class(b, c);
}

static void put_record_classes(struct uld_buf *b, const struct edge_copy *e)
{
    put_class_once(b, e->from);
    put_class_once(b, e->to);
    for (int i = 0; i < e->ngates; i++) {
        struct class_by_id *g = class_of(e->gates[i]);
        if (g)
            put_class_once(b, g->cls);
    }
}

/* Append what changed; report_lock held, outside a signal handler. */
void uld_graph_dump_write(int final)
{
    int fd = dump_enabled ? uld_output_fd(ULD_OUT_GRAPH) : -1;
    unsigned long version = atomic_load(&uld_class_graph.version);
    if (fd < 0 || (version == written_version && !final))
        return;
    written_version = version;
    struct edge_copy *edges = NULL;
    long cap = 0;
    uld_mutex_lock(&uld_graph_lock);
    long n = changed_edges(&edges, &cap);
    uld_mutex_unlock(&uld_graph_lock);
    struct uld_buf b;
    uld_buf_init(&b, line_mem, sizeof(line_mem), fd);
    for (long i = 0; i < n; i++) {
        put_record_classes(&b, &edges[i]);
        put_edge(&b, &edges[i]);
        uld_buf_flush(&b); /* whole lines, as soon as they are known */
    }
    if (edges)
        uld_free(edges, (size_t)cap * sizeof(*edges));
    if (final) {
        struct class_by_id *c, *tmp;
        HASH_ITER(hh, class_map, c, tmp)
            if (c->written_live)
                put_class_once(&b, c->cls);
        uld_buf_printf(&b, "{\"type\":\"end\",\"pid\":%d,\"edges\":%ld}\n", (int)getpid(),
                       uld_class_graph.nedges);
        uld_buf_flush(&b);
        dump_enabled = 0; /* once */
    }
}

int uld_graph_dump_due(void)
{
    return dump_enabled && atomic_load(&uld_class_graph.version) != written_version;
}

static void put_header(int fd)
{
    struct uld_buf b;
    char exe[512] = {0};
    if (readlink("/proc/self/exe", exe, sizeof(exe) - 1) < 0)
        exe[0] = '\0';
    uld_buf_init(&b, line_mem, sizeof(line_mem), fd);
    uld_buf_printf(&b, "{\"type\":\"ulockdep-graph\",\"version\":1,\"pid\":%d,\"program\":",
                   (int)getpid());
    uld_buf_json_str(&b, exe);
    uld_buf_puts(&b, ",\"incremental\":true}\n");
    uld_buf_flush(&b);
}

/* Create this process's file now, while the program still lets us. */
static void open_dump(int child)
{
    char path[ULD_PATH_MAX + 32];
    uld_config_expand_path(uld_config.graph_path, path, sizeof(path));
    if ((child ? uld_output_reopen(ULD_OUT_GRAPH, path) : uld_output_open(ULD_OUT_GRAPH, path)) <
        0) {
        uld_output_open_failed("graph_path", path, errno, "no graph written");
        return;
    }
    int fd = uld_output_fd(ULD_OUT_GRAPH); /* created now, unlike the report files */
    if (fd < 0)
        return; /* said once by output.c */
    if (ftruncate(fd, 0) != 0) { /* a file left by an earlier run, or by our pre-exec self */
        /* not a regular file (a FIFO, /dev/null): append as it is */
    }
    put_header(fd);
    dump_enabled = 1;
}

void uld_graph_dump_open(void)
{
    if (uld_config.graph_path[0])
        open_dump(0);
}

/*
 * A fork child writes its own file (when graph_path has %p; else the file
 * is the parent's and the child writes none), and all of its graph: the
 * edges it inherited are part of what this process can deadlock on.
 */
void uld_graph_dump_after_fork_child(void)
{
    struct class_by_id *c, *tmp;
    HASH_ITER(hh, class_map, c, tmp)
        c->written_live = 0;
    struct uld_edge *e, *etmp;
    HASH_ITER(hh, uld_class_graph.edges, e, etmp)
        e->dumped_types = 0;
    written_version = 0;
    dump_enabled = 0;
    if (uld_config.graph_path[0] && strstr(uld_config.graph_path, "%p"))
        open_dump(1);
}

/* At exit: the rest, then the final record. */
void uld_graph_dump(void)
{
    if (!dump_enabled)
        return;
    uld_report_lock_for_fork(1); /* report_lock: symbolisation, dump state */
    uld_graph_dump_write(1);
    uld_report_lock_for_fork(0);
}
