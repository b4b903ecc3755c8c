#!/usr/bin/env python3
"""merge_scale.py - memory of `ulockdep merge` over a fleet of graph dumps (not a ctest).

usage: bench/merge_scale.py --ulockdep BIN [--dumps 10000] [--classes 30] [--edges 60]
                            [--compare OTHER_BIN] [--keep DIR]

Writes N graph dumps of one program with C classes (each dump: its own pid, the same
classes, E edges out of a common pool with 5-frame stacks, about 60 KB, as a real
30-class test program leaves), then runs `ulockdep merge DIR` and
`ulockdep merge --write-graph` over them and prints wall time and peak RSS (the
child's ru_maxrss).  With --compare, the same for another build of the command.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import tempfile
import time


def frame(fn, line):
    return {"address": "0x55d1c2a0%04x" % line, "function": fn,
            "file": "/home/ci/work/project/src/module_%s.c" % fn, "line": line,
            "module": "/home/ci/work/project/build/tests/test_program"}


def make_dumps(d, n, classes, edges, rng):
    keys = ["test_program@0x%x" % (0x4000 + 0x40 * i) for i in range(classes)]
    pool = [(a, b) for a in range(classes) for b in range(a + 1, classes)]  # acyclic
    rng.shuffle(pool)
    lines = []
    for i, k in enumerate(keys):
        lines.append({"type": "class", "key": k, "name": "lock_%d" % i, "lock_type": "mutex",
                      "site": "static", "at": None, "max_live": 1})
    for a, b in pool[:edges]:
        stack = [frame("f%d_%d_%d" % (a, b, j), 100 + j) for j in range(5)]
        lines.append({"type": "edge", "from": keys[a], "to": keys[b], "types": ["EN"],
                      "gates": [], "from_acquired_at": frame("take_%d" % a, 10),
                      "stack": stack})
    body = "".join(json.dumps(l) + "\n" for l in lines) + '{"type":"end"}\n'
    for pid in range(1000, 1000 + n):
        with open(os.path.join(d, "ulockdep.%d.graph" % pid), "w") as f:
            f.write(json.dumps({"type": "ulockdep-graph", "version": 1, "pid": pid,
                                "program": "/home/ci/work/project/build/tests/test_program",
                                "incremental": True}) + "\n" + body)
    return len(body)


def peak_rss(cmd):
    """(exit status, seconds, peak RSS KiB) of one run, from wait4's rusage.  Popen
    spawns without copying this interpreter's memory, which ru_maxrss would count."""
    t = time.time()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, time.time() - t, ru.ru_maxrss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ulockdep", required=True)
    ap.add_argument("--compare")
    ap.add_argument("--dumps", type=int, default=10000)
    ap.add_argument("--classes", type=int, default=30)
    ap.add_argument("--edges", type=int, default=60)
    ap.add_argument("--keep")
    a = ap.parse_args()
    work = a.keep or tempfile.mkdtemp(prefix="uld-merge-scale-")
    d = os.path.join(work, "dumps")
    os.makedirs(d, exist_ok=True)
    size = make_dumps(d, a.dumps, a.classes, a.edges, random.Random(1))
    print("%d dumps of %d classes, %d edges, %.1f KB each (%.0f MB in all)" %
          (a.dumps, a.classes, a.edges, size / 1024, a.dumps * size / 1e6))
    try:
        for label, binary in (("this build", a.ulockdep), ("compare", a.compare)):
            if not binary:
                continue
            rc, secs, rss = peak_rss([os.path.abspath(binary), "merge", d])
            print("%-10s merge DIR:               exit %d, %6.1f s, peak RSS %7d KiB" %
                  (label, rc, secs, rss))
            out = os.path.join(work, "merged.graph")
            rc, secs, rss = peak_rss([os.path.abspath(binary), "merge", "--write-graph", out, d])
            if rc in (0, 1) and os.path.exists(out):
                print("%-10s merge --write-graph:     exit %d, %6.1f s, peak RSS %7d KiB, "
                      "output %.1f KB" % (label, rc, secs, rss, os.path.getsize(out) / 1024))
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
