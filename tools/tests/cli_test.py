#!/usr/bin/env python3
"""cli_test.py - tests of the `ulockdep` command on hand-written fixtures (python3, stdlib).

usage: cli_test.py --ulockdep BIN [--valgrind] CASE...   (CASE "all": every case)

Each case copies tools/tests/fixtures into a scratch directory, replacing @CWD@ with
that directory (so "under the current directory" paths exist), runs the command there
and checks exit status, stdout (against tools/tests/expected/<name> where golden) and
stderr.  Outputs are compared with the scratch path turned back into @CWD@.
ULD_UPDATE_GOLDEN=1 rewrites the expected files instead of comparing.
With --valgrind every command runs under valgrind (leaks and errors fail the case).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sarif_check  # noqa: E402

ARGS = None
CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


class Env:
    """A scratch copy of the fixtures and a way to run the command in it."""

    def __init__(self):
        self.dir = os.path.realpath(tempfile.mkdtemp(prefix="uld-cli-"))
        src = os.path.join(HERE, "fixtures")
        for root, _, files in os.walk(src):
            rel = os.path.relpath(root, src)
            os.makedirs(os.path.join(self.dir, rel), exist_ok=True)
            for name in files:
                with open(os.path.join(root, name), encoding="utf-8") as f:
                    text = f.read().replace("@CWD@", self.dir)
                with open(os.path.join(self.dir, rel, name), "w", encoding="utf-8") as f:
                    f.write(text)

    def run(self, *args, env=None):
        cmd = [ARGS.ulockdep, *args]
        if ARGS.valgrind:
            cmd = ["valgrind", "-q", "--error-exitcode=99", "--leak-check=full",
                   "--show-leak-kinds=definite,indirect",
                   "--errors-for-leak-kinds=definite,indirect"] + cmd
        full_env = dict(os.environ)
        full_env.update(env or {})
        p = subprocess.run(cmd, cwd=self.dir, capture_output=True, text=True, env=full_env,
                           timeout=300)
        out = p.stdout.replace(self.dir, "@CWD@")
        err = p.stderr.replace(self.dir, "@CWD@")
        if p.returncode == 99 and ARGS.valgrind:
            raise AssertionError(f"valgrind found errors in {' '.join(args)}:\n{err}")
        return p.returncode, out, err

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def write(self, name, text):
        with open(self.path(name), "w", encoding="utf-8") as f:
            f.write(text)

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def expect(cond, what, *details):
    if not cond:
        raise AssertionError("\n".join([what, *[str(d) for d in details]]))


def golden(name, actual):
    path = os.path.join(HERE, "expected", name)
    if os.environ.get("ULD_UPDATE_GOLDEN"):
        with open(path, "w", encoding="utf-8") as f:
            f.write(actual)
        return
    with open(path, encoding="utf-8") as f:
        want = f.read()
    if want != actual:
        import difflib
        diff = "".join(difflib.unified_diff(want.splitlines(True), actual.splitlines(True),
                                            f"expected/{name}", "actual"))
        raise AssertionError(f"output differs from expected/{name}:\n{diff}")


def json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


# ---- report -------------------------------------------------------------------------

@case
def report_text(e):
    rc, out, err = e.run("report", "reports")
    expect(rc == 1, f"exit status {rc}, want 1 (errors found)", err)
    expect(err == "", "unexpected stderr", err)
    golden("report_text.txt", out)


@case
def report_json_dedup(e):
    rc, out, err = e.run("report", "--format", "json", "reports/run1.jsonl", "reports/run2.jsonl",
                         "reports/run3.jsonl")
    expect(rc == 1, f"exit status {rc}", err)
    reps = json_lines(out)
    kinds = [r["kind"] for r in reps]
    expect(kinds == ["lock-order-inversion", "self-deadlock", "class-order-inversion",
                     "exit-holding"], "wrong reports or order", kinds)
    expect(reps[0]["processes"] == [4242, 4243], "signature dedup across files",
           reps[0]["processes"])
    expect(reps[0]["pid"] == 4242 and reps[0]["thread"]["tid"] == 4244,
           "the first occurrence is kept")
    expect(reps[3]["processes"] == [4243, 4250], "fallback dedup (kind + lock names)",
           reps[3]["processes"])
    golden("report_json.jsonl", out)
    # "ulockdep report: 4 reports (3 errors, 1 warning) from 3 processes in 3 files"
    expect("4 reports (3 errors, 1 warning) from 3 processes in 3 files" in err, "summary", err)


@case
def report_github(e):
    rc, out, err = e.run("report", "--format", "github", "reports", "github")
    expect(rc == 1, f"exit status {rc}", err)
    golden("report_github.txt", out)
    lines = out.splitlines()
    expect(len(lines) == 6, "one command per report", out)
    odd = [l for l in lines if "unlock-not-owner" in l][0]
    expect(odd.startswith("::error file=src/a%2Cb%3Ac%25.c,line=7,title=ulockdep unlock-not-owner::"),
           "property escaping (, : %) and relative path", odd)
    expect("100%25 sure%0D%0Asecond line: l,1:x" in odd, "data escaping (% CR LF, not , :)", odd)
    expect(any(l.startswith("::warning title=ulockdep limit-reached::") for l in lines),
           "a warning without a location", out)


@case
def report_sarif(e):
    rc, out, err = e.run("report", "--format", "sarif", "--output", "out.sarif", "reports")
    expect(rc == 1, f"exit status {rc}", err)
    expect(out == "", "--output: nothing on stdout", out)
    with open(e.path("out.sarif"), encoding="utf-8") as f:
        doc = json.load(f)
    sarif_check.check(doc)
    run = doc["runs"][0]
    ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    expect(ids == ["lock-order-inversion", "self-deadlock", "class-order-inversion",
                   "exit-holding"], "one rule per kind that occurs", ids)
    res = run["results"]
    expect([r["level"] for r in res] == ["error", "error", "warning", "error"], "levels")
    loi = res[0]
    loc = loi["locations"][0]["physicalLocation"]
    expect(loc["artifactLocation"]["uri"] == "src/abba.c" and loc["region"]["startLine"] == 31,
           "site relative to the current directory", loc)
    rel = loi["relatedLocations"]
    expect([r["message"]["text"] for r in rel] ==
           ["lock_b -> lock_a, thread T2 (abba)", "lock_a -> lock_b, thread T1"],
           "related locations name the edges", rel)
    flows = loi["codeFlows"][0]["threadFlows"]
    expect(len(flows) == 2 and len(flows[0]["locations"]) == 2, "one thread flow per edge", flows)
    expect(loi["partialFingerprints"]["ulockdepSignature/v1"] == "24fbd65ce897dd2d", "fingerprint")
    self_dl = res[1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    expect(self_dl == "file:///opt/src/lib%20table.c", "absolute file:// uri outside cwd", self_dl)
    expect(res[1]["message"]["text"] == "possible recursive locking detected: table+0x28",
           "message text", res[1]["message"])
    art = loc["artifactLocation"]
    expect(art.get("uriBaseId") == "SRCROOT" and run["originalUriBaseIds"]["SRCROOT"]["uri"] ==
           "file://" + e.dir + "/", "relative URIs name the source root (default: here)", art,
           run.get("originalUriBaseIds"))
    expect("uriBaseId" not in res[1]["locations"][0]["physicalLocation"]["artifactLocation"],
           "an absolute URI has no base")
    # --source-root: a CI checkout elsewhere than the current directory
    os.makedirs(e.path("src"), exist_ok=True)
    rc, out, err = e.run("report", "--format", "sarif", "--source-root", "src", "reports")
    doc = json.loads(out)
    sarif_check.check(doc)
    run = doc["runs"][0]
    art = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    expect(art == {"uri": "abba.c", "uriBaseId": "SRCROOT"} and
           run["originalUriBaseIds"]["SRCROOT"]["uri"] == "file://@CWD@/src/",
           "relative to --source-root", art, run["originalUriBaseIds"])


@case
def report_malformed(e):
    rc, out, err = e.run("report", "bad/mixed.jsonl")
    errs = err.splitlines()
    expect(errs[0].startswith("ulockdep: bad/mixed.jsonl:2: invalid JSON at column "),
           "names file and line", err)
    expect(errs[1] == 'ulockdep: bad/mixed.jsonl:3: not a ulockdep report (no "kind" string); '
           "line skipped", "non-object line", err)
    expect(errs[2].startswith("ulockdep: bad/mixed.jsonl:5: not a ulockdep report"), "", err)
    expect("unlock-not-held" in out and "limit-reached" in out, "the good lines still count", out)
    expect(rc == 1, f"exit status {rc}: errors found win over malformed lines", err)
    rc, out, err = e.run("report", "bad/warning_only.jsonl")
    expect(rc == 2, f"exit status {rc}: malformed input and no error => 2", err)
    expect("bad/warning_only.jsonl:2:" in err and "1 malformed line skipped" in out, "", err, out)
    e.write("many.jsonl", "not json\n" * 25)
    rc, out, err = e.run("report", "many.jsonl")
    errs = err.splitlines()
    expect(len(errs) == 11 and errs[9].startswith("ulockdep: many.jsonl:10: invalid JSON")
           and errs[10] == "ulockdep: many.jsonl: 15 more malformed lines skipped",
           "at most 10 error lines per file", err)
    expect(rc == 2 and "25 malformed lines skipped" in out, "all counted", out)
    rc, out, err = e.run("report", "graphs/cross/a.graph")
    expect(rc == 2 and err.startswith("ulockdep: graphs/cross/a.graph: a graph dump, not "
                                      "reports"), "a graph dump given to report", err)
    rc, reps, err = merge_json(e, "reports/run1.jsonl")
    expect(rc == 2 and "reports, not a graph dump" in err, "reports given to merge", err)


@case
def report_usage(e):
    rc, _, err = e.run("report", "--format", "xml", "reports")
    expect(rc == 2 and "unknown format 'xml'" in err, "bad format", rc, err)
    rc, _, err = e.run("report")
    expect(rc == 2 and "no input given" in err, "no input", rc, err)
    rc, _, err = e.run("report", "missing.jsonl")
    expect(rc == 2 and "missing.jsonl: No such file or directory" in err, "missing file", err)
    rc, _, err = e.run("report", "--suppressions", "missing.supp", "reports")
    expect(rc == 2 and "suppressions file missing.supp" in err, "missing suppressions", err)
    os.mkdir(e.path("empty"))
    rc, _, err = e.run("report", "empty")
    expect(rc == 2 and "empty: no *.jsonl file in this directory" in err, "empty dir", err)
    rc, _, err = e.run("merge", "reports")
    expect(rc == 2 and "reports: no *.graph file in this directory" in err, "no dumps", err)
    rc, out, _ = e.run("report", "--help")
    expect(rc == 0 and "--gen-suppressions" in out, "report --help")


# ---- suppressions ---------------------------------------------------------------------

@case
def suppress_drop(e):
    e.write("s1.supp", "# the known inversion\nlock-order-inversion:lock_a\n"
            "exit-holding:*worker.c\n")
    rc, out, err = e.run("report", "--suppressions", "s1.supp", "--format", "json", "reports")
    kinds = [r["kind"] for r in json_lines(out)]
    expect(kinds == ["self-deadlock", "class-order-inversion"], "two dropped", kinds)
    expect(rc == 1 and "; 2 suppressed" in err, "still an error; summary counts", rc, err)
    e.write("s2.supp", "self-deadlock:/opt/src/lib table.c\n")  # a file path, with a space
    rc, out, err = e.run("report", "--suppressions", "s1.supp", "--suppressions", "s2.supp",
                         "reports")
    expect(rc == 0, f"exit status {rc}: only a warning is left", out)
    expect(out.rstrip().endswith("1 report (0 errors, 1 warning) from 3 processes in 3 files; "
                                 "3 suppressed"), "summary", out)
    e.write("s3.supp", "*:thread_?\nclass-order-inversion:account_new:17\n*:libtable.so\n"
            "*:stats%lock\n")
    rc, out, err = e.run("report", "--suppressions", "s3.supp", "reports")
    expect(rc == 1 and "; 3 suppressed" in out, "module basename must not match; class name "
           "with ':' does", out)


@case
def suppress_malformed(e):
    e.write("bad.supp", "# comment\n\nno colon here\nbogus-kind:x\nself-deadlock:\n"
            "  *  :  table+0x28  \n:lock_a\n")
    rc, out, err = e.run("report", "--suppressions", "bad.supp", "--format", "json", "reports")
    errs = err.splitlines()
    expect(errs[:4] == ["ulockdep: bad.supp:3: expected KIND:PATTERN; line ignored",
                        "ulockdep: bad.supp:4: unknown report kind; line ignored",
                        "ulockdep: bad.supp:5: empty kind or pattern; line ignored",
                        "ulockdep: bad.supp:7: empty kind or pattern; line ignored"],
           "one error line per malformed line", err)
    kinds = [r["kind"] for r in json_lines(out)]
    expect("self-deadlock" not in kinds and len(kinds) == 3, "the rest applies", kinds)
    expect(rc == 1, "exit status follows the reports", rc)


@case
def gen_suppressions(e):
    rc, out, err = e.run("report", "--gen-suppressions", "reports", "github")
    expect(rc == 0, f"exit status {rc}", err)
    golden("gen_suppressions.txt", out)
    e.write("gen.supp", out)
    rc, out2, err = e.run("report", "--suppressions", "gen.supp", "reports", "github")
    expect(rc == 0, f"exit status {rc} with the generated file", out2, err)
    expect(err == "", "the generated file parses cleanly", err)
    # limit-reached has no lock and no frame: nothing for a pattern to match (as in lib/)
    expect(out2.startswith("ulockdep: limit-reached (warning)")
           and out2.endswith("1 report (0 errors, 1 warning) from 4 processes in 4 files; "
                             "5 suppressed\n"), "every other report suppressed", out2)
    rc, out3, _ = e.run("report", "--suppressions", "gen.supp", "reports")
    expect(rc == 0 and out3.startswith("ulockdep report: 0 reports (0 errors, 0 warnings)")
           and "; 4 suppressed" in out3, "every report suppressed", out3)
    # each generated entry suppresses exactly its report
    entries = [l for l in out.splitlines() if l and not l.startswith("#")]
    expect(len(entries) == 5, "one entry per report with something to match", entries)
    for entry in entries:
        e.write("one.supp", entry + "\n")
        rc, out3, _ = e.run("report", "--suppressions", "one.supp", "reports", "github")
        expect("; 1 suppressed" in out3, f"{entry} suppresses exactly one report", out3)


# ---- merge --------------------------------------------------------------------------

def merge_json(e, *inputs):
    rc, out, err = e.run("merge", "--format", "json", *inputs)
    return rc, json_lines(out), err


@case
def merge_cross(e):
    rc, reps, err = merge_json(e, "graphs/cross/a.graph", "graphs/cross/b.graph")
    expect(rc == 1, f"exit status {rc}", err)
    expect(len(reps) == 1, "exactly one cross-run cycle", reps)
    r = reps[0]
    expect(r["kind"] == "cross-run-cycle" and r["severity"] == "error", "kind", r)
    expect(sorted(c["name"] for c in r["classes"]) == ["X", "Y"], "names X and Y", r["classes"])
    edges = {(c["from_name"], c["to_name"]): c for c in r["cycle"]}
    expect(set(edges) == {("X", "Y"), ("Y", "X")}, "both edges", edges.keys())
    xy, yx = edges[("X", "Y")], edges[("Y", "X")]
    expect((xy["file"], xy["program"], xy["pid"]) == ("graphs/cross/a.graph",
                                                      "/opt/ci/bin/test_a", 100), "X->Y from A", xy)
    expect((yx["file"], yx["program"], yx["pid"]) == ("graphs/cross/b.graph",
                                                      "/opt/ci/bin/test_b", 200), "Y->X from B", yx)
    expect(yx["stack"][0]["function"] == "take_yx", "the edge's stack", yx["stack"])
    expect(r["processes"] == [200, 100] or r["processes"] == [100, 200], "pids", r["processes"])
    rc, out, err = e.run("merge", "graphs/cross")  # a directory, text output
    expect(rc == 1, f"exit status {rc}", err)
    golden("merge_cross.txt", out)


@case
def merge_none(e):
    for d in ("same", "gated", "readread", "single"):
        rc, reps, err = merge_json(e, f"graphs/{d}")
        expect(rc == 0 and reps == [], f"{d}: no cross-run cycle", rc, reps, err)
        expect(err.startswith("ulockdep merge: 0 reports"), f"{d}: summary", err)


@case
def merge_rules(e):
    """Controls for merge_none: a different gate, and read-read against write-write."""
    for d in ("gated_differ", "readwrite"):
        rc, reps, err = merge_json(e, f"graphs/{d}")
        expect(rc == 1 and len(reps) == 1, f"{d}: one cycle", rc, reps, err)
    rc, reps, err = merge_json(e, "graphs/three")
    expect(rc == 1 and len(reps) == 1, "a three-class cycle over three dumps", reps)
    expect(sorted(c["name"] for c in reps[0]["classes"]) == ["X", "Y", "Z"], "X Y Z", reps)
    expect(sorted(c["pid"] for c in reps[0]["cycle"]) == [100, 200, 300], "one edge per dump")
    # merging everything still reports each class set once
    rc, reps, err = merge_json(e, *[f"graphs/{d}" for d in
                                    ("cross", "same", "readwrite", "three")])
    keys = sorted(tuple(sorted(c["name"] for c in r["classes"])) for r in reps)
    expect(keys == [("X", "Y"), ("X", "Y", "Z")], "deduplicated by class set", keys)


@case
def merge_formats(e):
    rc, out, err = e.run("merge", "--format", "sarif", "graphs/cross", "graphs/three")
    expect(rc == 1, f"exit status {rc}", err)
    doc = json.loads(out)
    sarif_check.check(doc)
    res = doc["runs"][0]["results"]
    expect(len(res) == 2 and all(r["ruleId"] == "cross-run-cycle" for r in res), "", res)
    related = [l["message"]["text"] for l in res[0]["relatedLocations"]]
    expect(related[0].startswith("X -> Y, pid 100 (/opt/ci/bin/test_a)"), "edge label", related)
    rc, out, err = e.run("merge", "--format", "github", "graphs/cross")
    expect(out == "::error file=src/shared.c,line=21,title=ulockdep cross-run-cycle::lock order "
           "cycle across processes: X -> Y -> X\n", "github", out)
    e.write("cross.supp", "cross-run-cycle:X\n")
    rc, out, err = e.run("merge", "--suppressions", "cross.supp", "graphs/cross")
    expect(rc == 0 and "; 1 suppressed" in out, "suppressed cross-run cycle", rc, out)


@case
def merge_malformed(e):
    rc, reps, err = merge_json(e, "graphs/bad", "graphs/cross/b.graph")
    errs = err.splitlines()
    expect(errs[:5] == [
        "ulockdep: graphs/bad/a.graph:3: edge type is not one of EN, ER, SN, SR; line skipped",
        "ulockdep: graphs/bad/a.graph:4: not a class, edge, cycle or end line; line skipped",
        "ulockdep: graphs/bad/a.graph:5: invalid JSON at column 44: expected ',' or '}' in an "
        "object; line skipped",
        "ulockdep: graphs/bad/noheader.graph:1: not a ulockdep graph dump (the first line is "
        "not its header); file skipped",
        "ulockdep: graphs/bad/version2.graph:1: unsupported graph dump version (this tool reads "
        "version 1); file skipped"], "errors name file and line", err)
    expect(len(reps) == 1 and rc == 1, "the good lines still merge", reps)
    rc, reps, err = merge_json(e, "graphs/bad/noheader.graph")
    expect(rc == 2 and reps == [], f"exit status {rc}: unreadable input", err)


def gen_dump(path, pid, rng, nclasses=8, nedges=10, live=True, end=True):
    """A random graph dump: classes K0..Kn (some static, some with max_live), random edges."""
    keys = [f"prog@0x{0x4000 + 0x40 * i:x}" for i in range(nclasses)]
    lines = [{"type": "ulockdep-graph", "version": 1, "pid": pid, "program": f"/bin/t{pid}",
              "incremental": True}]
    for i, k in enumerate(keys):
        c = {"type": "class", "key": k, "name": f"K{i}", "lock_type": "mutex",
             "site": "static" if i % 3 == 0 else "init", "at": None}
        if live and i % 3 != 0:
            c["max_live"] = 1 if rng.random() < 0.7 else 2
        lines.append(c)
    for _ in range(nedges):
        a, b = rng.sample(range(nclasses), 2)
        types = rng.sample(["EN", "ER", "SN", "SR"], rng.choice([1, 1, 1, 2]))
        gates = [keys[g] for g in rng.sample(range(nclasses), rng.choice([0, 0, 0, 1]))
                 if g not in (a, b)]
        lines.append({"type": "edge", "from": keys[a], "to": keys[b], "types": types,
                      "gates": gates, "from_acquired_at": None,
                      "stack": [{"address": "0x1", "function": f"f{a}_{b}", "file": "t.c",
                                 "line": 1, "module": "/bin/t"}]})
    if end:
        lines.append({"type": "end"})
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(json.dumps(l) + "\n" for l in lines))


def found(e, *args):
    """What merge finds: {(kind, sorted class keys)}."""
    rc, reps, err = merge_json(e, *args)
    expect(rc in (0, 1), f"merge {args}: exit status {rc}", err)
    return {(r["kind"], tuple(sorted(c["key"] for c in r["classes"]))) for r in reps}


@case
def merge_write_graph(e):
    """merge --write-graph: associative and idempotent on generated dumps."""
    import random
    rng = random.Random(7)
    nonempty = 0
    trials = 1 if ARGS.valgrind else 12  # each trial runs the command a dozen times
    for trial in range(trials):
        names = []
        for i in range(4):
            names.append(f"t{trial}_{i}.graph")
            gen_dump(e.path(names[-1]), 100 * trial + i, rng)
        a, b, c, d = names
        direct = found(e, a, b, c, d)
        nonempty += bool(direct)
        rc, _, err = e.run("merge", "--write-graph", "ab.graph", a, b)
        expect(rc in (0, 1) and os.path.exists(e.path("ab.graph")), "ab written", err)
        e.run("merge", "--write-graph", "cd.graph", c, d)
        e.run("merge", "--write-graph", "abc.graph", "ab.graph", c)
        expect(found(e, "ab.graph", "cd.graph") == direct, f"trial {trial}: (ab)(cd)",
               found(e, "ab.graph", "cd.graph"), direct)
        expect(found(e, "abc.graph", d) == direct, f"trial {trial}: ((ab)c)d")
        expect(found(e, a, b) == found(e, "ab.graph"), f"trial {trial}: merged alone")
        expect(found(e, "ab.graph", "ab.graph") == found(e, "ab.graph"), "W with itself")
        expect(found(e, a, a) == set(), "a dump with itself adds nothing")
        e.run("merge", "--write-graph", "ab2.graph", "ab.graph", "ab.graph")
        expect(found(e, "ab2.graph", c, d) == direct, "merging a merged dump twice")
    expect(nonempty >= trials // 3, "the generated dumps give cross-run cycles", nonempty)
    rc, out, err = e.run("graph", "ab.graph")
    expect(rc == 0 and out.startswith("ulockdep graph: "), "graph reads a merged dump", err)


def dump_lines(e, name, pid, edges, classes=(), end=True, extra=None):
    lines = [{"type": "ulockdep-graph", "version": 1, "pid": pid, "program": f"/bin/p{pid}",
              "incremental": True, **(extra or {})}]
    lines += [{"type": "class", **c} for c in classes]
    lines += [{"type": "edge", "from": a, "to": b, "types": ["EN"], "gates": [],
               "from_acquired_at": None, "stack": []} for a, b in edges]
    if end:
        lines.append({"type": "end"})
    os.makedirs(os.path.dirname(e.path(name)), exist_ok=True)
    e.write(name, "".join(json.dumps(l) + "\n" for l in lines))


@case
def merge_baseline(e):
    """Only cycles that need an edge of this run; the baseline's own cycles stay quiet."""
    st = [{"key": k, "name": k, "lock_type": "mutex", "site": "static"} for k in "ABCD"]
    dump_lines(e, "main1.graph", 1, [("A", "B"), ("C", "D")], st)
    dump_lines(e, "main2.graph", 2, [("D", "C")], st)  # main itself has C<->D
    rc, _, err = e.run("merge", "--write-graph", "base.graph", "main1.graph", "main2.graph")
    expect(rc == 1, "main's own cross-run cycle C/D", rc, err)
    dump_lines(e, "pr.graph", 3, [("B", "A")], st)
    dump_lines(e, "pr_clean.graph", 4, [("A", "C")], st)
    rc, reps, err = merge_json(e, "--baseline", "base.graph", "pr.graph")
    expect(rc == 1 and len(reps) == 1, "the PR closes A/B against main", rc, reps, err)
    r = reps[0]
    expect(sorted(c["key"] for c in r["classes"]) == ["A", "B"], "only A/B, not C/D", r)
    base = {(c["from"], c["to"]): c["baseline"] for c in r["cycle"]}
    expect(base == {("A", "B"): True, ("B", "A"): False}, "which edge is the baseline's", base)
    expect("and a baseline of 2" in err, "summary names the baseline", err)
    rc, reps, err = merge_json(e, "pr.graph")
    expect(rc == 0 and reps == [], "without the baseline the PR alone is clean", reps)
    rc, reps, err = merge_json(e, "--baseline", "base.graph", "pr_clean.graph")
    expect(rc == 0 and reps == [], "a PR with a compatible order passes", reps, err)
    rc, _, err = e.run("report", "--baseline", "base.graph", "reports")
    expect(rc == 2 and "options of merge" in err, "report refuses --baseline", err)


