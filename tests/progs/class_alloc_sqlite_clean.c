/*
 * class_alloc_sqlite_clean.c - mutexes of a SQL library, allocated as
 * sqlite 3.40 does: every caller asks sqlite3MutexAlloc() or
 * sqlite3_mutex_alloc() -> (the configured method) pthreadMutexAlloc(),
 * whose one SQLITE_MUTEX_FAST branch calls pthread_mutex_init().  The
 * shared btree's mutex (sqlite3BtreeOpen) and the unix VFS's per-inode
 * mutex (findInodeInfo) are both FAST mutexes.
 *
 * Opening a database file takes pBt->mutex, then the VFS's static
 * unixBigLock (never initialised: PTHREAD_MUTEX_INITIALIZER), then the
 * inode's mutex, always in that order: no cycle.  Classed inside the
 * allocator, pBt->mutex and the inode mutex would be one class and the
 * nesting the class cycle FAST -> unixBigLock -> FAST.  The allocator chain
 * is lock-API wrappers (builtin_wrappers: `*mutex_alloc*`, `*MutexAlloc*`),
 * so each mutex is classed where it is asked for: sqlite3BtreeOpen,
 * findInodeInfo.  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

enum { SQLITE_MUTEX_FAST = 0, SQLITE_MUTEX_RECURSIVE = 1, SQLITE_MUTEX_STATIC_MAIN = 2 };

typedef struct sqlite3_mutex { pthread_mutex_t mutex; int id; } sqlite3_mutex;
static sqlite3_mutex static_mutexes[1] = {{PTHREAD_MUTEX_INITIALIZER, SQLITE_MUTEX_STATIC_MAIN}};

static __attribute__((noinline)) sqlite3_mutex *pthreadMutexAlloc(int type)
{
    if (type >= SQLITE_MUTEX_STATIC_MAIN)
        return &static_mutexes[type - SQLITE_MUTEX_STATIC_MAIN];
    sqlite3_mutex *p = calloc(1, sizeof(*p));
    CHECK(p != NULL);
    pthread_mutexattr_t recursive_attr;
    if (type == SQLITE_MUTEX_RECURSIVE) {
        OK(pthread_mutexattr_init(&recursive_attr));
        OK(pthread_mutexattr_settype(&recursive_attr, PTHREAD_MUTEX_RECURSIVE));
        OK(pthread_mutex_init(&p->mutex, &recursive_attr));
        OK(pthread_mutexattr_destroy(&recursive_attr));
    } else {
        OK(pthread_mutex_init(&p->mutex, NULL));
    }
    p->id = type;
    return p;
}

static struct { sqlite3_mutex *(*xMutexAlloc)(int); } mutex_methods = {pthreadMutexAlloc};

__attribute__((noinline)) sqlite3_mutex *sqlite3_mutex_alloc(int id)
{
    return mutex_methods.xMutexAlloc(id);
}

static __attribute__((noinline)) sqlite3_mutex *sqlite3MutexAlloc(int id)
{
    return sqlite3_mutex_alloc(id);
}

static void mutex_enter(sqlite3_mutex *m) { OK(pthread_mutex_lock(&m->mutex)); }
static void mutex_leave(sqlite3_mutex *m) { OK(pthread_mutex_unlock(&m->mutex)); }

typedef struct BtShared { sqlite3_mutex *mutex; int nRef; } BtShared;
typedef struct unixInodeInfo { sqlite3_mutex *pLockMutex; int nLock; } unixInodeInfo;
static pthread_mutex_t unixBigLock = PTHREAD_MUTEX_INITIALIZER;

static __attribute__((noinline)) BtShared *sqlite3BtreeOpen(void)
{
    BtShared *pBt = calloc(1, sizeof(*pBt));
    CHECK(pBt != NULL);
    pBt->mutex = sqlite3MutexAlloc(SQLITE_MUTEX_FAST);
    return pBt;
}

static __attribute__((noinline)) unixInodeInfo *findInodeInfo(void)
{
    unixInodeInfo *pInode = calloc(1, sizeof(*pInode));
    CHECK(pInode != NULL);
    pInode->pLockMutex = sqlite3_mutex_alloc(SQLITE_MUTEX_FAST);
    return pInode;
}

struct db { BtShared *pBt; unixInodeInfo *pInode; };

static void *open_file(void *arg)
{
    struct db *db = arg;
    mutex_enter(db->pBt->mutex);
    OK(pthread_mutex_lock(&unixBigLock)); /* pBt->mutex -> unixBigLock */
    mutex_enter(db->pInode->pLockMutex);  /* unixBigLock -> inode mutex */
    db->pInode->nLock++;
    db->pBt->nRef++;
    mutex_leave(db->pInode->pLockMutex);
    OK(pthread_mutex_unlock(&unixBigLock));
    mutex_leave(db->pBt->mutex);
    return NULL;
}

int main(void)
{
    struct db db = {sqlite3BtreeOpen(), findInodeInfo()};
    run_thread(open_file, &db);
    CHECK(db.pBt->nRef == 1 && db.pInode->nLock == 1);
    return 0;
}
