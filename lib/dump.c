/*
 * dump.c - the lock-class graph written at exit (graph_path=FILE), for
 * `ulockdep graph` and `ulockdep merge` (format: docs/reports.md).  Edges
 * are copied under graph_lock, then named and written without it, since
 * symbolisation may allocate.
 */
#include "config.h"
#include "output.h"
#include "core.h"
#include "report.h"
#include "stack.h"
#include "uthash_arena.h"

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

struct class_by_id {
    uint32_t id;
    struct uld_class *cls;
    UT_hash_handle hh;
};

static void index_class(struct uld_class *c, void *arg)
{
    struct class_by_id **map = arg, *e = uld_alloc(sizeof(*e));
    if (!e)
        return;
    e->id = c->node.id;
    e->cls = c;
    HASH_ADD(hh, *map, id, sizeof(e->id), e);
}

static struct uld_class *class_of(struct class_by_id *map, uint32_t id)
{
    struct class_by_id *e;
    HASH_FIND(hh, map, &id, sizeof(id), e);
    return e ? e->cls : NULL;
}

static void put_key(struct uld_buf *b, const struct uld_class *c)
{
    char key[128];
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
    uld_buf_printf(b, "{\"address\":\"%p\",\"function\":", (void *)addr);
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
    char name[128];
    if (c->base->name)
        uld_snprintf(rl.class_name, sizeof(rl.class_name), "%s", c->base->name);
    uld_rlock_class_name(&rl, name, sizeof(name));
    uld_buf_puts(b, "{\"type\":\"class\",\"key\":");
    put_key(b, c);
    uld_buf_puts(b, ",\"name\":");
    uld_buf_json_str(b, name);
    uld_buf_printf(b, ",\"lock_type\":\"%s\",\"site\":\"%s\",\"at\":", uld_lock_type_name(c->type),
                   uld_site_kind_name((int)c->k.kind));
    uintptr_t site = c->k.kind == ULD_SITE_INIT        ? c->k.key
                     : c->k.kind == ULD_SITE_FIRST_USE ? uld_class_site_frame(c->base->site_stack, 0)
                                                       : 0;
    put_frame(b, site);
    uld_buf_puts(b, "}\n");
}

static void put_edge(struct uld_buf *b, const struct edge_copy *e, struct class_by_id *map)
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
        struct uld_class *g = class_of(map, e->gates[i]);
        if (!g)
            continue;
        uld_buf_puts(b, first ? "" : ",");
        put_key(b, g);
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

/* Copy the class edges and index the classes; graph_lock held. */
static long snapshot(struct edge_copy **out, struct class_by_id **map)
{
    long n = uld_class_graph.nedges, k = 0;
    struct edge_copy *copy = uld_alloc((size_t)(n ? n : 1) * sizeof(*copy));
    struct uld_edge *e, *tmp;
    if (!copy)
        return -1;
    HASH_ITER(hh, uld_class_graph.edges, e, tmp)
    {
        struct edge_copy *c = &copy[k++];
        c->from = e->from->owner;
        c->to = e->to->owner;
        c->types = e->types;
        c->ngates = e->ngates;
        memcpy(c->gates, e->gates, sizeof(c->gates));
        c->stack_id = e->stack_id;
        c->from_ip = e->from_ip;
    }
    uld_class_for_each(index_class, map);
    *out = copy;
    return k;
}

void uld_graph_dump(void)
{
    if (!uld_config.graph_path[0])
        return;
    char path[ULD_PATH_MAX + 32];
    uld_config_expand_path(uld_config.graph_path, path, sizeof(path));
    int fd = uld_output_create(path, 1);
    if (fd < 0) {
        uld_output_open_failed("graph_path", path, errno, "no graph written");
        return;
    }
    struct edge_copy *edges = NULL;
    struct class_by_id *map = NULL, *c, *tmp;
    uld_mutex_lock(&uld_graph_lock);
    long n = snapshot(&edges, &map);
    uld_mutex_unlock(&uld_graph_lock);
    static char mem[1 << 16];
    struct uld_buf b;
    uld_buf_init(&b, mem, sizeof(mem), fd);
    char exe[512] = {0};
    if (readlink("/proc/self/exe", exe, sizeof(exe) - 1) < 0)
        exe[0] = '\0';
    uld_buf_printf(&b, "{\"type\":\"ulockdep-graph\",\"version\":1,\"pid\":%d,\"program\":",
                   (int)getpid());
    uld_buf_json_str(&b, exe);
    uld_buf_puts(&b, "}\n");
    HASH_ITER(hh, map, c, tmp)
        put_class(&b, c->cls);
    for (long i = 0; i < n; i++)
        put_edge(&b, &edges[i], map);
    uld_buf_flush(&b);
    close(fd);
    HASH_ITER(hh, map, c, tmp) {
        HASH_DEL(map, c);
        uld_free(c, sizeof(*c));
    }
    uld_free(edges, (size_t)(n > 0 ? n : 1) * sizeof(*edges));
}
