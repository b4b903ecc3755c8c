/*
 * modules.h - modules unloaded by dlclose (modules.c).
 *
 * An unload ends the identity of what lived in the module: its static locks
 * and its classes (keyed by addresses in it) must not pass to whatever the
 * loader maps there next.  Stored code and data addresses in the module (the
 * stack depot's frames, class keys) are rewritten as *unloaded addresses*:
 * bit 62 set, the unload record's index in bits 47..61, the original address
 * below.  No mapped address looks like that (user space ends below 2^47, and
 * first-use class keys have bit 63 set), so nothing the new module records
 * can match them, and the symboliser names them from the unloaded file.
 */
#ifndef ULD_MODULES_H
#define ULD_MODULES_H

#include "base/internal.h"

#define ULD_UNLOADED_BIT (1ull << 62)
#define ULD_ADDR_BITS 47
#define ULD_MAX_UNLOADED 32767 /* 15 bits of index */

static inline int uld_addr_is_unloaded(uintptr_t a)
{
    return (a >> 62) == 1;
}

/* The address as it was while its module was mapped. */
static inline uintptr_t uld_addr_real(uintptr_t a)
{
    return uld_addr_is_unloaded(a) ? a & ((1ull << ULD_ADDR_BITS) - 1) : a;
}

static inline unsigned uld_addr_unload_index(uintptr_t a)
{
    return (unsigned)((a >> ULD_ADDR_BITS) & ULD_MAX_UNLOADED);
}

static inline uintptr_t uld_addr_mark_unloaded(uintptr_t a, unsigned index)
{
    return ULD_UNLOADED_BIT | ((uintptr_t)index << ULD_ADDR_BITS) | a;
}

/* One unloaded module, immutable once published. */
struct uld_unloaded {
    uintptr_t lo, hi; /* its PT_LOAD segments: [lo, hi) */
    uintptr_t base;   /* load bias (dlpi_addr) */
    char *path;
    uint8_t build_id[32];
    int build_id_len; /* 0: none */
};

/* Published records (lock-free reads: count with acquire, then get). */
/* The span of a loaded object's PT_LOAD segments; 0, 0 when it has none. */
struct dl_phdr_info;
void uld_module_extent(const struct dl_phdr_info *info, uintptr_t *lo, uintptr_t *hi) ULD_HIDDEN;

unsigned uld_unloaded_count(void) ULD_HIDDEN;
const struct uld_unloaded *uld_unloaded_get(unsigned index) ULD_HIDDEN;
/* The newest record whose range holds the bare address a, else NULL. */
const struct uld_unloaded *uld_unloaded_covering(uintptr_t a) ULD_HIDDEN;
/* A class key (an address in a loaded module) as it was keyed in an earlier
 * load of the same file (same path and build id), newest first: calls fn
 * with each candidate until it returns nonzero.  graph_lock held. */
int uld_unloaded_earlier_keys(uintptr_t key, int (*fn)(uintptr_t old_key, void *), void *arg)
    ULD_HIDDEN;

/*
 * Around a dlclose (lifetime.c): the loaded objects before it, then, under
 * graph_lock, the identities of those it unmapped are retired.
 */
struct uld_modset;
struct uld_modset *uld_modset_take(void) ULD_HIDDEN;
void uld_modset_retire_gone(struct uld_modset *s) ULD_HIDDEN;
void uld_modset_free(struct uld_modset *s) ULD_HIDDEN;

/* Retiring what lived in [lo, hi) at an unload (graph_lock held). */
void uld_class_retire_range(uintptr_t lo, uintptr_t hi, unsigned index) ULD_HIDDEN;
void uld_stack_retire_range(uintptr_t lo, uintptr_t hi, unsigned index) ULD_HIDDEN;
void uld_wrappers_forget_range(uintptr_t lo, uintptr_t hi) ULD_HIDDEN;

#endif
