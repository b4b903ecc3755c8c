/*
 * kinds.h - report kinds known to the tools: name, default severity and
 * the descriptions SARIF rules carry.  Read-only.
 */
#ifndef ULD_TOOL_KINDS_H
#define ULD_TOOL_KINDS_H

struct kind_info {
    const char *name;     /* "lock-order-inversion" */
    const char *severity; /* "error" or "warning" */
    const char *title;    /* short description */
    const char *help;     /* full description */
};

const struct kind_info *kind_find(const char *name); /* NULL when unknown */
int kind_is_known(const char *name);

#endif
