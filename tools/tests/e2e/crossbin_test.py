#!/usr/bin/env python3
"""crossbin_test.py - the cycle no single test binary shows, across binaries (python3, stdlib).

usage: crossbin_test.py --ulockdep BIN --one PROG --two PROG

A static library libfoo.a has two global mutexes foo_a and foo_b; test_one calls foo_ab(),
test_two foo_ba() (the usual ctest layout: both link libfoo.a).  Each is clean alone; run
under `ulockdep run --out DIR`, `ulockdep merge DIR` must report the cycle naming foo_a and
foo_b.  This needs class keys that name a static lock by its symbol, not by module and
offset (the same lock lives at other offsets in the two programs).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ulockdep", required=True)
    ap.add_argument("--one", required=True)
    ap.add_argument("--two", required=True)
    a = ap.parse_args()
    os.environ.pop("ULOCKDEP_OPTIONS", None)
    work = tempfile.mkdtemp(prefix="uld-crossbin-")
    try:
        for prog in (a.one, a.two):
            rc, out, err = run([os.path.abspath(a.ulockdep), "run", "--out", "out", "--",
                                os.path.abspath(prog)], work)
            if rc != 0:
                print(f"FAIL: {prog} under `ulockdep run` exited {rc}\n{err}")
                return 1
        rc, out, err = run([os.path.abspath(a.ulockdep), "merge", "--format", "json", "out"],
                           work)
        reps = [json.loads(l) for l in out.splitlines() if l.strip()]
        names = [sorted(c["name"] for c in r["classes"]) for r in reps]
        if rc != 1 or names != [["foo_a", "foo_b"]] or reps[0]["kind"] != "cross-run-cycle":
            rc2, graph, _ = run([os.path.abspath(a.ulockdep), "graph", "out"], work)
            print(f"FAIL: merge must report one cross-run-cycle naming foo_a and foo_b "
                  f"(exit {rc}, found {names})\n{err}\n{graph}")
            return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
