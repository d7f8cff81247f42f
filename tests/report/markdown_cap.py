#!/usr/bin/env python3
"""The Markdown report of a big run stays under GitHub's step-summary
limit (issue 27, item 3).

bench/gen_dump --overlap 3000 makes a dump whose full Markdown report is
about 3.7 MB; GitHub drops a step summary over 1 MiB whole. The report
must stay within KVET_MARKDOWN_MAX (1,000,000 bytes), keep the counts of
the whole run, list the findings worst first, account for every finding
it leaves out, and end with the line that says so and names the run's
full report.

Usage: markdown_cap.py KVET GEN_DUMP. Prints TAP.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

KVET, GEN = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
CAP = 1000000
ENV = dict(os.environ, NO_COLOR="1", LC_ALL="C")
ENV.pop("KVET_TEST_MARKDOWN_MAX", None)
n = failed = 0


def ok(cond, what, detail=""):
    global n, failed
    n += 1
    print(("ok" if cond else "not ok") + f" {n} - {what}")
    if not cond:
        failed += 1
        for line in str(detail).splitlines():
            print(f"#   {line}")


with tempfile.TemporaryDirectory() as tmp:
    dump = os.path.join(tmp, "dump.yaml")
    with open(dump, "w") as fp:
        subprocess.run([GEN, "--overlap", "3000"], stdout=fp, check=True)
    r = subprocess.run([KVET, "lint", "--format", "markdown=summary.md",
                        "--format", "json=full.json", "dump.yaml"],
                       cwd=tmp, env=ENV, capture_output=True, text=True)
    with open(os.path.join(tmp, "summary.md"), "rb") as fp:
        raw = fp.read()
    with open(os.path.join(tmp, "full.json")) as fp:
        full = json.load(fp)
    r2 = subprocess.run([KVET, "lint", "--format", "markdown", "dump.yaml"],
                        cwd=tmp, env=ENV, capture_output=True)

md = raw.decode()
lines = md.rstrip("\n").split("\n")
total = full["summary"]["findings"]
ok(len(full["findings"]) > 5000 and r.returncode == 1,
   f"the dump gives {len(full['findings'])} findings (exit {r.returncode})")
ok(len(raw) <= CAP, f"the Markdown report is {len(raw)} bytes, "
   f"at most {CAP}", f"{len(raw)} bytes")
ok(md.startswith(f"### kvet: {total['error']} errors, {total['warning']} "
                 f"warnings, {total['info']} infos\n"),
   "its heading has the counts of the whole run", lines[0])
last = lines[-1]
m = re.match(r"\*\*Left out:\*\* (\d+) findings \((\d+) errors?, (\d+) "
             r"warnings?, (\d+) infos?\)", last)
ok(m and "`full.json`" in last,
   "it ends with the left-out line, which names the run's JSON report",
   last)
kept = {s: len(re.findall(rf"^- \*\*{s}\*\* ", md, re.M))
        for s in ("error", "warning", "info")}
if m:
    left = dict(zip(("error", "warning", "info"),
                    (int(m.group(i)) for i in (2, 3, 4))))
    ok(int(m.group(1)) == sum(left.values()) and
       all(kept[s] + left[s] == total[s] for s in kept),
       "the findings it lists and those it leaves out add up to the run's",
       f"kept {kept}, left out {left}, run {total}")
sev = re.findall(r"^- \*\*(error|warning|info)\*\* ", md, re.M)
rank = {"error": 0, "warning": 1, "info": 2}
ok(sev == sorted(sev, key=rank.get) and kept["error"] == total["error"],
   "the findings are listed worst first, every error among them",
   f"first out of order at {next((i for i in range(1, len(sev)) if rank[sev[i]] < rank[sev[i-1]]), None)}")
out = r2.stdout.decode()
ok(len(r2.stdout) <= CAP and out.rstrip("\n").split("\n")[-1].endswith(
   "write the full report as well with `--format json=FILE` (or text, "
   "sarif) and keep it as an artifact."),
   "on standard output, with no other report, it says how to get one",
   out[-300:])
print(f"1..{n}")
sys.exit(1 if failed else 0)
