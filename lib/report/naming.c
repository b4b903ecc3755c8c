/*
 * naming.c - what reports, dumps and suppressions call a lock and a class,
 * and the stable keys and signatures that identify them across processes,
 * rebuilds and binaries (docs/reports.md, "Lock and class names").
 *
 * Everything here symbolises, so it runs at report or dump time only, never
 * when a lock is taken; callers hold the report lock (or are the exit-time
 * dump), which also protects the caches below.
 */
#include "symbolize.h"
#include "base/config.h"
#include "model/lock.h"
#include "model/modules.h"
#include "report.h"
#include "model/stack.h"
#include "base/uthash_arena.h"

const char *uld_lock_type_name(int type)
{
    static const char *const names[] = {"mutex", "rwlock", "spinlock", "lock", "condvar",
                                        "semaphore", "thread", "barrier", "once"};
    return type >= 0 && type < (int)ULD_ARRAY_SIZE(names) ? names[type] : "lock";
}

const char *uld_site_kind_name(int kind)
{
    static const char *const names[] = {"static", "init", "first-use", "annotation"};
    return kind >= 0 && kind < 4 ? names[kind] : "unknown";
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* "<module file name>+0x<offset>", else the bare address (not in any object). */
static void module_offset_name(uintptr_t addr, char sep, struct uld_buf *b)
{
    const char *path;
    uintptr_t off;
    if (uld_module_of(addr, &path, &off))
        uld_buf_printf(b, "%s%c0x%lx", base_name(path), sep, (unsigned long)off);
    else
        uld_buf_printf(b, "%p", (void *)uld_addr_real(addr));
}

/* ---- stable keys --------------------------------------------------------- */

/*
 * A call site that survives rebuilding: "function@file:+N", N counting lines
 * from the function's first line, so an edit elsewhere in the file, another
 * -O level or another build directory leaves it alone while two sites of one
 * function stay apart.  Without line information "function+0xOFF@module",
 * without a symbol "module@0xOFF": both change when the module is rebuilt.
 */
static void site_key(uintptr_t ip, struct uld_buf *b)
{
    struct uld_frame_info fi;
    uld_symbolize(ip, 1, &fi);
    if (fi.function && fi.file && fi.line) {
        int first = uld_symbolize_decl_line(ip, 1);
        if (first > 0 && first <= fi.line)
            uld_buf_printf(b, "%s@%s:+%d", fi.function, base_name(fi.file), fi.line - first);
        else
            uld_buf_printf(b, "%s@%s:%d", fi.function, base_name(fi.file), fi.line);
    } else if (fi.function && fi.module) {
        uld_buf_printf(b, "%s+0x%lx@%s", fi.function, (unsigned long)fi.fn_offset,
                       base_name(fi.module));
    } else {
        module_offset_name(ip, '@', b);
    }
}

/* A static object: its symbol, with its source file when the symbol is file-local. */
static void static_key(uintptr_t addr, struct uld_buf *b)
{
    const char *sym, *file = NULL;
    uintptr_t off;
    int local = 0;
    if (!uld_symbolize_data(addr, &sym, &off)) {
        module_offset_name(addr, '@', b);
        return;
    }
    uld_buf_puts(b, sym);
    if (off)
        uld_buf_printf(b, "+0x%lx", (unsigned long)off);
    if (uld_symbolize_data_scope(addr, &local, &file) && local)
        uld_buf_printf(b, "@%s", file ? base_name(file) : "?");
}

struct name_owner {
    uint64_t hash;
    uintptr_t key;
    uint32_t stack, kind;
    UT_hash_handle hh;
};

struct key_cache {
    struct { uintptr_t key; uint32_t stack, kind; } id;
    char *text;
    UT_hash_handle hh;
};
static struct key_cache *keys;
static struct name_owner *owners;
static unsigned unloads_seen;

/* Names computed for addresses of a module unloaded since: a module mapped
 * there now has names of its own (the classes of the unloaded one were
 * rekeyed, modules.c, and are named again from their file). */
static void catch_up_unloads(void)
{
    unsigned n = uld_unloaded_count();
    for (; unloads_seen < n; unloads_seen++) {
        const struct uld_unloaded *u = uld_unloaded_get(unloads_seen);
        struct key_cache *c, *ctmp;
        HASH_ITER(hh, keys, c, ctmp)
            if (c->id.key >= u->lo && c->id.key < u->hi) {
                HASH_DEL(keys, c);
                uld_free(c->text, strlen(c->text) + 1);
                uld_free(c, sizeof(*c));
            }
        struct name_owner *o, *otmp;
        HASH_ITER(hh, owners, o, otmp)
            if (o->key >= u->lo && o->key < u->hi) {
                HASH_DEL(owners, o);
                uld_free(o, sizeof(*o));
            }
    }
}

static void class_key_text(int kind, uintptr_t key, uint32_t site_stack, struct uld_buf *b)
{
    const uintptr_t *f;
    int n = uld_stack_frames(site_stack, &f);
    if (kind == ULD_SITE_INIT && uld_key_is_chain(key) && n > 0) {
        for (int i = 0; i < n; i++) { /* a helper chain without names: site<caller<... */
            if (i)
                uld_buf_putc(b, '<');
            site_key(f[i], b);
        }
    } else if (kind == ULD_SITE_INIT) {
        site_key(key, b);
    } else if (kind == ULD_SITE_FIRST_USE && n >= 2) {
        site_key(f[0], b); /* the site (outside lock wrappers) and its caller */
        uld_buf_putc(b, '<');
        site_key(f[1], b);
    } else if (kind == ULD_SITE_FIRST_USE && n == 1) {
        site_key(f[0], b);
    } else if (kind == ULD_SITE_STATIC || kind == ULD_SITE_ANNOTATION) {
        static_key(key, b);
    } else {
        module_offset_name(key, '@', b);
    }
}

void uld_class_stable_key(int kind, uintptr_t key, uint32_t site_stack, unsigned subclass,
                          char *out, size_t n)
{
    struct key_cache *c, id;
    catch_up_unloads();
    memset(&id.id, 0, sizeof(id.id));
    id.id.key = key;
    id.id.stack = site_stack;
    id.id.kind = (uint32_t)kind;
    HASH_FIND(hh, keys, &id.id, sizeof(id.id), c);
    if (!c) {
        char text[ULD_NAME_MAX];
        struct uld_buf b;
        uld_buf_init(&b, text, sizeof(text), -1);
        class_key_text(kind, key, site_stack, &b);
        uld_buf_cstr(&b);
        if ((c = uld_alloc(sizeof(*c))) && (c->text = uld_strdup(text))) {
            c->id = id.id;
            HASH_ADD(hh, keys, id, sizeof(c->id), c);
        } else {
            uld_snprintf(out, n, "%s", text);
            c = NULL;
        }
    }
    if (c)
        uld_snprintf(out, n, "%s", c->text);
    if (subclass) {
        size_t len = strlen(out);
        uld_snprintf(out + len, n - len, "/%u", subclass);
    }
}

static uint64_t fnv(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return (h ^ 0xff) * 0x100000001b3ull; /* separator */
}

uintptr_t uld_report_site_frame(const uintptr_t *frames, int i)
{
    return i < 2 ? frames[i] : uld_function_of(frames[i]);
}

/* A cycle edge, stably: its ends' class keys and its site's innermost frames. */
static uint64_t step_signature(const struct uld_report *r, const struct uld_rstep *s)
{
    static char key[ULD_NAME_MAX]; /* report lock held */
    const uintptr_t *f;
    uint64_t h = 0xcbf29ce484222325ull;
    for (int end = 0; end < 2; end++) {
        const struct uld_rlock *l = &r->locks[end ? s->to : s->from];
        uld_class_stable_key(l->class_kind, l->class_key, l->class_stack, l->subclass, key,
                             sizeof(key));
        h = fnv(h, key);
    }
    int nf = uld_stack_frames(s->stack_id, &f);
    for (int i = 0; i < nf && i < ULD_R_SITE_FRAMES; i++) {
        struct uld_buf b;
        uld_buf_init(&b, key, sizeof(key), -1);
        site_key(uld_report_site_frame(f, i), &b);
        h = fnv(h, uld_buf_cstr(&b));
    }
    return h;
}

/* Instance cycles: the sorted edge signatures, so two different cycles among
 * locks of the same classes are two problems (the in-process dedup agrees). */
static uint64_t cycle_signature(const struct uld_report *r, uint64_t h)
{
    uint64_t steps[ULD_R_MAX_LOCKS];
    int n = 0;
    for (int i = 0; i < r->nsteps; i++) {
        uint64_t v = step_signature(r, &r->steps[i]);
        int j = n++;
        for (; j > 0 && steps[j - 1] > v; j--)
            steps[j] = steps[j - 1];
        steps[j] = v;
    }
    for (int i = 0; i < n; i++)
        h = (h ^ steps[i]) * 0x100000001b3ull;
    return h;
}

/* Kind + the stable keys of its classes (sorted) + the site for one-lock kinds
 * + the edges of an instance cycle. */
void uld_report_signature(const struct uld_report *r, char *out, size_t n)
{
    static char keys_of[ULD_R_MAX_LOCKS][ULD_NAME_MAX]; /* report lock held */
    int k = 0;
    for (int i = 0; i < r->nlocks; i++) {
        const struct uld_rlock *l = &r->locks[i];
        if (l->context)
            continue;
        uld_class_stable_key(l->class_kind, l->class_key, l->class_stack, l->subclass,
                             keys_of[k], sizeof(keys_of[0]));
        int dup = 0;
        for (int j = 0; j < k; j++)
            dup |= !strcmp(keys_of[j], keys_of[k]);
        k += !dup;
    }
    uint64_t h = fnv(0xcbf29ce484222325ull, uld_report_kind_name(r->kind));
    for (int done = 0; done < k; done++) { /* in sorted order: the order must not matter */
        int min = -1;
        for (int i = 0; i < k; i++)
            if (keys_of[i][0] && (min < 0 || strcmp(keys_of[i], keys_of[min]) < 0))
                min = i;
        h = fnv(h, keys_of[min]);
        keys_of[min][0] = '\0';
    }
    if (r->nsteps == 0 && r->ip) {
        char site[ULD_NAME_MAX];
        struct uld_buf b;
        uld_buf_init(&b, site, sizeof(site), -1);
        site_key(r->ip, &b);
        h = fnv(h, uld_buf_cstr(&b));
    }
    if (r->kind == ULD_R_LOCK_ORDER || r->kind == ULD_R_WAIT_FOR)
        h = cycle_signature(r, h);
    uld_snprintf(out, n, "%lx", (unsigned long)h);
}

/* ---- names --------------------------------------------------------------- */

/* "function:line", else "function+0xOFF", else "module+0xOFF", else the address. */
static void site_name(uintptr_t ip, char *out, size_t n)
{
    struct uld_frame_info fi;
    uld_symbolize(ip, 1, &fi);
    if (fi.function && fi.line)
        uld_snprintf(out, n, "%s:%d", fi.function, fi.line);
    else if (fi.function)
        uld_snprintf(out, n, "%s+0x%lx", fi.function, (unsigned long)fi.fn_offset);
    else if (fi.module)
        uld_snprintf(out, n, "%s+0x%lx", base_name(fi.module), (unsigned long)fi.module_offset);
    else
        uld_snprintf(out, n, "%p", (void *)uld_addr_real(ip));
}

/* A static object: its symbol (+0xOFF inside it), else module+0xOFF, never a runtime address. */
static void static_name(uintptr_t addr, char *out, size_t n)
{
    const char *sym;
    uintptr_t off;
    struct uld_buf b;
    uld_buf_init(&b, out, n, -1);
    if (!uld_symbolize_data(addr, &sym, &off))
        module_offset_name(addr, '+', &b);
    else if (off)
        uld_buf_printf(&b, "%s+0x%lx", sym, (unsigned long)off);
    else
        uld_buf_puts(&b, sym);
    uld_buf_cstr(&b);
}

/* A chain key's frames end at the first caller with a name or in another
 * module; the class is named by the outermost frame of the site's own
 * module, since a caller elsewhere may say nothing (a thread's start). */
uintptr_t uld_init_class_site(uintptr_t key, uint32_t site_stack)
{
    const uintptr_t *f;
    const char *home, *path;
    uintptr_t off;
    int n = uld_stack_frames(site_stack, &f);
    if (!uld_key_is_chain(key) || n <= 0)
        return key;
    if (n == 1 || !uld_module_of(f[0], &home, &off))
        return f[n - 1];
    for (int i = n - 1; i > 0; i--)
        if (uld_module_of(f[i], &path, &off) && !strcmp(path, home))
            return f[i];
    return f[0];
}

/* Frames of lock wrappers (std::mutex::lock, lock_guard, gthread) do not name a class. */
static int is_wrapper_frame(const struct uld_frame_info *fi)
{
    if (!fi->function)
        return 0;
    const char *paren = strchr(fi->function, '(');
    const char *std = strstr(fi->function, "std::");
    return (std && (!paren || std < paren)) || !strncmp(fi->function, "__gthread", 9) ||
           !strncmp(fi->function, "__gnu_cxx", 9);
}

uintptr_t uld_class_site_frame(uint32_t site_stack, uintptr_t fallback)
{
    const uintptr_t *f;
    int n = uld_stack_frames(site_stack, &f);
    for (int i = 0; i < n; i++) {
        struct uld_frame_info fi;
        uld_symbolize(f[i], 1, &fi);
        if (!is_wrapper_frame(&fi))
            return f[i];
    }
    return n ? f[0] : fallback;
}

/*
 * Names handed out so far: a name belongs to one class.  Two classes whose
 * sites print alike (two first-use classes of one site reached from two
 * callers, one line holding two init calls) would be indistinguishable in
 * a report and in a suppression; the second one gets its stable key too.
 */

static int name_taken_by_other(const char *name, const struct uld_rlock *l)
{
    uint64_t h = fnv(0xcbf29ce484222325ull, name);
    struct name_owner *o;
    HASH_FIND(hh, owners, &h, sizeof(h), o);
    if (!o && (o = uld_alloc(sizeof(*o)))) {
        o->hash = h;
        o->key = l->class_key;
        o->stack = l->class_kind == ULD_SITE_FIRST_USE ? l->class_stack : 0;
        o->kind = l->class_kind;
        HASH_ADD(hh, owners, hash, sizeof(o->hash), o);
        return 0;
    }
    return o && (o->key != l->class_key || o->kind != l->class_kind ||
                 (l->class_kind == ULD_SITE_FIRST_USE && o->stack != l->class_stack));
}

static void class_base_name(const struct uld_rlock *l, char *out, size_t n)
{
    catch_up_unloads();
    if (l->class_name[0]) {
        uld_snprintf(out, n, "%s", l->class_name);
        return;
    }
    if (l->class_kind == ULD_SITE_STATIC)
        static_name(l->class_key, out, n);
    else if (l->class_kind == ULD_SITE_FIRST_USE)
        site_name(uld_class_site_frame(l->class_stack, l->site_ip), out, n);
    else /* init: the site outside lock wrappers, or the first named caller of its chain */
        site_name(uld_init_class_site(l->class_key, l->class_stack), out, n);
    if (name_taken_by_other(out, l)) {
        size_t len = strlen(out);
        uld_snprintf(out + len, n - len, " [");
        len = strlen(out);
        uld_class_stable_key(l->class_kind, l->class_key, l->class_stack, 0, out + len, n - len);
        len = strlen(out);
        uld_snprintf(out + len, n - len, "]");
    }
}

void uld_rlock_class_name(const struct uld_rlock *l, char *out, size_t n)
{
    class_base_name(l, out, n);
    if (l->subclass) {
        size_t len = strlen(out);
        uld_snprintf(out + len, n - len, "/%u", (unsigned)l->subclass);
    }
}

void uld_rlock_name(const struct uld_rlock *l, char *out, size_t n)
{
    catch_up_unloads();
    if (l->name[0]) {
        uld_snprintf(out, n, "%s", l->name);
    } else if (l->is_static) {
        static_name(l->addr, out, n);
    } else {
        class_base_name(l, out, n);
        if (l->ordinal) {
            size_t len = strlen(out);
            uld_snprintf(out + len, n - len, "#%u", l->ordinal);
        }
    }
    if (l->subclass) {
        size_t len = strlen(out);
        uld_snprintf(out + len, n - len, "/%u", (unsigned)l->subclass);
    }
}
