#!/usr/bin/env python3
"""Run the bundled stress driver under ulockdep and check its reports.

  seeded_bugs.py --preload LIB --stress BIN clean
      the driver without seeded bugs: no report at all
  seeded_bugs.py --preload LIB --stress BIN bugs
      each bug listed by `BIN --list-bugs` alone: exactly one report, of the
      listed kind, naming exactly the listed locks (classes for class-level
      kinds)

Exit status 0 when everything matched, 1 otherwise.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

CLASS_KINDS = {"class-order-inversion"}


def run(preload, argv, seconds):
    with tempfile.TemporaryDirectory() as tmp:
        json_path = os.path.join(tmp, "reports.json")
        env = dict(os.environ)
        env["LD_PRELOAD"] = preload
        env["ULOCKDEP_OPTIONS"] = "json_path=%s:exitcode=0:verbosity=0" % json_path
        proc = subprocess.run(argv + ["--seconds", str(seconds)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=120)
        reports = []
        if os.path.exists(json_path):
            with open(json_path) as f:
                reports = [r for r in (json.loads(line) for line in f if line.strip())
                           if r.get("type") != "ulockdep-reports"]
        return proc, reports


def names(report):
    key = "classes" if report["kind"] in CLASS_KINDS else "locks"
    return sorted(item["name"] for item in report.get(key, []))


def describe(reports):
    return "\n".join("    %s %s" % (r["kind"], " ".join(names(r))) for r in reports) or "    (none)"


def check_clean(args):
    proc, reports = run(args.preload, [args.stress, "--cpus", "4"], args.seconds)
    if proc.returncode != 0:
        print("FAIL clean run: exit %d\n%s" % (proc.returncode, proc.stderr))
        return 1
    if reports:
        print("FAIL clean run produced reports:\n" + describe(reports))
        return 1
    print("ok   clean run: no report")
    return 0


def check_bugs(args):
    listing = subprocess.run([args.stress, "--list-bugs"], stdout=subprocess.PIPE,
                             universal_newlines=True, check=True).stdout
    failures = 0
    bugs = [line.split("\t") for line in listing.splitlines() if line.strip()]
    if len(bugs) < 5:
        print("FAIL fewer than five seeded bugs listed")
        return 1
    for name, kind, locks, _description in bugs:
        want = sorted(locks.split(","))
        proc, reports = run(args.preload, [args.stress, "--bug", name], args.seconds)
        got = [r for r in reports if r["kind"] == kind and names(r) == want]
        if proc.returncode != 0 or len(reports) != 1 or len(got) != 1:
            failures += 1
            print("FAIL %s: want one %s %s, exit %d, got:\n%s"
                  % (name, kind, " ".join(want), proc.returncode, describe(reports)))
        else:
            print("ok   %s: %s %s" % (name, kind, " ".join(want)))
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--preload", required=True)
    parser.add_argument("--stress", required=True)
    parser.add_argument("--seconds", type=int, default=2)
    parser.add_argument("mode", choices=["clean", "bugs"])
    args = parser.parse_args()
    return check_clean(args) if args.mode == "clean" else check_bugs(args)


if __name__ == "__main__":
    sys.exit(main())