@case
def merge_severity(e):
    """Error when every class is one object, else the cross-run-class-cycle warning."""
    def cls(k, live, site="init"):
        c = {"key": k, "name": k, "lock_type": "mutex", "site": site}
        if live is not None:
            c["max_live"] = live
        return c
    dump_lines(e, "one/a.graph", 1, [("S", "T")], [cls("S", 1), cls("T", 1)])
    dump_lines(e, "one/b.graph", 2, [("T", "S")], [cls("S", 1), cls("T", None, "static")])
    dump_lines(e, "many/a.graph", 1, [("S", "T")], [cls("S", 1), cls("T", 3)])
    dump_lines(e, "many/b.graph", 2, [("T", "S")], [cls("S", 1), cls("T", 1)])
    dump_lines(e, "old/a.graph", 1, [("S", "T")], [cls("S", None), cls("T", 1)])
    dump_lines(e, "old/b.graph", 2, [("T", "S")], [cls("S", 1), cls("T", 1)])
    rc, reps, err = merge_json(e, "one")
    expect(rc == 1 and [r["kind"] for r in reps] == ["cross-run-cycle"], "one object each",
           reps, err)
    for d in ("many", "old"):
        rc, reps, err = merge_json(e, d)
        expect(rc == 0 and [(r["kind"], r["severity"]) for r in reps] ==
               [("cross-run-class-cycle", "warning")], f"{d}: a class warning", reps, err)
    rc, out, err = e.run("merge", "many")
    expect("ulockdep WARNING: lock class order cycle across processes [cross-run-class-cycle]"
           in out and "T: T, mutex, init [many]" in out, "text marks the class", out)
    rc, reps, err = merge_json(e, "--baseline", "many/a.graph", "many/b.graph")
    expect(rc == 0 and len(reps) == 1, "--baseline fails on errors only", rc, reps)


