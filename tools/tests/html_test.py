#!/usr/bin/env python3
"""html_test.py - `--format html` rendered by a real browser (python3, stdlib).

usage: html_test.py --ulockdep BIN --fixtures DIR

Writes the page of `ulockdep report` (the report fixtures) and of `ulockdep merge` (a
cross-run cycle), loads each in headless Chromium (`--dump-dom`: the DOM after parsing and
layout) and checks that the rendered DOM holds every report of `--format json`, one SVG per
report with a cycle, and nothing fetched from elsewhere (no script, no external link).
Chromium is the Debian package `chromium`: installed here when running as root, else the
test is skipped (exit 77) with a message.
"""
import argparse
import html.parser
import json
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77


def find_chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    if os.geteuid() == 0 and shutil.which("apt-get"):
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        for cmd in (["apt-get", "install", "-y", "--no-install-recommends", "chromium"],
                    ["apt-get", "update"],
                    ["apt-get", "install", "-y", "--no-install-recommends", "chromium"]):
            subprocess.run(cmd, env=env, capture_output=True, timeout=900)
            if cmd[1] == "install" and shutil.which("chromium"):
                return shutil.which("chromium")
    return None


class Dom(html.parser.HTMLParser):
    """Sections of class report, the SVGs inside each, and anything external."""

    def __init__(self):
        super().__init__()
        self.sections = []  # [kind, svg count]
        self.external = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section" and "report" in (a.get("class") or "").split():
            self.sections.append([a.get("data-kind"), 0])
        elif tag == "svg" and self.sections:
            self.sections[-1][1] += 1
        if tag == "script" or (tag in ("link", "img", "iframe") and
                               (a.get("href") or a.get("src") or "").startswith(("http", "//"))):
            self.external.append((tag, a))


def rendered(chromium, page):
    p = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                        "--no-first-run", "--disable-extensions", "--dump-dom",
                        "file://" + page], capture_output=True, text=True, timeout=120)
    if p.returncode != 0 or "<section" not in p.stdout:
        raise AssertionError(f"chromium failed ({p.returncode}): {p.stderr[-2000:]}")
    d = Dom()
    d.feed(p.stdout)
    return d


def check(ul, chromium, work, cmd, inputs):
    rc, = [subprocess.run([ul, cmd, "--format", "html", "--output", "page.html", *inputs],
                          cwd=work, capture_output=True, text=True).returncode]
    if rc not in (0, 1):
        raise AssertionError(f"{cmd} --format html: exit status {rc}")
    out = subprocess.run([ul, cmd, "--format", "json", *inputs], cwd=work,
                         capture_output=True, text=True).stdout
    reps = [json.loads(l) for l in out.splitlines() if l.strip()]
    dom = rendered(chromium, os.path.join(work, "page.html"))
    kinds = [k for k, _ in dom.sections]
    if kinds != [r["kind"] for r in reps]:
        raise AssertionError(f"{cmd}: the page shows {kinds}, the reports are "
                             f"{[r['kind'] for r in reps]}")
    for (kind, svgs), r in zip(dom.sections, reps):
        want = 1 if r.get("cycle") else 0
        if svgs != want:
            raise AssertionError(f"{cmd}: {kind} has {svgs} SVG drawings, expected {want}")
    if dom.external:
        raise AssertionError(f"{cmd}: the page loads things from elsewhere: {dom.external}")
    if not any(r.get("cycle") for r in reps):
        raise AssertionError(f"{cmd}: the inputs must give a report with a cycle")
    return len(reps)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ulockdep", required=True)
    ap.add_argument("--fixtures", required=True)
    a = ap.parse_args()
    chromium = find_chromium()
    if not chromium:
        print("SKIP: headless Chromium (Debian package chromium) is not installed and cannot "
              "be installed here (not root or no apt-get)")
        return SKIP
    ul = os.path.abspath(a.ulockdep)
    work = tempfile.mkdtemp(prefix="uld-html-")
    try:
        shutil.copytree(a.fixtures, os.path.join(work, "fx"))
        n = check(ul, chromium, work, "report", ["fx/reports"])
        m = check(ul, chromium, work, "merge", ["fx/graphs/cross", "fx/graphs/three"])
    except AssertionError as e:
        print(f"FAIL: {e}")
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"ok: {n} reports and {m} cross-run cycles rendered by {chromium}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
