#!/usr/bin/env python3
"""Tests of runprog.py itself, without the validator.

The "program" of each case is a shell script that plays the part of
libulockdep.so: it reads json_path from ULOCKDEP_OPTIONS, writes canned
JSON Lines there and exits with a chosen status.  The "preload library" is
the C library already mapped into this interpreter, which the dynamic
loader accepts and which changes nothing.  Standard library only:

    python3 tests/progs/selftest_runprog.py [-v]
"""

import os
import re
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
RUNPROG = os.path.join(HERE, "runprog.py")


def loaded_libc():
    with open("/proc/self/maps") as f:
        for line in f:
            path = line.split()[-1]
            if re.search(r"/libc(\.so\.6|-[0-9.]+\.so)$", path) and os.path.isfile(path):
                return path
    raise unittest.SkipTest("cannot find the C library's path in /proc/self/maps")


INV_AB = ('{"kind":"lock-order-inversion","severity":"error",'
          '"locks":[{"name":"lock_a"},{"name":"lock_b"}],"classes":[{"name":"lock_a"},{"name":"lock_b"}]}')
INV_CD = ('{"kind":"lock-order-inversion","severity":"error",'
          '"locks":[{"name":"lock_c"},{"name":"lock_d"}],"classes":[]}')
CLASS_INV = ('{"kind":"class-order-inversion","severity":"warning",'
             '"locks":[{"name":"a1"},{"name":"b2"}],"classes":[{"name":"a_init:17"},{"name":"b_init:22"}]}')
LIMIT = '{"kind":"limit-reached","severity":"warning","locks":[],"classes":[]}'
HEAP2 = ('{"kind":"lock-order-inversion","severity":"error",'
         '"locks":[{"name":"account_new:17#2"},{"name":"account_new:17#1"}]}')


class RunprogTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.preload = loaded_libc()

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="runprog-selftest-")
        self.addCleanup(self.tmp.cleanup)

    def run_case(self, directives, reports=(), status=0, extra_sh="", native=False, preload=None,
                 timeout=None):
        """Write a fake program and its source; return (runner exit status, runner output)."""
        d = self.tmp.name
        src = os.path.join(d, "case.c")
        with open(src, "w") as f:
            f.write("/*\n" + "".join(f" * {l}\n" for l in directives) + " */\nint main(void) { return 0; }\n")
        prog = os.path.join(d, "case.sh")
        lines = "".join(f"printf '%s\\n' '{r}' >> \"$json\"\n" for r in reports)
        with open(prog, "w") as f:
            f.write(textwrap.dedent("""\
                #!/bin/sh
                json=${ULOCKDEP_OPTIONS#json_path=}
                json=${json%%:*}
                """) + (lines if not native else "") + extra_sh + f"\nexit {status}\n")
        os.chmod(prog, 0o755)
        argv = [sys.executable, RUNPROG, "--prog", prog, "--source", src]
        argv += ["--no-preload"] if native else ["--preload", preload or self.preload]
        if timeout is not None:
            argv += ["--timeout", str(timeout)]
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
        return p.returncode, p.stdout

    def assertPass(self, result):
        rc, out = result
        self.assertEqual(rc, 0, out)
        self.assertIn("PASS", out)

    def assertFail(self, result, *needles):
        rc, out = result
        self.assertEqual(rc, 1, out)
        self.assertIn("FAIL", out)
        for n in needles:
            self.assertRegex(out, n)

    # --- matching -----------------------------------------------------------

    def test_expected_report_passes(self):
        self.assertPass(self.run_case(["EXPECT: lock-order-inversion lock_a lock_b"], [INV_AB], 66))

    def test_name_order_does_not_matter(self):
        self.assertPass(self.run_case(["EXPECT: lock-order-inversion lock_b lock_a"], [INV_AB], 66))

    def test_missing_report_fails(self):
        self.assertFail(self.run_case(["EXPECT: lock-order-inversion lock_a lock_b"], [], 66),
                        r"missing report: lock-order-inversion lock_a lock_b", r"actual reports:\n    \(none\)")

    def test_extra_report_fails(self):
        self.assertFail(self.run_case(["EXPECT: lock-order-inversion lock_a lock_b"], [INV_AB, INV_CD], 66),
                        r"unexpected report: lock-order-inversion lock_c lock_d")

    def test_wrong_names_fail(self):
        self.assertFail(self.run_case(["EXPECT: lock-order-inversion lock_a lock_c"], [INV_AB], 66),
                        "missing report", "unexpected report")

    def test_glob_count_must_equal_name_count(self):
        self.assertFail(self.run_case(["EXPECT: lock-order-inversion lock_*"], [INV_AB], 66))
        self.assertFail(self.run_case(["EXPECT: lock-order-inversion lock_a lock_b lock_*"], [INV_AB], 66))

    def test_globs_pair_off_one_to_one(self):
        # lock_* could match both names; the pairing gives lock_a to lock_? only if needed.
        self.assertPass(self.run_case(["EXPECT: lock-order-inversion lock_* lock_a"], [INV_AB], 66))
        self.assertPass(self.run_case(["EXPECT: lock-order-inversion account_new:*#1 account_new:*#2"],
                                      [HEAP2], 66))
        self.assertFail(self.run_case(["EXPECT: lock-order-inversion account_new:*#1 account_new:*#1"],
                                      [HEAP2], 66))

    def test_multiset(self):
        two = ["EXPECT: lock-order-inversion lock_a lock_b"] * 2
        self.assertFail(self.run_case(two, [INV_AB], 66), "missing report")
        self.assertPass(self.run_case(two, [INV_AB, INV_AB], 66))

    def test_class_order_inversion_matches_class_names(self):
        self.assertPass(self.run_case(["EXPECT: class-order-inversion a_init:* b_init:*"], [CLASS_INV], 0))
        self.assertFail(self.run_case(["EXPECT: class-order-inversion a1 b2"], [CLASS_INV], 0))

    def test_kind_without_names(self):
        self.assertPass(self.run_case(["EXPECT: limit-reached"], [LIMIT], 0))
        bare = '{"kind":"limit-reached","severity":"warning","message":"max_edges"}'
        self.assertPass(self.run_case(["EXPECT: limit-reached"], [bare], 0))

    def test_expect_none(self):
        self.assertPass(self.run_case(["EXPECT: none"], [], 0))
        self.assertFail(self.run_case(["EXPECT: none"], [LIMIT], 0), "unexpected report: limit-reached")

    # --- report file -----------------------------------------------------------

    def test_bad_json_line_fails(self):
        self.assertFail(self.run_case(["EXPECT: lock-order-inversion lock_a lock_b"],
                                      [INV_AB, '{"kind": "lock-order-inv'], 66), "not JSON")

    def test_severity_must_match_docs(self):
        wrong = INV_AB.replace('"severity":"error"', '"severity":"warning"')
        self.assertFail(self.run_case(["EXPECT: lock-order-inversion lock_a lock_b"], [wrong], 66),
                        "severity")

    def test_missing_locks_field_fails(self):
        self.assertFail(self.run_case(["EXPECT: none"], ['{"kind":"self-deadlock","severity":"error"}'], 66),
                        '"locks"')

    # --- exit status, stderr ------------------------------------------------------

    def test_default_exit_status(self):
        self.assertFail(self.run_case(["EXPECT: lock-order-inversion lock_a lock_b"], [INV_AB], 0),
                        "expected exit status 66")
        self.assertFail(self.run_case(["EXPECT: class-order-inversion a_init:* b_init:*"], [CLASS_INV], 66),
                        "expected exit status 0")

    def test_expect_exit(self):
        self.assertPass(self.run_case(["EXPECT: none", "EXPECT-EXIT: 3"], [], 3))
        self.assertFail(self.run_case(["EXPECT: none", "EXPECT-EXIT: 3"], [], 0))

    def test_stderr_directives_and_line_markers(self):
        d = ["EXPECT: none", r"EXPECT-STDERR: ^hello case\.c:{{line:here}}$",
             "EXPECT-NOT-STDERR: goodbye", "@line:here"]
        # The marker is on source line 5 (line 1 is "/*").
        self.assertPass(self.run_case(d, extra_sh="echo 'hello case.c:5' >&2"))
        self.assertFail(self.run_case(d, extra_sh="echo 'hello case.c:4' >&2"), "does not match EXPECT-STDERR")
        self.assertFail(self.run_case(d, extra_sh="echo 'hello case.c:5; goodbye' >&2"),
                        "matches EXPECT-NOT-STDERR")

    # --- environment ---------------------------------------------------------------

    def test_max_lines_bounds_each_report_text(self):
        short = INV_AB[:-1] + ',"text":"one\\ntwo\\nthree\\n"}'
        self.assertPass(self.run_case(["EXPECT: lock-order-inversion lock_a lock_b",
                                       "EXPECT-MAX-LINES: 3"], [short], status=66))
        self.assertFail(self.run_case(["EXPECT: lock-order-inversion lock_a lock_b",
                                       "EXPECT-MAX-LINES: 2"], [short], status=66),
                        "its text has 3 lines, more than EXPECT-MAX-LINES: 2")

    def test_options_env_args_reach_the_program(self):
        d = ["EXPECT: none", "OPTIONS: max_edges=64:foo=1", "ENV: CASE_VAR=x y", "ARGS: one 'two three'"]
        check = textwrap.dedent("""\
            case "$ULOCKDEP_OPTIONS" in json_path=*:exitcode=66:max_edges=64:foo=1) ;; *) exit 9;; esac
            [ "$CASE_VAR" = "x y" ] || exit 8
            [ "$#" = 2 ] && [ "$2" = "two three" ] || exit 7
            [ -n "$LD_PRELOAD" ] || exit 6
            """)
        self.assertPass(self.run_case(d, extra_sh=check))

    def test_native_mode(self):
        check = '[ -z "$LD_PRELOAD" ] && [ -z "$ULOCKDEP_OPTIONS" ] || exit 5'
        self.assertPass(self.run_case(["EXPECT: lock-order-inversion lock_a lock_b"], extra_sh=check,
                                      native=True))
        self.assertFail(self.run_case(["EXPECT: none"], status=1, native=True), "expected 0 natively")

    def test_relative_paths(self):
        self.run_case(["EXPECT: none"])  # writes case.c and case.sh
        p = subprocess.run([sys.executable, RUNPROG, "--preload", self.preload, "--prog", "case.sh",
                            "--source", "case.c"], cwd=self.tmp.name, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stdout)

    def test_missing_program_is_an_error(self):
        self.run_case(["EXPECT: none"])  # writes case.c
        p = subprocess.run([sys.executable, RUNPROG, "--no-preload", "--prog", "/nonexistent/prog",
                            "--source", os.path.join(self.tmp.name, "case.c")],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
        self.assertEqual(p.returncode, 2, p.stdout)

    def test_unloadable_preload_fails(self):
        bogus = os.path.join(self.tmp.name, "libbogus.so")
        with open(bogus, "w") as f:
            f.write("not an ELF file\n")
        self.assertFail(self.run_case(["EXPECT: none"], preload=bogus), "could not preload")

    # --- time ------------------------------------------------------------------------

    def test_hangs_is_killed_and_checked(self):
        start = time.monotonic()
        self.assertPass(self.run_case(["HANGS: 1", "EXPECT: lock-order-inversion lock_a lock_b"],
                                      [INV_AB], extra_sh="exec sleep 30"))
        self.assertLess(time.monotonic() - start, 10)
        self.assertFail(self.run_case(["HANGS: 1", "EXPECT: lock-order-inversion lock_a lock_b"],
                                      [], extra_sh="exec sleep 30"), "missing report")

    def test_hangs_that_does_not_hang_fails(self):
        self.assertFail(self.run_case(["HANGS: 5", "EXPECT: lock-order-inversion lock_a lock_b"],
                                      [INV_AB], 66), "expected the program to deadlock")

    def test_hangs_is_skipped_natively(self):
        rc, out = self.run_case(["HANGS: 1", "EXPECT: lock-order-inversion lock_a lock_b"], native=True)
        self.assertEqual(rc, 77, out)
        self.assertIn("SKIP", out)

    def test_timeout_fails(self):
        self.assertFail(self.run_case(["EXPECT: none", "TIMEOUT: 1"], extra_sh="exec sleep 30"), "timed out")
        self.assertFail(self.run_case(["EXPECT: none"], extra_sh="exec sleep 30", timeout=1), "timed out")

    # --- directives -------------------------------------------------------------------

    def test_bad_directives(self):
        for d in ([],                                          # no EXPECT at all
                  ["EXPECT: lock-order-inversion"],            # names required
                  ["EXPECT: no-such-kind x"],
                  ["EXPECT: none", "EXPECT: limit-reached"],
                  ["EXPECTS: none"],                           # misspelt directive
                  ["EXPECT: none", "EXPECT-EXIT: x"],
                  ["EXPECT: none", "HANGS: 1", "EXPECT-EXIT: 0"],
                  ["EXPECT: none", "EXPECT-STDERR: {{line:nowhere}}"],
                  ["EXPECT: none", "EXPECT-STDERR: (unclosed"],
                  ["EXPECT: none", "EXPECT-MAX-LINES: 0"],
                  ["EXPECT: none", "ENV: novalue"]):
            with self.subTest(directives=d):
                rc, out = self.run_case(d)
                self.assertEqual(rc, 2, out)
                self.assertIn("ERROR", out)

    def test_prose_is_not_a_directive(self):
        self.assertPass(self.run_case(["NOTE: the EXPECT: lines below are the contract", "EXPECT: none"]))


if __name__ == "__main__":
    unittest.main()
