#!/usr/bin/env python3
"""run_symbols.py - sym_abba under ulockdep, with its debug info moved away
the ways distributions do it, and every frame of the report checked.

Modes (one ctest test each):
  plain               the program as built (-g): the reference
  debuglink           program and library stripped, .gnu_debuglink to a
                      debug file next to each (objcopy --only-keep-debug)
  build-id            stripped, debug files only in ROOT/.build-id/xx/yyyy.debug,
                      found with debug_dir=ROOT (and not found without it)
  dwz                 as build-id, the debug files first shrunk by dwz into a
                      shared .gnu_debugaltlink file (also in the build-id tree)
  debuginfod          stripped, no local debug file; a real debuginfod server
                      on 127.0.0.1 serves them (DEBUGINFOD_URLS)
  debuginfod-timeout  DEBUGINFOD_URLS names a server that never answers: the
                      report still comes, within symbolize_timeout, says so once,
                      and shows module+offset

Each checked frame: function, file basename, line (from `@line:NAME` markers
in the sources), inlined flag, in the JSON record and in the text report.
Exit 0 pass, 1 fail, 77 skipped (a tool or package is missing).
"""
import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

SKIP = 77


def die(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def skip(msg):
    print("SKIP: " + msg)
    sys.exit(SKIP)


def markers(path):
    lines = {}
    with open(path) as f:
        for n, text in enumerate(f, 1):
            for m in re.finditer(r"@line:(\w+)", text):
                lines[m.group(1)] = n
    return lines


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, **kw)


def build_id(path):
    out = run(["readelf", "-n", path]).stdout
    m = re.search(r"Build ID: ([0-9a-f]+)", out)
    if not m:
        die("no build-id in " + path)
    return m.group(1)


def split_debug(path, debuglink=True):
    """objcopy --only-keep-debug, then strip (with or without a debuglink)."""
    dbg = path + ".debug"
    run(["objcopy", "--only-keep-debug", path, dbg])
    cmd = ["objcopy", "--strip-all"]
    if debuglink:
        cmd.append("--add-gnu-debuglink=" + os.path.basename(dbg))
    run(cmd + [path], cwd=os.path.dirname(path))
    return dbg


def into_build_id_tree(root, elf, dbg):
    bid = build_id(elf)
    d = os.path.join(root, ".build-id", bid[:2])
    os.makedirs(d, exist_ok=True)
    dest = os.path.join(d, bid[2:] + ".debug")
    shutil.move(dbg, dest)
    return dest


def ensure_packages(pkgs, tools):
    """Install missing Debian packages when root; True when the tools exist."""
    if all(shutil.which(t) for t in tools):
        return True
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return False
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    cmd = ["apt-get", "install", "-y", "--no-install-recommends"] + pkgs
    if subprocess.run(cmd, env=env, capture_output=True).returncode != 0:
        subprocess.run(["apt-get", "update"], env=env, capture_output=True)
        subprocess.run(cmd, env=env, capture_output=True)
    return all(shutil.which(t) for t in tools)


def free_port(first, last):
    for port in range(first, last + 1):
        s = socket.socket()
        try:
            s.bind(("127.0.0.1", port))
            return s, port
        except OSError:
            s.close()
    skip("no free port in %d-%d" % (first, last))


class Prog:
    def __init__(self, args):
        self.args = args
        self.work = os.path.abspath(args.work)
        shutil.rmtree(self.work, ignore_errors=True)
        self.bin = os.path.join(self.work, "bin")
        os.makedirs(self.bin)
        self.prog = shutil.copy(args.prog, self.bin)
        self.lib = shutil.copy(args.lib, self.bin)
        nodebug = os.path.join(os.path.dirname(args.lib), "libsym_nodebug.so")
        self.nodebug = shutil.copy(nodebug, self.bin)

    def run(self, options="", env=None, timeout=120):
        jpath = os.path.join(self.work, "reports.jsonl")
        if os.path.exists(jpath):
            os.unlink(jpath)
        e = dict(os.environ)
        e.pop("DEBUGINFOD_URLS", None)
        e.update(env or {})
        e["LD_PRELOAD"] = self.args.preload
        e["LD_LIBRARY_PATH"] = self.bin  # the copies, stripped or not
        e["ULOCKDEP_OPTIONS"] = "json_path=%s:exitcode=0%s" % (jpath, options)
        start = time.monotonic()
        p = subprocess.run([self.prog], env=e, capture_output=True, text=True, timeout=timeout,
                           cwd=self.work)
        elapsed = time.monotonic() - start
        if p.returncode != 0 or "sym_abba: done" not in p.stdout:
            die("program failed (%d):\n%s" % (p.returncode, p.stderr[-3000:]))
        reports = [json.loads(l) for l in open(jpath)] if os.path.exists(jpath) else []
        reports = [r for r in reports if "kind" in r]  # skip the file's header record
        inv = [r for r in reports if r["kind"] == "lock-order-inversion"]
        if len(inv) != 1:
            die("expected one lock-order-inversion, got %s\n%s"
                % ([r["kind"] for r in reports], p.stderr[-3000:]))
        return inv[0], p.stderr, elapsed


