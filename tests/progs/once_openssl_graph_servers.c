/*
 * once_openssl_graph_servers.c - the program's first OpenSSL call runs
 * OpenSSL's one-time initialisers nested (a pthread_once inside another);
 * with graph_path set, the nested one's new edge makes the graph dump due
 * inside the outer initialiser.  Writing the dump names classes with libdw,
 * whose debuginfod client starts libcurl, libssh2 and OpenSSL: from inside
 * OpenSSL's own initialiser that waited for itself, and the program hung
 * at its first OpenSSL call (unbound did, at start-up).  Here
 * DEBUGINFOD_URLS names a server (nothing listens there).  The dump waits
 * until the program leaves OpenSSL's initialiser.
 * libcrypto is opened with dlopen: the test needs no OpenSSL headers.
 *
 * EXPECT: none
 * EXPECT-GRAPH-EDGE: lock_a lock_b
 * ENV: DEBUGINFOD_URLS=http://127.0.0.1:9/
 * TIMEOUT: 30
 */
#include "once_openssl_graph.h"
