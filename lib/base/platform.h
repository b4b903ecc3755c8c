/*
 * platform.h - what the validator needs from the interposer: real
 * functions, never the wrappers (uld_set_platform in hooks.h fills it).
 */
#ifndef ULD_PLATFORM_H
#define ULD_PLATFORM_H

struct sigaction;
struct uld_platform {
    int (*spawn_thread)(void *(*fn)(void *), void *arg);
    int (*sigaction)(int sig, const struct sigaction *act, struct sigaction *old);
};

#endif
