/*
 * longjmp.c - jumps out of signal handlers.  A handler that leaves with
 * siglongjmp()/longjmp() never returns through the trampoline, so each jump
 * tells the validator where it lands: every handler whose frame lies below
 * the target has ended (and the mask sigsetjmp saved is back, if it saved
 * one).  The target is the stack pointer saved in the jmp_buf, which glibc
 * stores mangled with the thread's pointer guard; the decoding is checked
 * once on a jmp_buf of our own, and without it handlers are never ended
 * early (the validator then keeps its old view, as before).
 */
#undef _FORTIFY_SOURCE /* it would rename longjmp to __longjmp_chk */
#include "real.h"
#include "signals.h"

#include "../lib/hooks.h"

#include <errno.h>
#include <stdatomic.h>

typedef void jump_fn(struct __jmp_buf_tag *env, int val);

/* glibc x86_64: __jmpbuf[6] is the stack pointer, PTR_MANGLEd (xor guard, rol 17). */
static uintptr_t saved_sp(const struct __jmp_buf_tag *env)
{
#if defined(__x86_64__)
    uintptr_t guard, v = (uintptr_t)env->__jmpbuf[6];
    __asm__("mov %%fs:0x30, %0" : "=r"(guard));
    return ((v >> 17) | (v << 47)) ^ guard;
#else
    (void)env;
    return 0;
#endif
}

/* Does saved_sp() decode a jmp_buf of this glibc?  Asked once; async-signal-safe. */
static __attribute__((noinline)) int decoding_works(void)
{
    static _Atomic int state; /* 0 unknown, 1 yes, -1 no */
    int s = atomic_load(&state);
    if (s)
        return s > 0;
    jmp_buf probe;
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    if (_setjmp(probe))
        return 0; /* nothing jumps to it */
    uintptr_t sp = saved_sp(probe);
    s = sp && sp <= here && here - sp < 4096 ? 1 : -1;
    atomic_store(&state, s);
    return s > 0;
}

static __attribute__((noreturn)) void jump(jump_fn *real, struct __jmp_buf_tag *env, int val)
{
    uld_preload_ensure();
    int e = errno;
    uld_signal_jump(decoding_works() ? saved_sp(env) : 0, env->__mask_was_saved,
                    uld_mask64(&env->__saved_mask));
    errno = e;
    real(env, val);
    __builtin_unreachable(); /* every jump_fn is a longjmp */
}

ULD_WRAPPER void longjmp(struct __jmp_buf_tag env[1], int val)
{
    jump(REAL(longjmp), env, val);
}

ULD_WRAPPER void _longjmp(struct __jmp_buf_tag env[1], int val)
{
    jump(REAL(_longjmp), env, val);
}

ULD_WRAPPER void siglongjmp(sigjmp_buf env, int val)
{
    jump(REAL(siglongjmp), env, val);
}

ULD_WRAPPER void __longjmp_chk(sigjmp_buf env, int val)
{
    jump(REAL(__longjmp_chk), env, val);
}