def edge_stack(report, first_function):
    for e in report["cycle"]:
        if e["stack"] and e["stack"][0]["function"] == first_function:
            return e["stack"]
    die("no cycle edge whose stack starts in %s: %s"
        % (first_function, [e["stack"][:1] for e in report["cycle"]]))


def expected_frames(src):
    m = markers(os.path.join(src, "sym_abba.c"))
    lib = markers(os.path.join(src, "sym_lib.c"))
    # (function, file basename or None, line, inlined, module basename)
    t1 = [("take", "sym_abba.c", m["take"], True, "sym_abba"),
          ("a_then_b", "sym_abba.c", m["t1_take"], False, "sym_abba"),
          ("sym_nodebug_call", None, 0, False, "libsym_nodebug.so"),
          ("t1_start", "sym_abba.c", m["t1_call"], False, "sym_abba")]
    t2 = [("b_then_a_cb", "sym_abba.c", m["t2_a"], False, "sym_abba"),
          ("sym_lib_call", "sym_lib.c", lib["lib_call"], False, "libsym_dbg.so"),
          ("b_then_a", "sym_abba.c", m["t2_call"], False, "sym_abba")]
    return t1, t2


def base(p):
    return os.path.basename(p) if p else None


def check_frames(report, text, src, symbolised=True):
    """Every expected frame, in the JSON record and in the text report."""
    t1, t2 = expected_frames(src)
    for want in (t1, t2):
        stack = edge_stack(report, want[0][0] if symbolised else None)
        for i, (fn, f, line, inl, mod) in enumerate(want):
            got = stack[i]
            actual = (got["function"], base(got["file"]), got["line"], got.get("inlined"),
                      base(got["module"]))
            if actual != (fn, f, line, inl, mod):
                die("JSON frame #%d: expected %s, got %s" % (i, (fn, f, line, inl, mod), actual))
            if f:
                pat = r"#\d+\s+0x[0-9a-f]+ in %s%s \(\S*/%s:%d\)%s" % (
                    re.escape(fn), "" if inl else r"\+0x[0-9a-f]+", re.escape(f), line,
                    r" \[inlined\]" if inl else "")
            else:
                pat = r"#\d+\s+0x[0-9a-f]+ in %s\+0x[0-9a-f]+ \(\S*/%s\+0x[0-9a-f]+\)" % (
                    re.escape(fn), re.escape(mod))
            if not re.search(pat, text):
                die("text report has no frame matching %r\n%s" % (pat, text[-4000:]))
    # the acquisitions' source lines (the sources are readable here)
    for stmt in ("if (pthread_mutex_lock(m))", "take(&lock_b);", "pthread_mutex_lock(&lock_a);"):
        if not re.search(r"^\s+\| " + re.escape(stmt), text, re.M):
            die("text report does not show the source line %r\n%s" % (stmt, text[-4000:]))
    print("ok: %d frames checked in JSON and text" % (len(t1) + len(t2)))


def check_unsymbolised(report, what):
    """The program's own frames have no file:line (debug info not found)."""
    for e in report["cycle"]:
        for fr in e["stack"]:
            if base(fr["module"]) == "sym_abba" and fr["file"]:
                die("%s: found %s:%s, expected no debug info" % (what, fr["file"], fr["line"]))


def check_sarif(p, a):
    """ulockdep report --format sarif: the inlined body is a step of its code flow."""
    if not a.ulockdep:
        return
    out = os.path.join(p.work, "out.sarif")
    subprocess.run([a.ulockdep, "report", "--format", "sarif", "--output", out,
                    os.path.join(p.work, "reports.jsonl")], capture_output=True)
    doc = json.load(open(out))
    take = markers(os.path.join(a.source, "sym_abba.c"))["take"]
    steps = [tfl for r in doc["runs"][0]["results"] for cf in r.get("codeFlows", [])
             for tf in cf["threadFlows"] for tfl in tf["locations"]]
    inl = [t for t in steps if t.get("properties", {}).get("inlined")]
    if len(inl) != 1:
        die("SARIF: expected one inlined code-flow step, got %d" % len(inl))
    loc = inl[0]["location"]
    line = loc["physicalLocation"]["region"]["startLine"]
    if line != take or "[inlined]" not in loc["message"]["text"]:
        die("SARIF: inlined step %s, expected line %d" % (json.dumps(loc), take))
    print("ok: SARIF code flow has the inlined step at sym_abba.c:%d" % take)


def mode_plain(p, a):
    rep, text, _ = p.run()
    check_frames(rep, text, a.source)
    check_sarif(p, a)


def mode_debuglink(p, a):
    split_debug(p.prog)
    split_debug(p.lib)
    rep, text, _ = p.run()
    check_frames(rep, text, a.source)


def build_id_setup(p, root):
    for elf in (p.prog, p.lib):
        into_build_id_tree(root, elf, split_debug(elf, debuglink=False))


