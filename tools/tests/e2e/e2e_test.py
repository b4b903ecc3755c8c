#!/usr/bin/env python3
"""e2e_test.py - the library and the command together (python3, stdlib).

usage: e2e_test.py --ulockdep BIN --xy PROG --yx PROG [--fork PROG]

Runs two programs under `ulockdep run --out DIR`: one takes lock_x then lock_y, the other
lock_y then lock_x (static mutexes of one shared library).  Neither process can see a
problem, so `ulockdep report DIR` must be clean; `ulockdep merge DIR` must find the cycle
across the two runs.  --fork: a program whose child is killed by SIGKILL after taking
two locks; each process must leave its own files (first record naming it), and merge must
count the child's dump as incomplete yet use its edge.
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(os.path.dirname(__file__))))
import sarif_check  # noqa: E402


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def fail(msg, *details):
    print("FAIL: " + msg)
    for d in details:
        print(d)
    sys.exit(1)


def first_record(path):
    with open(path, encoding="utf-8") as f:
        return json.loads(f.readline())


def check_fork(a, work):
    rc, out, err = run([a.ulockdep, "run", "--out", "fork", "--", os.path.abspath(a.fork)], work)
    if rc != 0:
        fail(f"{a.fork} under `ulockdep run` exited {rc}", err)
    d = os.path.join(work, "fork")
    for ext in ("jsonl", "graph"):
        files = sorted(glob.glob(os.path.join(d, "*." + ext)))
        pids = [first_record(f).get("pid") for f in files]
        want = [int(os.path.basename(f).split(".")[1]) for f in files]
        if ext == "jsonl" and not files:
            continue  # report files are created at the first report: none here
        if len(files) != 2 or pids != want:
            fail(f"parent and child must each leave a .{ext} whose first record names them",
                 files, pids)
        if ext == "jsonl" and any(first_record(f).get("type") != "ulockdep-reports"
                                  for f in files):
            fail("a report file must start with its process record", files)
    rc, out, err = run([a.ulockdep, "merge", "fork"], work)
    if "1 dump incomplete (process killed before exit)" not in out:
        fail("merge must count the killed child's dump as incomplete", out, err)
    rc, out, err = run([a.ulockdep, "graph", "fork"], work)
    if "lock_a -> lock_b [EN]" not in out:
        fail("the killed child's edge must be in the graph", out, err)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ulockdep", required=True)
    ap.add_argument("--xy", required=True)
    ap.add_argument("--yx", required=True)
    ap.add_argument("--fork")
    a = ap.parse_args()
    a.ulockdep, a.xy, a.yx = (os.path.abspath(p) for p in (a.ulockdep, a.xy, a.yx))
    os.environ.pop("ULOCKDEP_OPTIONS", None)  # the user's options must not redirect outputs
    work = tempfile.mkdtemp(prefix="uld-e2e-")
    try:
        for prog in (a.xy, a.yx):
            rc, out, err = run([a.ulockdep, "run", "--out", "out", "--", prog], work)
            if rc != 0:
                fail(f"{prog} under `ulockdep run` exited {rc}", err)
        graphs = glob.glob(os.path.join(work, "out", "*.graph"))
        if len(graphs) != 2:
            fail(f"expected 2 graph dumps in out/, found {len(graphs)}: graph_path= not "
                 "implemented by the library?", os.listdir(os.path.join(work, "out")))
        rc, out, err = run([a.ulockdep, "report", "out"], work)
        if rc != 0 or not out.startswith("ulockdep report: 0 reports"):
            fail(f"`ulockdep report out` must be clean (exit {rc})", out, err)
        rc, out, err = run([a.ulockdep, "merge", "--format", "json", "out"], work)
        reps = [json.loads(l) for l in out.splitlines() if l.strip()]
        if rc != 1 or len(reps) != 1 or reps[0]["kind"] != "cross-run-cycle":
            fail(f"`ulockdep merge out` must report one cross-run cycle (exit {rc})", out, err)
        names = sorted(c["name"] for c in reps[0]["classes"])
        progs = sorted(os.path.basename(e["program"]) for e in reps[0]["cycle"])
        if names != ["lock_x", "lock_y"]:
            fail(f"the cycle must name lock_x and lock_y, not {names}", out)
        if progs != sorted(os.path.basename(p) for p in (a.xy, a.yx)):
            fail(f"each edge must name the program that recorded it: {progs}", out)
        rc, out, err = run([a.ulockdep, "merge", "--format", "sarif", "out"], work)
        sarif_check.check(json.loads(out))
        rc, out, err = run([a.ulockdep, "merge", "out"], work)
        print(out, end="")
        if a.fork:
            check_fork(a, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
