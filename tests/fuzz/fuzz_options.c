/*
 * fuzz_options.c - libFuzzer target for the ULOCKDEP_OPTIONS parser.  Any
 * input must parse without crashing, leave every option within its bounds,
 * and report each problem as one line (checked by the parser's own design:
 * errors go through uld_warn).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *opts = malloc(size + 1);
    if (!opts)
        return 0;
    memcpy(opts, data, size);
    opts[size] = '\0';
    uld_config_parse(opts);
    /* invariants every later reader relies on */
    if (uld_config.exitcode < 0 || uld_config.exitcode > 255 || uld_config.max_frames < 1 ||
        uld_config.max_frames > ULD_MAX_FRAMES || uld_config.chain_cache_bits < 10 ||
        uld_config.chain_cache_bits > 26 ||
        memchr(uld_config.log_path, '\0', sizeof(uld_config.log_path)) == NULL)
        abort();
    free(opts);
    return 0;
}
