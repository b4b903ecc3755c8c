/* REPRO: graph-keys
 *
 * ulockdep bug found on memcached (docs/real-world.md, "memcached"): in the
 * graph dump (graph_path=), the "class" record of a static lock that lives in
 * the part of .bss past the program's file-backed pages gets a raw run-time
 * address as its key (and name), e.g.
 *
 *   {"type":"class","key":"0x557f684ef060","name":"0x557f684ef060",...}
 *
 * while the "edge" records for the same class, written later in the same
 * dump, use the stable key "graph_bss_static_keys@0x14060".  The key changes
 * with ASLR from run to run, edges name a class the dump never declares, and
 * `ulockdep graph` / `ulockdep merge` see two classes (memcached's dump had
 * its static lock at memcached@0x4ff80 twice: declared as 0x56006d225f80,
 * used as memcached@0x4ff80).
 *
 * Why (from lib/report/report.c and lib/report/symbolize.c): uld_class_stable_key() maps an
 * address to "<module>@0x<offset>" with libdw's dwfl_addrmodule().  A module
 * reported from /proc/self/maps (dwfl_linux_proc_report) first covers only
 * its file-backed mappings; the anonymous tail of .bss is covered only once
 * libdw has loaded the module's ELF, which the first symbolization of an
 * address in that module does.  The dump prints class records in creation
 * order: the static locks here are created first, before any address of the
 * program has been symbolized, so their records get the fallback "%p" key;
 * the third class (an initialised lock) symbolizes its init site, and from
 * then on (the edges) the same addresses resolve.  Reports are not affected
 * in this program: a report symbolizes its stacks first.
 *
 * Native: exits 0.  Under ulockdep with graph_path: no report; the dump has
 * class keys without "@" and edges naming undeclared keys.
 */
#include <pthread.h>
#include <stdio.h>

/* zero-initialised, so in .bss; the 64 KiB pad puts a and b past the page
 * that holds the end of .data, in the anonymous part of the segment */
static struct {
    char pad[1 << 16];
    pthread_mutex_t a, b;
} s;

int main(void)
{
    pthread_mutex_t c;
    pthread_mutex_lock(&s.a); /* s.a -> s.b: classes of two static locks */
    pthread_mutex_lock(&s.b);
    pthread_mutex_unlock(&s.b);
    pthread_mutex_unlock(&s.a);
    pthread_mutex_init(&c, NULL); /* a class keyed by its init site (text) */
    pthread_mutex_lock(&c);
    pthread_mutex_lock(&s.a); /* c -> s.a */
    pthread_mutex_unlock(&s.a);
    pthread_mutex_unlock(&c);
    pthread_mutex_destroy(&c);
    printf("ok %d\n", s.pad[0]);
    return 0;
}