@case
def merge_fleet(e):
    """Dumps cut short by a kill, and processes that left reports but no graph."""
    st = [{"key": k, "name": k, "lock_type": "mutex", "site": "static"} for k in "XY"]
    dump_lines(e, "fleet/ulockdep.10.graph", 10, [("X", "Y")], st)
    dump_lines(e, "fleet/ulockdep.11.graph", 11, [("Y", "X")], st, end=False)
    for pid in (10, 11, 12, 13):
        e.write(f"fleet/ulockdep.{pid}.jsonl", json.dumps(
            {"type": "ulockdep-reports", "version": 1, "pid": pid, "program": "/bin/p"}) + "\n")
    rc, reps, err = merge_json(e, "fleet")
    expect(rc == 1 and len(reps) == 1, "the killed process's edge still counts", reps, err)
    expect("from 2 graph dumps (2 lock classes); 1 dump incomplete (process killed before "
           "exit); 2 processes left reports but no graph" in err, "the summary says so", err)
    rc, out, err = e.run("report", "fleet")
    expect("2 processes left reports but no graph" in out, "report says so too", out, err)


# ---- graph --------------------------------------------------------------------------

def long_cycle_dumps(e, n):
    """Two dumps: one takes classes C0..C{n-1} in order, the other C{n-1} then C0."""
    def cls(i):
        return json.dumps({"type": "class", "key": f"lib.so@0x{i:x}", "name": f"C{i}",
                           "lock_type": "mutex", "site": "static", "at": None})

    def edge(a, b):
        return json.dumps({"type": "edge", "from": f"lib.so@0x{a:x}", "to": f"lib.so@0x{b:x}",
                           "types": ["EN"], "gates": [], "from_acquired_at": None, "stack": []})
    head = '{"type":"ulockdep-graph","version":1,"pid":%d,"program":"/bin/t%d"}'
    e.write("long_a.graph", "\n".join([head % (1, 1)] + [cls(i) for i in range(n)] +
                                      [edge(i, i + 1) for i in range(n - 1)]) + "\n")
    e.write("long_b.graph", "\n".join([head % (2, 2), cls(0), cls(n - 1), edge(n - 1, 0)]) + "\n")


