#!/usr/bin/env python3
"""Run tests/python/threads.py MODE under the preload library and check the
reports it writes (JSON Lines): EXPECTED is "none" or a report kind that must
be the only kind reported.

    run_case.py LIB MODE EXPECTED
"""
import json
import os
import subprocess
import sys
import tempfile

lib, mode, expected = sys.argv[1:4]
here = os.path.dirname(os.path.abspath(__file__))
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "reports.jsonl")
    env = dict(os.environ, LD_PRELOAD=lib, ULOCKDEP_OPTIONS="exitcode=0:json_path=" + out)
    r = subprocess.run([sys.executable, os.path.join(here, "threads.py"), mode], env=env,
                       capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        sys.exit("FAIL: threads.py %s exited %d\n%s" % (mode, r.returncode, r.stderr[-4000:]))
    kinds = []
    if os.path.exists(out):
        for line in open(out):
            rec = json.loads(line)
            if "kind" in rec:
                kinds.append(rec["kind"])
    want = [] if expected == "none" else [expected]
    if sorted(set(kinds)) != want:
        sys.exit("FAIL: %s: expected %s, got %s\n%s" % (mode, want or "no report", kinds or "none",
                                                        r.stderr[-6000:]))
    print("PASS: %s: %s" % (mode, kinds or "no report"))
