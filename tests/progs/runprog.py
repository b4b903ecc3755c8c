#!/usr/bin/env python3
"""Run one test program under libulockdep.so and check its reports.

    runprog.py --preload PATH/libulockdep.so --prog BINARY --source SOURCE.c [--timeout S]
    runprog.py --no-preload --prog BINARY --source SOURCE.c [--timeout S]

The expectations are directives in comment lines of the program's source
(see README.md in this directory for the full language):

    EXPECT: <kind> <glob>...     one report of <kind> whose lock names match the
                                 globs one-to-one (classes[].name for
                                 class-order-inversion, else locks[].name)
    EXPECT: limit-reached        a report of that kind, whatever its locks
    EXPECT: none                 no report at all
    EXPECT-EXIT: N               exit status (default 66 if an error-severity
                                 report is expected, else 0)
    EXPECT-SIGNAL: SIGNAME       the run must end killed by this signal (with
                                 HANGS too: natively it deadlocks instead)
    EXPECT-STDERR: <regex>       must match stderr (repeatable)
    EXPECT-NOT-STDERR: <regex>   must not match stderr (repeatable)
    EXPECT-MAX-LINES: N          every report's text (as printed) has at most N lines
    OPTIONS: k=v:k=v             appended to ULOCKDEP_OPTIONS
    ARGS: ...                    program arguments (shell-style quoting)
    ENV: KEY=VALUE               extra environment (repeatable)
    HANGS: S                     the program deadlocks: SIGKILL it after S s
    TIMEOUT: S                   this program's time limit (default 30 s)
    EXPECT-GRAPH-EDGE: FROM TO   some process's graph dump (graph_path, one file per
                                 process) holds an edge between classes named so (globs)
    EXPECT-GRAPH-INCOMPLETE: N   that many dumps lack their final record (killed)

A program that exits 77 after printing "SKIP:" on stderr is skipped (it
needs something the machine lacks).

In a stderr regex, {{line:NAME}} stands for the number of the source line
marked with the comment `@line:NAME`.

Exit status: 0 pass, 1 fail, 2 bad usage or bad directives, 77 skipped
(a HANGS program in --no-preload mode).  Standard library only.
"""

import argparse
import fnmatch
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time

EXIT_PASS, EXIT_FAIL, EXIT_USAGE, EXIT_SKIP = 0, 1, 2, 77

# Report kinds and their severity (docs/reports.md).  The later kinds are
# accepted so that tests for them can be written before they exist.
SEVERITY = {
    "lock-order-inversion": "error",
    "class-order-inversion": "warning",
    "self-deadlock": "error",
    "unlock-not-held": "error",
    "unlock-not-owner": "error",
    "destroy-held": "error",
    "exit-holding": "error",
    "assert-not-held": "error",
    "limit-reached": "warning",
    "wait-for-cycle": "error",
    "signal-unsafe-lock": "error",
    "fork-holding": "error",
    "cond-mutex-mismatch": "error",
    "deadlock-detected": "error",
    "invalid-lock": "error",
    "trylock-held": "warning",
    "use-after-destroy": "error",
    "hang-through-wait": "error",
    "timeout-deadlock": "error",
    "blocked-at-kill": "error",
}
# Kinds an `EXPECT: <kind>` line may name without lock globs.
KINDS_WITHOUT_NAMES = {"limit-reached"}

EXIT_ON_ERROR = 66
DEFAULT_TIMEOUT = 30.0

DIRECTIVES = ("EXPECT", "EXPECT-EXIT", "EXPECT-SIGNAL", "EXPECT-STDERR", "EXPECT-NOT-STDERR",
              "EXPECT-MAX-LINES", "OPTIONS", "ARGS", "ENV", "HANGS", "TIMEOUT",
              "EXPECT-GRAPH-EDGE", "EXPECT-GRAPH-INCOMPLETE")
