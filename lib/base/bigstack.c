/*
 * bigstack.c - run the validator's heavy work on a stack of its own.
 *
 * The program chose its stack sizes for its own code: threads with 64 KiB
 * stacks, handlers on an 8 KiB sigaltstack.  The validator's slow path
 * (cycle search, stack capture) and above all report building (libdw reads
 * line tables with ~150 KiB of stack) do not fit there.  So that work runs
 * on one of a few 1 MiB stacks, mapped once at init (never in a handler),
 * each with a PROT_NONE guard page.  A stack is claimed with an atomic flag,
 * so a nested or concurrent call that finds none free simply runs in place;
 * callers normally hold graph_lock or the report lock, so one is enough.
 *
 * The switch is a few instructions of x86_64 assembly rather than
 * swapcontext: no sigprocmask syscalls, and its CFI describes the frame
 * through %rbp, so unwinders (libunwind capturing a lock's stack, gdb)
 * walk from the big stack back into the program's frames.  Elsewhere the
 * work runs in place.
 */
#include "internal.h"

#include <sys/mman.h>

#define BIG_STACKS 4
#define BIG_STACK_SIZE (1u << 20)
#define GUARD_SIZE 4096

struct bigstack {
    char *lo, *hi; /* usable range; the guard page is below lo */
    _Atomic int busy;
};

static struct bigstack stacks[BIG_STACKS];

#if defined(__x86_64__)
/* switch_call(arg, fn, top): fn(arg) with %rsp = top (16-byte aligned). */
void uld_bigstack_switch_call(void *arg, void (*fn)(void *), char *top) ULD_HIDDEN;
__asm__(".text\n"
        ".globl uld_bigstack_switch_call\n"
        ".hidden uld_bigstack_switch_call\n"
        ".type uld_bigstack_switch_call, @function\n"
        ".p2align 4\n"
        "uld_bigstack_switch_call:\n"
        ".cfi_startproc\n"
        "    pushq %rbp\n"
        ".cfi_def_cfa_offset 16\n"
        ".cfi_offset %rbp, -16\n"
        "    movq %rsp, %rbp\n"
        ".cfi_def_cfa_register %rbp\n"
        "    movq %rdx, %rsp\n"
        "    callq *%rsi\n"
        "    movq %rbp, %rsp\n"
        ".cfi_def_cfa_register %rsp\n"
        "    popq %rbp\n"
        ".cfi_def_cfa_offset 8\n"
        "    retq\n"
        ".cfi_endproc\n"
        ".size uld_bigstack_switch_call, .-uld_bigstack_switch_call\n");
#define HAVE_SWITCH 1
#else
#define HAVE_SWITCH 0
#endif

void uld_bigstack_init(void)
{
    if (!HAVE_SWITCH || stacks[0].lo)
        return;
    size_t one = GUARD_SIZE + BIG_STACK_SIZE;
    char *p = uld_map(one * BIG_STACKS);
    if (!p)
        return; /* everything runs in place */
    for (int i = 0; i < BIG_STACKS; i++) {
        char *base = p + (size_t)i * one;
        if (mprotect(base, GUARD_SIZE, PROT_NONE) != 0)
            continue; /* no guard, no use: an overflow must not be silent */
        stacks[i].hi = base + one;
        stacks[i].lo = base + GUARD_SIZE;
    }
}

static int on_stack(const struct bigstack *s)
{
    uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
    return sp >= (uintptr_t)s->lo && sp < (uintptr_t)s->hi;
}

static int on_big_stack(void)
{
    for (int i = 0; i < BIG_STACKS; i++)
        if (on_stack(&stacks[i]))
            return 1;
    return 0;
}

void uld_bigstack_run(void (*fn)(void *), void *arg)
{
#if HAVE_SWITCH
    if (!on_big_stack()) {
        for (int i = 0; i < BIG_STACKS; i++) {
            struct bigstack *s = &stacks[i];
            if (!s->lo || atomic_load_explicit(&s->busy, memory_order_relaxed) ||
                atomic_exchange(&s->busy, 1))
                continue;
            uld_bigstack_switch_call(arg, fn, s->hi);
            atomic_store(&s->busy, 0);
            return;
        }
    }
#endif
    fn(arg);
}

/* Only the forking thread lives on: a stack it is not running on is free. */
void uld_bigstack_after_fork_child(void)
{
    for (int i = 0; i < BIG_STACKS; i++)
        if (!on_stack(&stacks[i]))
            atomic_store(&stacks[i].busy, 0);
}