@case
def merge_long_cycle(e):
    """A cycle longer than a report shows (64 classes) is one report, not one per edge."""
    long_cycle_dumps(e, 300)
    rc, reps, err = merge_json(e, "long_a.graph", "long_b.graph")
    expect(rc == 1 and len(reps) == 1, f"one report for the 300-class cycle, got {len(reps)}",
           err[-500:])
    expect(len(reps[0]["cycle"]) <= 65, "cut to 64 classes", len(reps[0]["cycle"]))
    rc, out, err = e.run("graph", "long_a.graph", "long_b.graph")
    expect(out.count("cycle") < 10, "graph: one cycle listed", out[-800:])


@case
def parse_endless_lines(e):
    """A line without an end (a binary file, /dev/zero) is capped, named and ends the file."""
    env = {"ULOCKDEP_LINE_MAX": "4096"}
    e.write("zeros.jsonl", "\0" * 10000)
    e.write("long.jsonl", "x" * 10000 + "\n")
    for cmd, path in (("report", "zeros.jsonl"), ("report", "long.jsonl"),
                      ("graph", "zeros.jsonl")):
        rc, out, err = e.run(cmd, path, env=env)
        expect(rc == 2 and f"{path}:1: line longer than 4096 bytes; rest of the file skipped"
               in err, f"{cmd} {path}: named and skipped (exit {rc})", err)
    rc, out, err = e.run("report", "/dev/zero")  # the real cap, an endless input
    expect(rc == 2 and "/dev/zero:1: line longer than 16777216 bytes" in err,
           "report /dev/zero ends", err)


