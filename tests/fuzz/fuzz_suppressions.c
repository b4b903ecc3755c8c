/*
 * fuzz_suppressions.c - libFuzzer target for the suppression-file parser
 * and matcher shared by the library and the `ulockdep report` tool.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/suppress.h"

static int known(const char *kind)
{
    return !strcmp(kind, "lock-order-inversion") || !strcmp(kind, "self-deadlock");
}

static void ignore(const char *file, int line, const char *why)
{
    (void)file;
    (void)line;
    (void)why;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    struct uld_suppression *list = uld_supp_parse_n("fuzz", text, size, known, ignore);
    const char *strings[] = {"lock_a", "main", "/src/file.c", "", text};
    uld_supp_match(list, "lock-order-inversion", strings, 5);
    for (struct uld_suppression *s = list; s; s = s->next)
        uld_glob_match(s->pattern, text); /* patterns against arbitrary text */
    uld_supp_free(list);
    free(text);
    return 0;
}
