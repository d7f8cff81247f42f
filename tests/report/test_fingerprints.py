#!/usr/bin/env python3
"""Fingerprints stay put when unrelated inputs are added and arguments
reordered (issue 27, item 2).

Run A lints two cases' inputs; run B lints the same files in another
order with two unrelated renders between them, which move the synthetic
pool's node where the roll stalls on the budget (node-1 in A, node-2 in
B: the words of pdb-blocks-single-replica, which tells that stall, change,
and its related Node with them; the fingerprint must not). Every finding of A
must come back in B with the same fingerprint in each format that
carries one: SARIF partialFingerprints, Code Quality's fingerprint and
the baseline file; and A's baseline must hold back every one of A's
findings in B, with no entry left stale. (The JSON report carries no
fingerprint; it is used here to know each finding's object.)

Usage: test_fingerprints.py KVET TESTDATA. Prints TAP.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

KVET, DATA = os.path.abspath(sys.argv[1]), sys.argv[2]
A = ["rules-rolling-upgrade-seed-pdb/pdb.yaml", "baseline-reordered/v1.yaml"]
B = ["baseline-reordered/v1.yaml", "fingerprint-unrelated/unrelated-b.yaml",
     "rules-rolling-upgrade-seed-pdb/pdb.yaml",
     "fingerprint-unrelated/unrelated-a.yaml"]
ENV = dict(os.environ, NO_COLOR="1", LC_ALL="C")
n = 0
failed = 0


def ok(cond, what, detail=""):
    global n, failed
    n += 1
    if cond:
        print(f"ok {n} - {what}")
    else:
        failed += 1
        print(f"not ok {n} - {what}")
        for line in str(detail).splitlines():
            print(f"#   {line}")


def kvet(*args):
    r = subprocess.run([KVET, "lint", *args], cwd=DATA, env=ENV,
                       capture_output=True, text=True)
    if r.returncode not in (0, 1):
        print(f"Bail out! kvet lint {' '.join(args)} exited "
              f"{r.returncode}: {r.stderr}")
        sys.exit(1)
    return r.stdout


def place(file, line, col=None):
    return (file, line) if col is None else (file, line, col)


def sarif_fps(inputs):
    doc = json.loads(kvet("--format", "sarif", *inputs))
    out = {}
    for res in doc["runs"][0]["results"]:
        loc = res["locations"][0]["physicalLocation"]
        key = (res["ruleId"], loc["artifactLocation"]["uri"],
               loc["region"]["startLine"], loc["region"]["startColumn"])
        out[key] = res["partialFingerprints"]["kvetFindingHash/v3"]
    return out


def cq_fps(inputs):
    out = {}
    for issue in json.loads(kvet("--format", "codequality", *inputs)):
        key = (issue["check_name"], issue["location"]["path"],
               issue["location"]["lines"]["begin"])
        out.setdefault(key, []).append(issue["fingerprint"])
    return {k: sorted(v) for k, v in out.items()}


def messages(inputs):
    doc = json.loads(kvet("--format", "json", *inputs))
    return {(f["rule"], f["file"], f["line"]): f["message"]
            for f in doc["findings"]}


def baseline(inputs, path):
    kvet("--write-baseline", path, *inputs)
    with open(path) as fp:
        text = fp.read()
    entries = set()
    for block in text.split("\n- ")[1:]:
        fields = dict(re.findall(r"^ *(rule|kind|namespace|name|field|"
                                 r"fingerprint): (.*)$", "  " + block, re.M))
        entries.add(tuple(fields.get(k) for k in
                          ("rule", "kind", "namespace", "name", "field",
                           "fingerprint")))
    return text, entries


ms_a, ms_b = messages(A), messages(B)
stall = [k for k in ms_a if "a rolling upgrade of" in ms_a[k]]
ok(len(stall) == 1 and stall[0][0] == "pdb-blocks-single-replica"
   and 'node "node-1"' in ms_a[stall[0]]
   and 'node "node-2"' in ms_b.get(stall[0], ""),
   "the unrelated renders move the stall from node-1 to node-2 "
   "(the message changes)",
   f"A: {[ms_a[k] for k in stall]}\nB: {ms_b.get(stall[0]) if stall else None}")

sa, sb = sarif_fps(A), sarif_fps(B)
missing = [k for k in sa if k not in sb]
moved = [(k, sa[k], sb[k]) for k in sa if k in sb and sa[k] != sb[k]]
ok(sa and not missing and not moved,
   f"SARIF: all {len(sa)} partialFingerprints of run A are in run B, unchanged",
   f"missing: {missing}\nchanged: {moved}")

ca, cb = cq_fps(A), cq_fps(B)
missing = [k for k in ca if k not in cb]
moved = [(k, ca[k], cb[k]) for k in ca if k in cb and ca[k] != cb[k]]
ok(ca and not missing and not moved,
   f"Code Quality: all {len(ca)} fingerprints of run A are in run B, unchanged",
   f"missing: {missing}\nchanged: {moved}")

sarif_hashes = {v.split(":")[0] for v in sa.values()}
cq_hashes = {v.split(":")[0] for vs in ca.values() for v in vs}
ok(sarif_hashes == cq_hashes,
   "SARIF and Code Quality give the findings the same hashes",
   f"only SARIF: {sarif_hashes - cq_hashes}\n"
   f"only Code Quality: {cq_hashes - sarif_hashes}")

with tempfile.TemporaryDirectory() as tmp:
    text_a, ea = baseline(A, os.path.join(tmp, "a.yaml"))
    text_b, eb = baseline(B, os.path.join(tmp, "b.yaml"))
    ok(text_a.count("\n- rule: ") == len(ea) and ea and ea <= eb,
       f"baseline: all {len(ea)} entries of run A are in run B's, "
       "fingerprints unchanged",
       f"only in A: {sorted(ea - eb)}")
    bl_hashes = {e[5].strip('"') for e in ea}
    ok(bl_hashes == sarif_hashes,
       "the baseline's fingerprints are SARIF's hashes",
       f"only baseline: {bl_hashes - sarif_hashes}\n"
       f"only SARIF: {sarif_hashes - bl_hashes}")
    doc = json.loads(kvet("--format", "json", "--baseline",
                          os.path.join(tmp, "a.yaml"), *B))
    new = [f for f in doc["findings"]
           if not f["file"].startswith("fingerprint-unrelated/")]
    held = [s for s in doc["suppressed"] if s["reason"] == "baseline"]
    ok(not new and len(held) == len(ea) and not doc["baseline"]["stale"]
       and not doc["notices"],
       "run A's baseline holds back every finding of A in run B, "
       "exactly, with no stale entry",
       f"new: {[(f['rule'], f['file'], f['line']) for f in new]}\n"
       f"held back: {len(held)} of {len(ea)}\n"
       f"stale: {doc['baseline']['stale']}\nnotices: {doc['notices']}")

print(f"1..{n}")
sys.exit(1 if failed else 0)