# A comment line: `// X`, `/* X */` or ` * X` inside a block comment.
COMMENT_RE = re.compile(r"^\s*(?://+|/\*+|\*+)\s?(.*?)\s*(?:\*/)?\s*$")
DIRECTIVE_RE = re.compile(r"^([A-Z][A-Z-]*)\s*:\s?(.*)$")
# Words that look like a misspelt directive rather than prose.
LOOKS_LIKE_DIRECTIVE = re.compile(r"^(EXPECT[A-Z-]*|OPTIONS?|ARGS?|ENV|HANGS?|TIMEOUT)$")
LINE_REF_RE = re.compile(r"\{\{line:([A-Za-z0-9_.-]+)\}\}")


class DirectiveError(Exception):
    """The source's directives are missing or malformed."""


class Expect:
    """One `EXPECT:` line: a kind and the globs its lock names must match."""

    def __init__(self, kind, globs, lineno):
        self.kind = kind
        self.globs = globs  # None: any lock names
        self.lineno = lineno

    def __str__(self):
        if self.globs is None:
            return self.kind
        return " ".join([self.kind] + self.globs)


class Spec:
    """Everything the directives of one source file say."""

    def __init__(self):
        self.expects = []
        self.expect_none = False
        self.exit_status = None
        self.signal = None         # EXPECT-SIGNAL: the signal that must end the run
        self.stderr_re = []
        self.not_stderr_re = []
        self.max_lines = None      # EXPECT-MAX-LINES: bound on each report's text
        self.options = []
        self.args = []
        self.env = {}
        self.hangs = None
        self.timeout = None
        self.graph_edges = []        # EXPECT-GRAPH-EDGE: (from glob, to glob)
        self.graph_incomplete = None

    def expected_exit(self):
        if self.exit_status is not None:
            return self.exit_status
        if any(SEVERITY[e.kind] == "error" for e in self.expects):
            return EXIT_ON_ERROR
        return 0


def parse_seconds(value, what, lineno):
    try:
        s = float(value)
    except ValueError:
        s = -1.0
    if s <= 0:
        raise DirectiveError(f"line {lineno}: {what} wants a positive number of seconds, got {value!r}")
    return s


def line_markers(lines):
    """Map NAME -> line number for every `@line:NAME` marker."""
    marks = {}
    for n, text in enumerate(lines, 1):
        for m in re.finditer(r"@line:([A-Za-z0-9_.-]+)", text):
            if m.group(1) in marks:
                raise DirectiveError(f"line {n}: marker @line:{m.group(1)} also on line {marks[m.group(1)]}")
            marks[m.group(1)] = n
    return marks


def compile_regex(value, marks, lineno):
    def subst(m):
        if m.group(1) not in marks:
            raise DirectiveError(f"line {lineno}: no @line:{m.group(1)} marker in the source")
        return str(marks[m.group(1)])

    pattern = LINE_REF_RE.sub(subst, value)
    try:
        return re.compile(pattern, re.MULTILINE)
    except re.error as e:
        raise DirectiveError(f"line {lineno}: bad regex {pattern!r}: {e}") from None


def parse_expect(value, lineno):
    try:
        words = shlex.split(value)
    except ValueError as e:
        raise DirectiveError(f"line {lineno}: EXPECT: {e}") from None
    if not words:
        raise DirectiveError(f"line {lineno}: empty EXPECT")
    kind, globs = words[0], words[1:]
    if kind == "none":
        if globs:
            raise DirectiveError(f"line {lineno}: 'EXPECT: none' takes no names")
        return None
    if kind not in SEVERITY:
        raise DirectiveError(f"line {lineno}: unknown report kind {kind!r} (known: {', '.join(SEVERITY)})")
    if not globs:
        if kind not in KINDS_WITHOUT_NAMES:
            raise DirectiveError(f"line {lineno}: 'EXPECT: {kind}' must list the lock names "
                                 f"(only {', '.join(sorted(KINDS_WITHOUT_NAMES))} may omit them)")
        return Expect(kind, None, lineno)
    return Expect(kind, globs, lineno)


