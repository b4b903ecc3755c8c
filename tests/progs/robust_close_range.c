/*
 * robust_close_range.c - a daemon's start-up: close every descriptor above
 * stderr (close_range), put a listening socket on fd 3 and files on 4 and 5,
 * then lock in ways that make the validator report and unwind deep stacks,
 * including through a frame that has no unwind information (hand-written
 * code without CFI, as JIT code or old assembly), where an unwinder must
 * fall back to frame pointers and check the memory it reads.
 *
 * The host's descriptors must be untouched: the socket is still a listening
 * socket on fd 3, the files hold exactly what the program wrote, and no
 * descriptor the program did not open sits below its lowest free one (the
 * numbers it gets from open() are the ones it gets natively: 3, 4, 5, 6).
 * A preload library that keeps an internal pipe (libunwind 1.6 validates
 * addresses by writing them into one) either shifts those numbers or closes
 * and replaces fd 3 when its own pipe disappeared under close_range.
 *
 * The inversion: lock_a -> lock_b, then lock_b -> lock_a (taken through the
 * frame without CFI): one report.
 *
 * EXPECT: lock-order-inversion lock_a lock_b
 */
#include "progs.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t deep[64];

/* void nocfi_call(void (*fn)(void)): a frame with a frame pointer and no
 * .eh_frame entry. */
void nocfi_call(void (*fn)(void));
__asm__(".text\n.globl nocfi_call\n.type nocfi_call,@function\nnocfi_call:\n"
        "push %rbp\nmov %rsp,%rbp\ncall *%rdi\npop %rbp\nret\n"
        ".size nocfi_call,.-nocfi_call\n");

static void b_then_a(void)
{
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_lock(&lock_a)); /* reported here */
    OK(pthread_mutex_unlock(&lock_a));
    OK(pthread_mutex_unlock(&lock_b));
}

/* Each level takes a new lock nested in the previous ones: a new chain and
 * a captured stack per level, 64 frames deep at the bottom. */
__attribute__((noinline)) static void descend(int level)
{
    if (level == 64)
        return;
    OK(pthread_mutex_lock(&deep[level]));
    descend(level + 1);
    OK(pthread_mutex_unlock(&deep[level]));
    __asm__ volatile("" ::: "memory"); /* no tail call */
}

static void deep_through_nocfi(void)
{
    descend(0);
}

static void expect_only_own_fds(int lowest_free)
{
    for (int fd = 3; fd < 64; fd++) {
        int open_now = fcntl(fd, F_GETFD) >= 0;
        if (open_now != (fd < lowest_free))
            fprintf(stderr, "fd %d is %s\n", fd, open_now ? "open (not the program's)" : "closed");
        CHECK(open_now == (fd < lowest_free));
    }
}

static int open_file(const char *name, const char *text)
{
    int fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0600);
    CHECK(fd >= 0);
    CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    return fd;
}

static void check_file(int fd, const char *text)
{
    char buf[64];
    CHECK(lseek(fd, 0, SEEK_SET) == 0);
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    CHECK(n >= 0);
    buf[n] = '\0';
    CHECK(strcmp(buf, text) == 0);
}

int main(void)
{
    for (int i = 0; i < 64; i++)
        OK(pthread_mutex_init(&deep[i], NULL));
    nocfi_call(deep_through_nocfi); /* the first deep unwinds, before close_range */
    expect_only_own_fds(3);

    CHECK(close_range(3, ~0U, 0) == 0);
    int sock = socket(AF_INET, SOCK_STREAM, 0);
    CHECK(sock == 3);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    OK(bind(sock, (struct sockaddr *)&sa, sizeof(sa)));
    OK(listen(sock, 4));
    int f1 = open_file("close_range.1", "first\n");
    int f2 = open_file("close_range.2", "second\n");
    CHECK(f1 == 4 && f2 == 5);

    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_unlock(&lock_b));
    OK(pthread_mutex_unlock(&lock_a));
    nocfi_call(b_then_a);
    for (int i = 0; i < 64; i++) { /* new instances: new chains, new stacks */
        OK(pthread_mutex_destroy(&deep[i]));
        OK(pthread_mutex_init(&deep[i], NULL));
    }
    nocfi_call(deep_through_nocfi);

    int type = 0, listening = 0;
    socklen_t len = sizeof(type);
    CHECK(getsockopt(sock, SOL_SOCKET, SO_TYPE, &type, &len) == 0 && type == SOCK_STREAM);
    len = sizeof(listening);
    CHECK(getsockopt(sock, SOL_SOCKET, SO_ACCEPTCONN, &listening, &len) == 0 && listening);
    check_file(f1, "first\n");
    check_file(f2, "second\n");
    expect_only_own_fds(6);
    int next = open("/dev/null", O_RDONLY);
    CHECK(next == 6);
    OK(close(next));
    OK(close(f1));
    OK(close(f2));
    OK(close(sock));
    OK(unlink("close_range.1"));
    OK(unlink("close_range.2"));
    return 0;
}