@case
def suppress_nul_byte(e):
    """A NUL byte in a suppression file costs its line only."""
    e.write("nul.supp", "self-deadlock:x\0y\nlock-order-inversion:lock_a\n")
    rc, out, err = e.run("report", "--format", "json", "--suppressions", "nul.supp",
                         "reports/run1.jsonl")
    expect("nul.supp:1: contains a NUL byte; line ignored" in err, "the line is named", err)
    names = [sorted(l["name"] for l in r.get("locks", [])) for r in json_lines(out)]
    expect(["lock_a", "lock_b"] not in names, "the entry after the NUL still applies", names)


@case
def graph_dot(e):
    rc, out, err = e.run("graph", "--dot", "graphs/cross", "graphs/same/a.graph")
    expect(rc == 0, f"exit status {rc}", err)
    golden("graph_cross.dot", out)
    red = [l for l in out.splitlines() if "color=red" in l]
    expect(len(red) == 2 and any(l.strip().startswith("c0 -> c1") for l in red)
           and any(l.strip().startswith("c1 -> c0") for l in red), "the cycle in red", red)
    rc, out, err = e.run("graph", "--dot", "graphs/gated")
    expect("color=red" not in out and 'gates: gate_new:12' in out, "gated: no red edge", out)
    rc, out, err = e.run("graph", "graphs/three", "graphs/gated_differ")
    expect(rc == 0, f"exit status {rc}", err)
    golden("graph_three.txt", out)


