#!/usr/bin/env python3
"""identity_test.py - lock identity across rebuilds, binaries and stripping.

1. rebuild: ident_main.c + ident_other.c built twice, the second time from
   another source directory, into another build directory, at -O2 instead
   of -O0, with an unrelated function added at the top of ident_other.c.
   The same problems must have the same `signature`, the graph dumps the
   same class keys, and suppressions generated from build 1 must suppress
   every report of build 2, each entry exactly one report.
2. static library: libfoo.a linked into test_one (foo_a then foo_b) and
   test_two (foo_b then foo_a): their dumps give libfoo's classes the same
   keys, so `ulockdep merge` finds the cross-binary cycle naming foo_a and
   foo_b.
3. stripped: build 1 with every symbol stripped: static locks are named
   module+0xOFF, never a runtime address.
4. stripped library: libfakecrypto.so (stripped; its locks all made by the
   exported CRYPTO_THREAD_lock_new from internal constructors, plus a static
   rwlock): two classes get two names, module+0xOFF of the site outside
   the allocator, the same in two processes; the static one module+0xOFF.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def fail(msg, *details):
    print("FAIL " + msg)
    for d in details:
        print("  " + str(d))
    sys.exit(1)


def sh(*cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    return p.returncode, p.stdout, p.stderr


def build(cc, out, sources, opt, cwd):
    rc, _, err = sh(cc, "-g", opt, "-pthread", "-o", out, *sources, cwd=cwd)
    if rc:
        fail(f"cannot build {out}", err)


def run(args, prog, tag, outdir):
    env = dict(os.environ, LD_PRELOAD=args.preload,
               ULOCKDEP_OPTIONS=f"json_path={outdir}/{tag}.jsonl:graph_path={outdir}/{tag}.graph"
                                ":exitcode=0:log_path=/dev/null")
    rc, out, err = sh(prog, env=env)
    if rc:
        fail(f"{prog} exited {rc}", err)
    reports = []
    if os.path.exists(f"{outdir}/{tag}.jsonl"):  # created at the first report
        with open(f"{outdir}/{tag}.jsonl") as f:
            records = [json.loads(l) for l in f if l.strip()]
            reports = [r for r in records if "kind" in r]  # past the process record
    with open(f"{outdir}/{tag}.graph") as f:
        graph = [json.loads(l) for l in f if l.strip()]
    return reports, graph


def signatures(reports):
    return sorted((r["kind"], r["signature"]) for r in reports)


def class_keys(graph):
    """The classes of the test program itself: system libraries that the process loads
    (libdw may pull in libdebuginfod, libcurl and libcrypto) have locks of their own."""
    def own(g):
        at = g.get("at") or {}
        system = (at.get("module") or "").startswith(("/usr/", "/lib"))
        return not system and ".so" not in g["key"]  # the programs here are executables
    return {g["name"]: g["key"] for g in graph if g.get("type") == "class" and own(g)}


def rebuild(args, tmp):
    src1, src2 = f"{tmp}/src1", f"{tmp}/checkout/elsewhere/src"
    b1, b2 = f"{tmp}/build1", f"{tmp}/other/build2"
    for d in (src1, src2, b1, b2):
        os.makedirs(d)
    for f in ("ident_main.c", "ident_other.c"):
        shutil.copy(os.path.join(HERE, f), src1)
        shutil.copy(os.path.join(HERE, f), src2)
    with open(f"{src2}/ident_other.c") as f:
        text = f.read()
    with open(f"{src2}/ident_other.c", "w") as f:
        f.write("/* added in build 2 */\nint unrelated_helper(int x);\n"
                "int unrelated_helper(int x)\n{\n    return x * 7 + 1;\n}\n\n" + text)
    build(args.cc, f"{b1}/prog", [f"{src1}/ident_main.c", f"{src1}/ident_other.c"], "-O0", b1)
    build(args.cc, f"{b2}/prog", [f"{src2}/ident_main.c", f"{src2}/ident_other.c"], "-O2", b2)
    o1, o2 = f"{tmp}/out1", f"{tmp}/out2"
    os.makedirs(o1)
    os.makedirs(o2)
    r1, g1 = run(args, f"{b1}/prog", "ulockdep.1", o1)
    r2, g2 = run(args, f"{b2}/prog", "ulockdep.2", o2)
    kinds = sorted(r["kind"] for r in r1)
    want = ["class-order-inversion", "lock-order-inversion", "lock-order-inversion",
            "unlock-not-held"]
    if kinds != want:
        fail("build 1 reports", kinds, want)
    if signatures(r1) != signatures(r2):
        fail("signatures differ between the two builds", signatures(r1), signatures(r2))
    k1, k2 = class_keys(g1), class_keys(g2)
    if sorted(k1.values()) != sorted(k2.values()):
        fail("graph class keys differ between the two builds", k1, k2)
    for key in k1.values():
        if re.search(r"0x[0-9a-f]{6,}|/", key):
            fail(f"class key {key!r} holds an address or a path")
    if "local_lock@ident_main.c" not in k1.values() or "lock_a" not in k1.values():
        fail("static keys: a global by its symbol, a file-local one with its file", k1)
    rc, supp, err = sh(args.ulockdep, "report", "--gen-suppressions", o1)
    entries = [l for l in supp.splitlines() if l and not l.startswith("#")]
    if rc or len(entries) != 4:
        fail("--gen-suppressions on build 1", rc, supp, err)
    for e in entries:
        if "#" in e or "/" in e.split(":", 1)[1]:
            fail(f"generated entry {e!r} holds an instance number or a path")
    with open(f"{tmp}/gen.supp", "w") as f:
        f.write(supp)
    rc, out, err = sh(args.ulockdep, "report", "--suppressions", f"{tmp}/gen.supp", o2)
    if rc or "0 reports" not in out or "4 suppressed" not in out:
        fail("build 1's suppressions on build 2", rc, out, err)
    for e in entries:
        with open(f"{tmp}/one.supp", "w") as f:
            f.write(e + "\n")
        rc, out, err = sh(args.ulockdep, "report", "--suppressions", f"{tmp}/one.supp", o2)
        if "; 1 suppressed" not in out:
            fail(f"{e} must suppress exactly one report of build 2", out, err)
    print(f"ok   rebuild: {len(r1)} reports, equal signatures, {len(k1)} equal class keys, "
          "suppressions carried over")
    return f"{b1}/prog"


def static_library(args, tmp):
    d = f"{tmp}/foo"
    os.makedirs(d)
    rc, _, err = sh(args.cc, "-g", "-O1", "-pthread", "-c", os.path.join(HERE, "foo.c"),
                    "-o", f"{d}/foo.o")
    rc2, _, err2 = sh("ar", "rcs", f"{d}/libfoo.a", f"{d}/foo.o")
    if rc or rc2:
        fail("cannot build libfoo.a", err, err2)
    for t in ("test_one", "test_two"):
        rc, _, err = sh(args.cc, "-g", "-O1", "-pthread", "-o", f"{d}/{t}",
                        os.path.join(HERE, f"{t}.c"), f"{d}/libfoo.a")
        if rc:
            fail(f"cannot build {t}", err)
    out = f"{tmp}/foo-out"
    os.makedirs(out)
    _, g1 = run(args, f"{d}/test_one", "ulockdep.101", out)
    _, g2 = run(args, f"{d}/test_two", "ulockdep.102", out)
    k1, k2 = class_keys(g1), class_keys(g2)
    for name in ("foo_a", "foo_b"):
        if k1.get(name) != name or k2.get(name) != name:
            fail(f"{name}: the same key in both binaries", k1, k2)
    init1 = [k for n, k in k1.items() if n.startswith("foo_new:")]
    init2 = [k for n, k in k2.items() if n.startswith("foo_new:")]
    if not init1 or init1 != init2 or not init1[0].startswith("foo_new@foo.c:+"):
        fail("foo_new's init class: the same key in both binaries", k1, k2)
    rc, text, err = sh(args.ulockdep, "merge", "--format", "json", out)
    cycles = [json.loads(l) for l in text.splitlines() if l.strip()]
    names = [sorted(c["name"] for c in r.get("classes", [])) for r in cycles
             if r.get("kind") == "cross-run-cycle"]
    if names != [["foo_a", "foo_b"]]:
        fail("merge must find the cross-binary cycle foo_a <-> foo_b", rc, text, err)
    print("ok   static library: equal keys in two binaries, cross-binary cycle found")


def stripped(args, tmp, prog):
    s = f"{tmp}/stripped"
    os.makedirs(s)
    rc, _, err = sh("strip", "--strip-all", "-o", f"{s}/prog_stripped", prog)
    if rc:
        fail("strip", err)
    reports, graph = run(args, f"{s}/prog_stripped", "ulockdep.3", s)
    names = {l["name"] for r in reports for l in r.get("locks", [])}
    for n in names:
        if re.fullmatch(r"0x[0-9a-f]+", n):
            fail(f"lock named by a runtime address: {n}", names)
    statics = sorted(n for n in names if re.fullmatch(r"prog_stripped\+0x[0-9a-f]+", n))
    if len(statics) != 2:
        fail("the two static locks must be named prog_stripped+0xOFF", names)
    keys = [g["key"] for g in graph if g.get("type") == "class" and g.get("site") == "static"
            and ".so" not in g["key"]]  # not the system libraries' own locks
    if not keys or any(not re.fullmatch(r"prog_stripped@0x[0-9a-f]+", k) for k in keys):
        fail("static keys of a stripped module: module@0xOFF", keys)
    print(f"ok   stripped: static locks {statics}")


def stripped_library(args, tmp):
    d = f"{tmp}/fakecrypto"
    os.makedirs(d)
    lib = f"{d}/libfakecrypto.so"
    rc, _, err = sh(args.cc, "-g", "-O1", "-pthread", "-shared", "-fPIC", "-o", lib,
                    os.path.join(HERE, "fakecrypto.c"))
    rc2, _, err2 = sh("strip", "--strip-all", lib)
    rc3, _, err3 = sh(args.cc, "-g", "-O1", "-pthread", "-o", f"{d}/user",
                      os.path.join(HERE, "fakecrypto_user.c"), f"-L{d}", "-lfakecrypto",
                      f"-Wl,-rpath,{d}")
    if rc or rc2 or rc3:
        fail("cannot build libfakecrypto.so and its user", err, err2, err3)
    runs = []
    for i in (1, 2):
        reports, _ = run(args, f"{d}/user", f"ulockdep.{200 + i}", d)
        runs.append(sorted(sorted(l["name"] for l in r["locks"]) for r in reports
                           if r["kind"] == "lock-order-inversion"))
    if runs[0] != runs[1]:
        fail("names must be the same in every process", *runs)
    names = {n for r in runs[0] for n in r}
    # the constructors are static (no name left): their classes take the calls
    # up to the exported caller, which names them (docs/design.md)
    heap = sorted(n for n in names if re.fullmatch(r"fc_make\+0x[0-9a-f]+#1", n))
    static = sorted(n for n in names if re.fullmatch(r"libfakecrypto\.so\+0x[0-9a-f]+", n))
    if len(heap) != 2 or len(static) != 1 or len(names) != 3:
        fail("two allocator-made classes named by their exported caller fc_make+0xOFF and "
             "the static rwlock as module+0xOFF", runs[0])
    print(f"ok   stripped library: {heap + static}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--preload", required=True)
    ap.add_argument("--ulockdep", required=True)
    ap.add_argument("--cc", default="cc")
    args = ap.parse_args()
    for tool in (args.cc, "ar", "strip"):
        if not shutil.which(tool):
            print(f"SKIP: {tool} not found (Debian package build-essential / binutils)")
            return 77
    with tempfile.TemporaryDirectory(prefix="uld-identity-") as tmp:
        prog = rebuild(args, tmp)
        static_library(args, tmp)
        stripped(args, tmp, prog)
        stripped_library(args, tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