def parse_source(path):
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise DirectiveError(f"cannot read source: {e}") from None
    spec = Spec()
    marks = line_markers(lines)
    for lineno, text in enumerate(lines, 1):
        c = COMMENT_RE.match(text)
        if not c:
            continue
        d = DIRECTIVE_RE.match(c.group(1))
        if not d:
            continue
        name, value = d.group(1), d.group(2).strip()
        if name not in DIRECTIVES:
            if LOOKS_LIKE_DIRECTIVE.match(name):
                raise DirectiveError(f"line {lineno}: unknown directive {name}: (known: {', '.join(DIRECTIVES)})")
            continue  # prose such as "NOTE: ..."
        if name == "EXPECT":
            e = parse_expect(value, lineno)
            if e is None:
                spec.expect_none = True
            else:
                spec.expects.append(e)
        elif name == "EXPECT-EXIT":
            if not re.fullmatch(r"\d+", value) or int(value) > 255:
                raise DirectiveError(f"line {lineno}: EXPECT-EXIT wants 0..255, got {value!r}")
            if spec.exit_status is not None:
                raise DirectiveError(f"line {lineno}: second EXPECT-EXIT")
            spec.exit_status = int(value)
        elif name == "EXPECT-SIGNAL":
            try:
                spec.signal = signal.Signals[value]
            except KeyError:
                raise DirectiveError(f"line {lineno}: EXPECT-SIGNAL wants a name like SIGABRT, "
                                     f"got {value!r}") from None
        elif name == "EXPECT-STDERR":
            spec.stderr_re.append(compile_regex(value, marks, lineno))
        elif name == "EXPECT-NOT-STDERR":
            spec.not_stderr_re.append(compile_regex(value, marks, lineno))
        elif name == "EXPECT-MAX-LINES":
            if not re.fullmatch(r"[1-9]\d*", value):
                raise DirectiveError(f"line {lineno}: EXPECT-MAX-LINES wants a positive number, got {value!r}")
            spec.max_lines = int(value)
        elif name == "OPTIONS":
            if not value:
                raise DirectiveError(f"line {lineno}: empty OPTIONS")
            spec.options.append(value)
        elif name == "ARGS":
            try:
                spec.args.extend(shlex.split(value))
            except ValueError as e:
                raise DirectiveError(f"line {lineno}: ARGS: {e}") from None
        elif name == "ENV":
            key, eq, val = value.partition("=")
            if not eq or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
                raise DirectiveError(f"line {lineno}: ENV wants KEY=VALUE, got {value!r}")
            spec.env[key] = val
        elif name == "HANGS":
            spec.hangs = parse_seconds(value, "HANGS", lineno)
        elif name == "TIMEOUT":
            spec.timeout = parse_seconds(value, "TIMEOUT", lineno)
        elif name == "EXPECT-GRAPH-EDGE":
            words = shlex.split(value)
            if len(words) != 2:
                raise DirectiveError(f"line {lineno}: EXPECT-GRAPH-EDGE wants FROM TO")
            spec.graph_edges.append(tuple(words))
        elif name == "EXPECT-GRAPH-INCOMPLETE":
            if not re.fullmatch(r"\d+", value):
                raise DirectiveError(f"line {lineno}: EXPECT-GRAPH-INCOMPLETE wants a count")
            spec.graph_incomplete = int(value)
    if not spec.expects and not spec.expect_none:
        raise DirectiveError("no EXPECT line: write 'EXPECT: none' for a program that must stay clean")
    if spec.expect_none and spec.expects:
        raise DirectiveError("'EXPECT: none' together with other EXPECT lines")
    if spec.hangs is not None and spec.exit_status is not None:
        raise DirectiveError("EXPECT-EXIT with HANGS: a killed program has no exit status to check")
    if spec.signal is not None and spec.exit_status is not None:
        raise DirectiveError("EXPECT-EXIT with EXPECT-SIGNAL: a program ends one way")
    return spec


# ---- running ---------------------------------------------------------------

class Run:
    def __init__(self, returncode, stdout, stderr, timed_out, elapsed):
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr
        self.timed_out = timed_out
        self.elapsed = elapsed


def run_program(argv, env, cwd, limit):
    """Run argv in its own process group; SIGKILL the group after `limit` s."""
    start = time.monotonic()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                                stdout=out, stderr=err, start_new_session=True)
        timed_out = False
        try:
            proc.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            timed_out = True
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
        elapsed = time.monotonic() - start
        out.seek(0)
        err.seek(0)
        return Run(proc.returncode, out.read().decode("utf-8", "replace"),
                   err.read().decode("utf-8", "replace"), timed_out, elapsed)