# ---- run, help ------------------------------------------------------------------------

def run_env(e, *args, env=None):
    rc, out, err = e.run("run", *args, "--", "env", env=env)
    expect(rc == 0, f"run exit status {rc}", err)
    opts = [l for l in out.splitlines() if l.startswith("ULOCKDEP_OPTIONS=")]
    return opts[0][len("ULOCKDEP_OPTIONS="):] if opts else ""


@case
def run_out(e):
    env = {"ULOCKDEP_OPTIONS": ""}
    opts = run_env(e, "--out", "results/sub", env=env)
    expect(os.path.isdir(e.path("results/sub")), "--out creates the directory")
    base, _, errfile = opts.rpartition(":error_file=")
    expect(base == "json_path=@CWD@/results/sub/ulockdep.%p.jsonl:"
           "log_path=@CWD@/results/sub/ulockdep.%p.log:"
           "graph_path=@CWD@/results/sub/ulockdep.%p.graph:stderr_lines=1:"
           "skip=ctest,make,ninja", "defaults, absolute", opts)
    expect("ulockdep-run." in errfile and not os.path.exists(errfile),
           "an error file, removed at the end", errfile)
    opts = run_env(e, "--out", "results", "--log", "my.log", "-o", "graph_path=g.%p",
                   "--suppressions", "reports/run1.jsonl", "--skip", "meson",
                   env={"ULOCKDEP_OPTIONS": "json_path=x.jsonl:verbosity=0"})
    expect(opts.startswith("stderr_lines=1:json_path=x.jsonl:verbosity=0:log_path=my.log:"
                           "graph_path=g.%p:suppressions=@CWD@/reports/run1.jsonl:skip=meson:"
                           "error_file="), "explicit keys win", opts)
    rc, _, err = e.run("run", "--suppressions", "nope.supp", "--", "true")
    expect(rc == 2 and "nope.supp: No such file" in err, "missing suppressions file", err)
    rc, _, err = e.run("run", "--bogus", "true")
    expect(rc == 2 and "unknown option '--bogus'" in err, "unknown option", err)


