/* REPRO: stdout:data corrupted
 *
 * ulockdep hazard seen on xz (docs/real-world.md, "compressors"): with no
 * log_path, ulockdep writes its reports, summary and stats to descriptor 2
 * whatever file it is by then.  xz closes stderr when it exits
 * (tuklib_exit), so its stats=1 lines and summary are lost; a program that
 * closes stderr and then opens a file of its own gets descriptor 2 for that
 * file, and ulockdep's report is written into the program's data.
 *
 * This program closes stderr, opens a data file (descriptor 2), writes one
 * line, takes two locks in both orders (one lock-order-inversion report),
 * then reads the file back and says whether it holds exactly its own line.
 * Native: "data intact".  Under ulockdep (no log_path): "data corrupted",
 * the file holds the human-readable report after the line.  With
 * log_path= the data is intact.  (The runner sets log_path, so it unsets it
 * for this program: see wl_repro in tests/real/run.)
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
    char path[] = "/tmp/uld-repro-stderr-XXXXXX";
    const char *line = "program data\n";
    close(2);
    int fd = mkstemp(path); /* the lowest free descriptor: 2 */
    if (fd < 0)
        return 2;
    if (write(fd, line, strlen(line)) != (ssize_t)strlen(line))
        return 2;
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
    pthread_mutex_lock(&b);
    pthread_mutex_lock(&a); /* b -> a after a -> b: reported */
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&b);
    char buf[8192];
    ssize_t n = pread(fd, buf, sizeof(buf), 0);
    close(fd);
    unlink(path);
    int intact = n == (ssize_t)strlen(line) && !memcmp(buf, line, strlen(line));
    printf("descriptor %d, %zd bytes: data %s\n", fd, n, intact ? "intact" : "corrupted");
    return 0;
}