def describe_status(rc):
    if rc is None:
        return "no status"
    if rc < 0:
        try:
            return f"killed by signal {signal.Signals(-rc).name}"
        except ValueError:
            return f"killed by signal {-rc}"
    return f"exit status {rc}"


# ---- reports -----------------------------------------------------------------

class Report:
    def __init__(self, lineno, record, kind, names):
        self.lineno = lineno
        self.record = record
        self.kind = kind
        self.names = names

    def __str__(self):
        return " ".join([self.kind] + self.names)


def load_reports(path):
    """Parse the JSON Lines file; return (reports, problems)."""
    reports, problems = [], []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except FileNotFoundError:
        return reports, problems  # nothing reported, the file was never created
    for n, line in enumerate(text.splitlines(), 1):
        try:
            rec = json.loads(line)
        except ValueError as e:
            problems.append(f"report line {n} is not JSON ({e}): {line[:200]!r}")
            continue
        if isinstance(rec, dict) and rec.get("type") == "ulockdep-reports":
            continue  # the process's first record: which program wrote the file
        if not isinstance(rec, dict) or not isinstance(rec.get("kind"), str):
            problems.append(f"report line {n} has no \"kind\": {line[:200]!r}")
            continue
        kind = rec["kind"]
        if kind in SEVERITY and rec.get("severity") != SEVERITY[kind]:
            problems.append(f"report line {n}: kind {kind} has severity {rec.get('severity')!r}, "
                            f"docs/reports.md says {SEVERITY[kind]!r}")
        field = "classes" if kind == "class-order-inversion" else "locks"
        items = rec.get(field)
        if items is None and kind in KINDS_WITHOUT_NAMES:
            items = []  # e.g. a limit-reached report need not name locks
        if not isinstance(items, list) or not all(
                isinstance(i, dict) and isinstance(i.get("name"), str) for i in items):
            problems.append(f"report line {n} ({kind}): \"{field}\" is not a list of objects with a \"name\"")
            continue
        reports.append(Report(n, rec, kind, [i["name"] for i in items]))
    return reports, problems