def need_driver():
    expect(ARGS.driver, "this case needs --driver (the fork-per-case test driver)")
    return ARGS.driver


def jsonl_reports(e, d):
    reps = []
    for name in sorted(os.listdir(e.path(d))):
        if name.endswith(".jsonl"):
            with open(e.path(d, name), encoding="utf-8") as f:
                reps += [json.loads(l) for l in f if l.strip()]
    return [r for r in reps if r.get("type") != "ulockdep-reports"]  # the process record


def lock_names(rep):
    return sorted(l["name"] for l in rep.get("locks", []))


@case
def run_verdict(e):
    """A driver that counts only status 1 as a failure hides a child's 66: run must not."""
    driver, env = need_driver(), {"ULOCKDEP_OPTIONS": ""}
    rc, out, err = e.run("run", "--out", "out", "--", driver, "cases", env=env)
    expect("0 of 2 cases failed" in out, "the driver itself saw no failure", out, err)
    expect(rc == 66, f"run exits with exitcode when a process reported an error, not {rc}", err)
    expect("1 process reported errors; exit status 66" in err, "run says why", err)
    reps = jsonl_reports(e, "out")
    expect([lock_names(r) for r in reps] == [["case_a", "case_b"]], "one report", reps)
    rc, _, err = e.run("run", "--exitcode", "0", "--out", "out0", "--", driver, "cases", env=env)
    expect(rc == 0, f"--exitcode 0 keeps the program's status, got {rc}", err)
    rc, _, err = e.run("run", "--", "sh", "-c", "exit 3", env=env)
    expect(rc == 3, f"the program's own failure status is passed on, got {rc}", err)
    rc, _, err = e.run("run", "--", "sh", "-c", "kill -TERM $$", env=env)
    expect(rc == -15, f"a program killed by a signal: run dies of it too, got {rc}", err)


