/*
 * forkset.h - the locks other threads held at fork (forkset.c).
 */
#ifndef ULD_FORKSET_H
#define ULD_FORKSET_H

#include "base/internal.h"

void uld_forkset_clear(void) ULD_HIDDEN;           /* prepare step, before filling */
void uld_forkset_add(uintptr_t addr) ULD_HIDDEN;   /* prepare step */
int uld_forkset_has(uintptr_t addr) ULD_HIDDEN;    /* child */
int uld_forkset_remove(uintptr_t addr) ULD_HIDDEN; /* child: 1 if it was there */
int uld_forkset_count(void) ULD_HIDDEN;

#endif
