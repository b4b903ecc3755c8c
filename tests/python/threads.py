#!/usr/bin/env python3
"""Python's threading module under ulockdep (run by run_case.py).

Every CPython lock is a sem_t initialised to 1: an uncontended acquire is a
sem_trywait, a contended one a sem_wait, a release a sem_post, from any
thread.  threading.Condition waits on a fresh "waiter" lock that it takes
before giving the condition's lock back and that a notifier releases.

    threads.py clean   threads, Event, Condition, Queue, Semaphore, RLock,
                       a lock handed from one thread to another: no report
    threads.py abba    two Locks taken in opposite orders by two threads
                       that run one after the other: a potential deadlock
    threads.py workers worker threads fed through a Queue, then joined, in
                       rounds: every Python thread holds a lock of its own
                       from start to end (taken uncontended, by sem_trywait)
                       and join() waits for it, so each notify the main
                       thread sends is made holding its own: no report
    threads.py pools   ThreadPoolExecutor, multiprocessing ThreadPool,
                       Condition waits with timeouts, Barrier, Timer,
                       logging from threads, in rounds: waiter locks are
                       often posted before their second acquire and freed
                       by the thread that took them: no report
"""
import concurrent.futures
import logging
import queue
import sys
import threading
from multiprocessing.pool import ThreadPool


def clean():
    results = []
    q = queue.Queue(maxsize=4)
    done = threading.Event()
    cond = threading.Condition()
    items = []
    sem = threading.BoundedSemaphore(2)
    rlock = threading.RLock()

    def producer():
        for i in range(200):
            q.put(i)
        q.put(None)

    def consumer():
        while (i := q.get()) is not None:
            with sem, rlock:
                with rlock:
                    results.append(i)
        done.set()

    def waiter():
        with cond:
            cond.wait_for(lambda: len(items) == 50)

    def notifier():
        for i in range(50):
            with cond:
                items.append(i)
                cond.notify_all()

    threads = [threading.Thread(target=f) for f in (producer, consumer, waiter, waiter, notifier)]
    for t in threads:
        t.start()
    done.wait()
    for t in threads:
        t.join()
    handed = threading.Lock()
    handed.acquire()
    releaser = threading.Thread(target=handed.release)  # a hand-off, not an unlock by the owner
    releaser.start()
    releaser.join()
    with handed:
        pass
    assert sorted(results) == list(range(200)) and len(items) == 50
    print("clean: ok")


def abba():
    a, b = threading.Lock(), threading.Lock()

    def ab():
        with a, b:
            pass

    def ba():
        with b, a:
            pass

    for f in (ab, ba):
        t = threading.Thread(target=f)
        t.start()
        t.join()
    print("abba: ran without hanging")


def workers():
    for _ in range(10):
        q = queue.Queue()
        total = [0]
        lock = threading.Lock()

        def work():
            while (x := q.get()) is not None:
                with lock:
                    total[0] += x

        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for i in range(2000):
            q.put(i)
        for t in threads:
            q.put(None)
        for t in threads:
            t.join()
        assert total[0] == sum(range(2000))
    print("workers: ok")


def pools():
    log = logging.getLogger("pools")
    log.addHandler(logging.NullHandler())

    def square(x):
        log.info("x=%d", x)
        return x * x

    for _ in range(5):
        with concurrent.futures.ThreadPoolExecutor(max_workers=4) as ex:
            assert sum(ex.map(square, range(300))) == sum(x * x for x in range(300))
        with ThreadPool(4) as p:
            assert sum(p.map(square, range(300))) == sum(x * x for x in range(300))
        cv = threading.Condition()
        items = []

        def produce():
            for i in range(100):
                with cv:
                    items.append(i)
                    cv.notify()

        def consume():
            for _ in range(100):
                with cv:
                    while not items:
                        cv.wait(0.5)
                    items.pop()

        barrier = threading.Barrier(2)
        fired = threading.Event()
        timer = threading.Timer(0.001, fired.set)
        threads = [threading.Thread(target=f) for f in (consume, produce)]
        threads += [threading.Thread(target=barrier.wait) for _ in range(2)]
        for t in threads + [timer]:
            t.start()
        for t in threads + [timer]:
            t.join()
        assert fired.is_set() and not items
    print("pools: ok")


{"clean": clean, "abba": abba, "workers": workers, "pools": pools}[sys.argv[1]]()