@case
def run_skip(e):
    """A test driver (ctest) is not checked; the programs it runs are."""
    driver, env = need_driver(), {"ULOCKDEP_OPTIONS": ""}
    shutil.copy(driver, e.path("ctest"))
    rc, out, err = e.run("run", "--out", "out", "--", "./ctest", "self-then-cases", env=env)
    names = [lock_names(r) for r in jsonl_reports(e, "out")]
    expect(names == [["case_a", "case_b"]], "only the child's report, none of ctest's", names,
           err)
    expect(rc == 66, f"the child's error still fails the run, got {rc}", err)
    rc, out, err = e.run("run", "--skip", "make", "--out", "out2", "--", "./ctest",
                         "self-then-cases", env=env)
    names = sorted(lock_names(r) for r in jsonl_reports(e, "out2"))
    expect(names == [["case_a", "case_b"], ["self_a", "self_b"]],
           "--skip replaces the default list: ctest is checked again", names, err)
    rc, _, err = e.run("run", "--skip", "a/b", "--", "true", env=env)
    expect(rc == 2 and "--skip a/b" in err, "a --skip that is not a program name", err)


@case
def run_stderr_lines(e):
    """Under --out the full reports go to files; the test's stderr still says why it failed."""
    driver, env = need_driver(), {"ULOCKDEP_OPTIONS": ""}
    rc, _, err = e.run("run", "--out", "out", "--", driver, "cases", env=env)
    lines = [l for l in err.splitlines() if "lock-order-inversion" in l]
    expect(len(lines) == 1 and lines[0].startswith("ulockdep: ERROR: ") and "case_" in lines[0],
           "one summary line of the report on stderr", err)
    expect("DEADLOCK" not in err, "not the full report", err)


@case
def run_colon_paths(e):
    """Paths with ':' are escaped in ULOCKDEP_OPTIONS, not split."""
    driver, env = need_driver(), {"ULOCKDEP_OPTIONS": ""}
    rc, _, err = e.run("run", "--log", "a:b.log", "--json", "c:d.jsonl", "--", driver, "cases",
                       env=env)
    expect(rc == 66, f"exit status {rc}", err)
    expect(not os.path.exists(e.path("a")) and "unknown option" not in err,
           "the path was split at ':'", err)
    with open(e.path("a:b.log"), encoding="utf-8") as f:
        expect("possible circular locking dependency" in f.read(), "the log is a:b.log")
    expect(len(jsonl_reports(e, ".")) == 1, "the JSON file is c:d.jsonl")
    rc, _, err = e.run("run", "--out", "o:x", "--", driver, "cases", env=env)
    expect(rc == 66 and len(jsonl_reports(e, "o:x")) == 1, "--out DIR with ':'", err)
    long_dir = "d" * 600 + ":x"
    rc, _, err = e.run("run", "--out", long_dir, "--", "true", env=env)
    expect(rc == 2 and "nothing created" in err and not os.path.exists(e.path(long_dir)),
           "an --out the library cannot take is refused before anything is created", err)


@case
def help_text(e):
    rc, out, _ = e.run("help")
    expect(rc == 0, "help exit status")
    for cmd in ("run", "report", "merge", "graph", "options", "version"):
        expect(f"ulockdep {cmd}" in out and f"\n{cmd}:\n" in out, f"help documents {cmd}")
    for flag in ("--out", "--suppressions", "--gen-suppressions", "--format", "--dot", "--output",
                 "--write-graph", "--baseline", "--source-root"):
        expect(flag in out, f"help documents {flag}")
    rc, out, _ = e.run("help", "merge")
    expect(rc == 0 and out.startswith("usage: ulockdep merge"), "help merge", out)


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("--ulockdep", required=True)
    ap.add_argument("--valgrind", action="store_true")
    ap.add_argument("--driver", help="the fork-per-case test driver (fork_driver.c)")
    ap.add_argument("cases", nargs="+")
    ARGS = ap.parse_args()
    ARGS.ulockdep = os.path.abspath(ARGS.ulockdep)
    if ARGS.driver:
        ARGS.driver = os.path.abspath(ARGS.driver)
    names = list(CASES) if ARGS.cases == ["all"] else ARGS.cases
    failed = 0
    for name in names:
        env = Env()
        try:
            CASES[name](env)
            print(f"ok   {name}")
        except AssertionError as ex:
            failed += 1
            print(f"FAIL {name}: {ex}")
        finally:
            env.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
