#!/usr/bin/python3
"""Threaded SQLite through Python's sqlite3 module (the system libsqlite3):
4 writer threads, each with its own connection to one WAL database, insert
and update in transactions (busy waits on the database lock), while 2
reader threads share one serialized connection (sqlite3_mutex around every
call).  Prints the row count and a hash of the final table: the same with
and without ulockdep.

    sqlite_threads.py DBFILE
"""
import hashlib
import os
import sqlite3
import sys
import threading

path = sys.argv[1]
if os.path.exists(path):
    os.unlink(path)
db = sqlite3.connect(path, timeout=60)
db.execute("PRAGMA journal_mode=WAL")
db.execute("CREATE TABLE kv (k INTEGER PRIMARY KEY, v TEXT, n INTEGER)")
db.commit()
db.close()
shared = sqlite3.connect(path, timeout=60, check_same_thread=False)
errors = []


def writer(t):
    try:
        c = sqlite3.connect(path, timeout=60)
        for i in range(200):
            with c:
                c.execute("INSERT INTO kv VALUES (?, ?, ?)", (t * 100000 + i, "v%d-%d" % (t, i), i))
                c.execute("UPDATE kv SET n = n + 1 WHERE k = ?", (t * 100000 + i // 2,))
        c.close()
    except Exception as e:
        errors.append(repr(e))


def reader(t):
    try:
        for i in range(100):
            shared.execute("SELECT count(*), sum(n) FROM kv WHERE k % 7 = ?", ((i + t) % 7,)).fetchone()
    except Exception as e:
        errors.append(repr(e))


threads = [threading.Thread(target=writer, args=(t,)) for t in range(4)] + \
          [threading.Thread(target=reader, args=(t,)) for t in range(2)]
for t in threads:
    t.start()
for t in threads:
    t.join()
shared.close()
rows = sqlite3.connect(path).execute("SELECT k, v, n FROM kv ORDER BY k").fetchall()
print("rows %d sha %s errors %s" % (len(rows), hashlib.sha256(repr(rows).encode()).hexdigest()[:16],
                                    errors))
sys.exit(1 if errors else 0)
