/* uthash wired to the validator's allocator: tables never call malloc. */
#ifndef ULD_UTHASH_ARENA_H
#define ULD_UTHASH_ARENA_H
#include "internal.h"
#define uthash_malloc(sz) uld_alloc(sz)
#define uthash_free(ptr, sz) uld_free((ptr), (sz))
#define HASH_NONFATAL_OOM 1
#include <uthash.h>
#endif
