/* sym_lib.h - the test libraries of tests/symbols (see sym_lib.c). */
#ifndef SYM_LIB_H
#define SYM_LIB_H

#include <pthread.h>

/* A type the program and the library both describe in their debug info:
 * what dwz moves into a shared .gnu_debugaltlink file. */
struct sym_shared {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    pthread_attr_t attr;
    pthread_rwlock_t rwlock;
    long counters[4];
    const char *name;
};
extern struct sym_shared sym_shared_state;

/* libsym_dbg.so: calls fn(arg) at line sym_lib_call_line of sym_lib.c. */
extern const int sym_lib_call_line;
void *sym_lib_call(void *(*fn)(void *), void *arg);
/* libsym_nodebug.so: calls fn(arg); no debug info, no symbol table but .dynsym. */
void *sym_nodebug_call(void *(*fn)(void *), void *arg);

#endif