def _match(candidates_of, n_left):
    """Maximum bipartite matching; candidates_of[i] lists right-side indices."""
    owner = {}

    def augment(i, seen):
        for j in candidates_of[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    for i in range(n_left):
        augment(i, set())
    return {i: j for j, i in owner.items()}


def names_match(globs, names):
    """True if the globs and the names pair off one-to-one (fnmatch, case-sensitive)."""
    if len(globs) != len(names):
        return False
    cand = [[j for j, name in enumerate(names) if fnmatch.fnmatchcase(name, g)] for g in globs]
    return len(_match(cand, len(globs))) == len(globs)


def report_fits(expect, report):
    if expect.kind != report.kind:
        return False
    return expect.globs is None or names_match(expect.globs, report.names)


def match_reports(expects, reports):
    """Return (unmatched expects, unmatched reports) of the best pairing."""
    cand = [[j for j, r in enumerate(reports) if report_fits(e, r)] for e in expects]
    pairs = _match(cand, len(expects))
    used = set(pairs.values())
    return ([e for i, e in enumerate(expects) if i not in pairs],
            [r for j, r in enumerate(reports) if j not in used])


# ---- checking ----------------------------------------------------------------

def tail(text, n=60):
    lines = text.splitlines()
    if not lines:
        return "    (empty)"
    if len(lines) > n:
        lines = [f"... ({len(lines) - n} earlier lines)"] + lines[-n:]
    return "\n".join("    " + l for l in lines)


def check_native(args, spec, name):
    if spec.hangs is not None:
        print(f"SKIP {name}: deadlocks by design (HANGS: {spec.hangs:g}); not run natively")
        return EXIT_SKIP
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    env.pop("ULOCKDEP_OPTIONS", None)
    env.update(spec.env)
    limit = spec.timeout or args.timeout
    with tempfile.TemporaryDirectory(prefix="runprog-") as tmp:
        run = run_program([args.prog] + spec.args, env, tmp, limit)
    if skipped(run, name):
        return EXIT_SKIP
    failures = []
    if run.timed_out:
        failures.append(f"timed out after {limit:g} s (natively every program must finish by itself)")
    elif run.returncode != 0:
        failures.append(f"{describe_status(run.returncode)}, expected 0 natively")
    if failures:
        print(f"FAIL {name} (native)")
        for f in failures:
            print("  " + f)
        print("  stderr:\n" + tail(run.stderr))
        return EXIT_FAIL
    print(f"PASS {name} (native): exit 0 in {run.elapsed:.2f} s")
    return EXIT_PASS


def load_graphs(tmp):
    """Every graph dump in tmp: [(edges as {(from name, to name)}, ended)]."""
    dumps = []
    for f in sorted(os.listdir(tmp)):
        if not f.endswith(".graph"):
            continue
        names, edges, ended = {}, set(), False
        with open(os.path.join(tmp, f), encoding="utf-8", errors="replace") as fh:
            for line in fh:
                try:
                    r = json.loads(line)
                except ValueError:
                    continue  # a line cut short by a kill
                if r.get("type") == "class":
                    names[r["key"]] = r["name"]
                elif r.get("type") == "edge":
                    edges.add((r["from"], r["to"]))
                elif r.get("type") == "end":
                    ended = True
        dumps.append(({(names.get(a, a), names.get(b, b)) for a, b in edges}, ended))
    return dumps


def graph_failures(spec, dumps):
    failures = []
    for a, b in spec.graph_edges:
        if not any(fnmatch.fnmatchcase(x, a) and fnmatch.fnmatchcase(y, b)
                   for edges, _ in dumps for x, y in edges):
            failures.append(f"no graph dump holds an edge {a} -> {b} "
                            f"(dumps: {[sorted(e) for e, _ in dumps]})")
    incomplete = sum(1 for _, ended in dumps if not ended)
    if spec.graph_incomplete is not None and incomplete != spec.graph_incomplete:
        failures.append(f"{incomplete} graph dump(s) without their final record, "
                        f"expected {spec.graph_incomplete}")
    return failures


def skipped(run, name):
    if run.returncode == EXIT_SKIP and "SKIP:" in run.stderr:
        print(f"SKIP {name}: " + run.stderr[run.stderr.index("SKIP:") + 5:].strip().splitlines()[0])
        return True
    return False


def check_preload(args, spec, name):
    preload = os.path.abspath(args.preload)
    if not os.path.isfile(preload):
        print(f"FAIL {name}: preload library {preload} does not exist")
        return EXIT_FAIL
    with tempfile.TemporaryDirectory(prefix="runprog-") as tmp:
        json_path = os.path.join(tmp, "reports.jsonl")
        graph = ([f"graph_path={os.path.join(tmp, 'ulockdep.%p.graph')}"]
                 if spec.graph_edges or spec.graph_incomplete is not None else [])
        options = ":".join([f"json_path={json_path}", f"exitcode={EXIT_ON_ERROR}"] + graph +
                           spec.options)
        env = dict(os.environ)
        env.update(spec.env)
        env["LD_PRELOAD"] = preload
        env["ULOCKDEP_OPTIONS"] = options
        limit = spec.hangs if spec.hangs is not None else (spec.timeout or args.timeout)
        run = run_program([args.prog] + spec.args, env, tmp, limit)
        reports, problems = load_reports(json_path)
        dumps = load_graphs(tmp)

    if skipped(run, name):
        return EXIT_SKIP
    failures = list(problems) + graph_failures(spec, dumps)
    if re.search(r"ld\.so: object .* cannot be preloaded", run.stderr):
        failures.append("the dynamic loader could not preload the library (see stderr)")
    if spec.signal is not None:
        if run.timed_out or run.returncode != -spec.signal:
            what = "a timeout" if run.timed_out else describe_status(run.returncode)
            failures.append(f"{what}, expected death by {spec.signal.name}")
    elif spec.hangs is not None:
        if not run.timed_out:
            failures.append(f"expected the program to deadlock (HANGS: {spec.hangs:g}), "
                            f"but it ended with {describe_status(run.returncode)}")
    elif run.timed_out:
        failures.append(f"timed out after {limit:g} s")
    elif run.returncode != spec.expected_exit():
        failures.append(f"{describe_status(run.returncode)}, expected exit status {spec.expected_exit()}")

    missing, extra = match_reports(spec.expects, reports)
    for e in missing:
        failures.append(f"missing report: {e}   (EXPECT on source line {e.lineno})")
    for r in extra:
        failures.append(f"unexpected report: {r}   (report line {r.lineno})")

    if spec.max_lines is not None:
        for r in reports:
            text = r.record.get("text")
            n = len(text.strip("\n").splitlines()) if isinstance(text, str) else 0
            if n > spec.max_lines:
                failures.append(f"report line {r.lineno} ({r.kind}): its text has {n} lines, "
                                f"more than EXPECT-MAX-LINES: {spec.max_lines}")

    for rx in spec.stderr_re:
        if not rx.search(run.stderr):
            failures.append(f"stderr does not match EXPECT-STDERR: {rx.pattern}")
    for rx in spec.not_stderr_re:
        m = rx.search(run.stderr)
        if m:
            failures.append(f"stderr matches EXPECT-NOT-STDERR: {rx.pattern}  (matched {m.group(0)[:120]!r})")

    if not failures:
        what = "killed as expected after deadlocking" if spec.hangs is not None else describe_status(run.returncode)
        print(f"PASS {name}: {len(reports)} report(s) as expected, {what}, {run.elapsed:.2f} s")
        if args.verbose:
            print("  stderr:\n" + tail(run.stderr, 400))
        return EXIT_PASS

    print(f"FAIL {name}")
    for f in failures:
        print("  " + f)
    print("  expected reports:")
    for e in spec.expects or []:
        print(f"    {e}")
    if not spec.expects:
        print("    (none)")
    print("  actual reports:")
    for r in reports:
        print(f"    {r}")
    if not reports:
        print("    (none)")
    print("  reproduce with:\n    " + " ".join(
        [f"LD_PRELOAD={shlex.quote(preload)}",
         "ULOCKDEP_OPTIONS=" + shlex.quote(options.replace(json_path, "/tmp/reports.jsonl")),
         shlex.quote(args.prog)] + [shlex.quote(a) for a in spec.args]))
    print("  stderr:\n" + tail(run.stderr, 400 if args.verbose else 60))
    return EXIT_FAIL


def main(argv=None):
    p = argparse.ArgumentParser(description="Run one program under libulockdep.so and check its reports "
                                            "against the EXPECT directives in its source.")
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--preload", metavar="PATH", help="libulockdep.so to LD_PRELOAD")
    mode.add_argument("--no-preload", action="store_true",
                      help="run natively: the program must exit 0 by itself (HANGS programs are skipped)")
    p.add_argument("--prog", required=True, metavar="PATH", help="the test program")
    p.add_argument("--source", required=True, metavar="PATH", help="its source, holding the directives")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="S",
                   help=f"time limit in seconds unless the source says TIMEOUT (default {DEFAULT_TIMEOUT:g})")
    p.add_argument("-v", "--verbose", action="store_true", help="print stderr even when the test passes")
    args = p.parse_args(argv)
    name = os.path.splitext(os.path.basename(args.source))[0]
    try:
        spec = parse_source(args.source)
    except DirectiveError as e:
        print(f"ERROR {name}: {args.source}: {e}")
        return EXIT_USAGE
    args.prog = os.path.abspath(args.prog)  # the program runs in a scratch directory
    if not os.path.isfile(args.prog) or not os.access(args.prog, os.X_OK):
        print(f"ERROR {name}: program {args.prog} is not an executable file")
        return EXIT_USAGE
    try:
        if args.no_preload:
            return check_native(args, spec, name)
        return check_preload(args, spec, name)
    except OSError as e:
        print(f"ERROR {name}: cannot run {args.prog}: {e}")
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