def mode_build_id(p, a):
    root = os.path.join(p.work, "debugroot")
    build_id_setup(p, root)
    rep, _, _ = p.run()
    check_unsymbolised(rep, "without debug_dir")
    rep, text, _ = p.run(":debug_dir=" + root)
    check_frames(rep, text, a.source)


def mode_dwz(p, a):
    if not ensure_packages(["dwz"], ["dwz"]):
        skip("dwz is not installed (Debian package dwz)")
    root = os.path.join(p.work, "debugroot")
    dbgs = [split_debug(elf, debuglink=False) for elf in (p.prog, p.lib)]
    common = os.path.join(p.work, "common.debug")
    r = subprocess.run(["dwz", "-m", common, "-M", "/nonexistent/common.debug"] + dbgs,
                       capture_output=True, text=True)
    if r.returncode != 0 or not os.path.exists(common):
        die("dwz failed: " + r.stderr)
    for elf, dbg in zip((p.prog, p.lib), dbgs):
        if ".gnu_debugaltlink" not in run(["readelf", "-S", dbg]).stdout:
            die("dwz left no .gnu_debugaltlink in " + dbg)
        into_build_id_tree(root, elf, dbg)
    into_build_id_tree(root, common, common)  # found by its build-id, not its path
    rep, text, _ = p.run(":debug_dir=" + root)
    check_frames(rep, text, a.source)


def start_debuginfod(p, served):
    if not ensure_packages(["debuginfod"], ["debuginfod"]):
        skip("debuginfod is not installed (Debian package debuginfod)")
    sock, port = free_port(22410, 22999)
    sock.close()
    log = open(os.path.join(p.work, "debuginfod.log"), "w")
    server = subprocess.Popen(["debuginfod", "-p", str(port), "-F", "-d",
                               os.path.join(p.work, "debuginfod.sqlite"), "-t", "1", served],
                              stdout=log, stderr=subprocess.STDOUT)
    url = "http://127.0.0.1:%d" % port
    bid = build_id(p.prog)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # until it has indexed the debug file
        if server.poll() is not None:
            die("debuginfod exited: see " + log.name)
        try:
            urllib.request.urlopen("%s/buildid/%s/debuginfo" % (url, bid), timeout=2).read()
            return server, url
        except Exception:
            time.sleep(0.5)
    server.kill()
    die("debuginfod did not serve the debug file within 60 s")


def mode_debuginfod(p, a):
    served = os.path.join(p.work, "served")
    os.makedirs(served)
    for elf in (p.prog, p.lib):
        shutil.move(split_debug(elf, debuglink=False), served)
    server, url = start_debuginfod(p, served)
    try:
        env = {"DEBUGINFOD_URLS": url,
               "DEBUGINFOD_CACHE_PATH": os.path.join(p.work, "cache")}
        rep, text, _ = p.run(":symbolize_timeout=30", env)
        check_frames(rep, text, a.source)
    finally:
        server.kill()
        server.wait()


def mode_debuginfod_timeout(p, a):
    split_debug(p.prog, debuglink=False)
    os.unlink(p.prog + ".debug")
    sock, port = free_port(22410, 22999)
    sock.listen(16)  # accepts connections, never answers
    try:
        env = {"DEBUGINFOD_URLS": "http://127.0.0.1:%d" % port,
               "DEBUGINFOD_CACHE_PATH": os.path.join(p.work, "cache")}
        rep, text, elapsed = p.run(":symbolize_timeout=2", env, timeout=100)
    finally:
        sock.close()
    check_unsymbolised(rep, "no debuginfod answer")
    said = text.count("debuginfod gave no debug file")
    if said != 1:
        die("expected the time-out said once, said %d times\n%s" % (said, text[-3000:]))
    if elapsed > 40:
        die("the report took %.0f s with symbolize_timeout=2" % elapsed)
    if not re.search(r"in \?\? \(\S*/sym_abba\+0x[0-9a-f]+\)|in \S+\+0x[0-9a-f]+ \(\S*/sym_abba\+0x",
                     text):
        die("frames of the stripped program are not shown as module+offset\n" + text[-3000:])
    print("ok: no answer, report after %.1f s, said once, module+offset" % elapsed)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--preload", required=True)
    ap.add_argument("--prog", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--mode", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--ulockdep", help="the ulockdep command, for the SARIF check")
    a = ap.parse_args()
    for tool in ("objcopy", "readelf"):
        if not shutil.which(tool):
            skip(tool + " is not installed (Debian package binutils)")
    p = Prog(a)
    modes = {"plain": mode_plain, "debuglink": mode_debuglink, "build-id": mode_build_id,
             "dwz": mode_dwz, "debuginfod": mode_debuginfod,
             "debuginfod-timeout": mode_debuginfod_timeout}
    if a.mode not in modes:
        print("unknown mode " + a.mode)
        return 2
    modes[a.mode](p, a)
    return 0


if __name__ == "__main__":
    sys.exit(main())
