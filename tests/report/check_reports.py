#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Validate kvet's JUnit and SARIF reports with the tools CI uses.

usage: check_reports.py FORMAT KVET TESTDATA SCHEMAS

For every golden lint and drain case under TESTDATA (see testdata/README.md), run kvet
once with --format json= and FORMAT= files (so one run writes several
reports), then check the FORMAT report against its documented shape:

  junit: validate the report against SCHEMAS/junit-10.xsd with xmllint
         --schema, read it back with junitparser, and check every count
         attribute and every headline against the JSON report of the run,
         and that a test case fails exactly when a finding of it counts
         for the exit status (--fail-on, --write-baseline);
  sarif: validate the report against SCHEMAS/sarif-schema-2.1.0.json with
         jsonschema, and check results, rules, positions and fingerprints
         against the JSON report;
  codequality: the JSON array GitLab documents (docs.gitlab.com,
         ci/testing/code_quality, "Code Quality report format"): every
         issue has description, check_name, a unique fingerprint, a
         severity GitLab knows, location.path and location.lines.begin;
         one per finding and per error with a file, in the JSON report's
         order;
  markdown: rendered with cmark-gfm (GitHub Flavored Markdown), the HTML
         holds only the elements kvet writes, no link but the rules' help
         links, a table row per rule with findings whose counts add up,
         and every headline, reason and help as text;
  github: workflow commands as actions/toolkit documents them (::LEVEL
         PROPERTIES::MESSAGE, one per line), errors before warnings before
         notices, one per error, notice and finding, and a level over
         GitHub's limit of 10 per step led by an annotation that counts
         what GitHub will not show.

Exits 77 (meson's "skipped") when SCHEMAS is absent (junit, sarif) or
cmark-gfm is not installed (markdown), saying so.
"""

import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
DEBIAN_PYTHON = "/usr/bin/python3"


def debian_modules():
    """The checks use Debian's python3-junitparser and python3-jsonschema;
    an interpreter earlier on PATH (pyenv, a venv) may lack them."""
    try:
        import jsonschema  # noqa: F401
        import junitparser  # noqa: F401
    except ImportError:
        if (os.path.exists(DEBIAN_PYTHON) and
                os.path.realpath(sys.executable) !=
                os.path.realpath(DEBIAN_PYTHON) and
                not os.environ.get("KVET_REEXEC")):
            os.environ["KVET_REEXEC"] = "1"
            os.execv(DEBIAN_PYTHON, [DEBIAN_PYTHON] + sys.argv)
        raise


def cases(testdata):
    for root, _dirs, files in sorted(os.walk(testdata)):
        if "args" not in files:
            continue
        with open(os.path.join(root, "args"), encoding="utf-8") as f:
            args = [l.rstrip("\n") for l in f
                    if l.strip() and not l.startswith("#")]
        with open(os.path.join(root, "exit-code"), encoding="utf-8") as f:
            usage_error = f.read().strip() == "3"
        if args and args[0] in ("lint", "drain") and not usage_error and not any(
                a.startswith("--format") for a in args):
            yield root, args, missing_programs(root)


def missing_programs(case):
    """The programs of the case's `requires` file not on PATH (helm,
    kubectl): the golden runner skips such a case, and so does this."""
    path = os.path.join(case, "requires")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [p.strip() for p in f if p.strip() and not shutil.which(p.strip())]


def run_kvet(kvet, case, args, out, what):
    reports = {fmt: os.path.join(out, "report." + fmt)
               for fmt in ("json", what)}
    argv = [kvet, args[0]]
    for fmt, path in reports.items():
        argv += ["--format", f"{fmt}={path}"]
    argv += args[1:]
    stdin_path = os.path.join(case, "stdin")
    with open(stdin_path if os.path.exists(stdin_path) else os.devnull,
              "rb") as stdin:
        proc = subprocess.run(argv, cwd=case, stdin=stdin,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode not in (0, 1, 2):
        raise AssertionError(f"kvet exited {proc.returncode}: "
                             f"{proc.stderr.decode(errors='replace')}")
    if proc.stdout:
        raise AssertionError("reports written to files, yet kvet printed "
                             "on standard output")
    leftovers = [n for n in os.listdir(out) if ".tmp." in n]
    if leftovers:
        raise AssertionError(f"temporary files left: {leftovers}")
    with open(reports["json"], encoding="utf-8") as f:
        return json.load(f), reports, proc.returncode


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def identity(obj):
    ns = obj["namespace"]
    return f'{obj["kind"]} {ns + "/" if ns else ""}{obj["name"]}'


def check_drain_junit(report, xml):
    """kvet drain: one test case per node of the JSON report's "drain",
    failing when the node is blocked, skipped when it was not reached."""
    from junitparser import Failure, Skipped

    nodes = report["drain"]["nodes"]
    suites = [s for s in xml if s.name == "drain"]
    check(len(suites) == 1, "one drain suite")
    cases = list(suites[0])
    check(len(cases) == len(nodes), f"{len(cases)} cases, {len(nodes)} nodes")
    for case, node in zip(cases, nodes):
        check(case.name.startswith("node " + node["name"]), case.name)
        results = list(case.result)
        failed = any(isinstance(r, Failure) for r in results)
        skipped = any(isinstance(r, Skipped) for r in results)
        check(failed == (node["verdict"] == "blocked"),
              f"{case.name}: failure for verdict {node['verdict']}")
        check(skipped == (node["verdict"] == "not-reached"),
              f"{case.name}: skipped for verdict {node['verdict']}")
        for i in node["findings"]:
            f = report["findings"][i]
            if failed and f["severity"] == "error":
                check(sanitize(f["message"]) in results[0].message,
                      f"{case.name}: message misses {f['message']!r}")


SEVERITIES = ["info", "warning", "error"]


def gate(args):
    """The findings that count for the exit status, from kvet's args."""
    fail_on, never = "warning", False
    for i, a in enumerate(args):
        value = None
        if a == "--fail-on" and i + 1 < len(args):
            value = args[i + 1]
        elif a.startswith("--fail-on="):
            value = a.split("=", 1)[1]
        if value == "never":
            never = True
        elif value:
            fail_on, never = value, False
        if a == "--write-baseline" or a.startswith("--write-baseline="):
            never = True
    return lambda f: (not never and SEVERITIES.index(f["severity"]) >=
                      SEVERITIES.index(fail_on))


def check_junit(report, xml_path, schemas, fails):
    from junitparser import JUnitXml, Error, Failure, Skipped

    xsd = os.path.join(schemas, "junit-10.xsd")
    proc = subprocess.run(["xmllint", "--noout", "--schema", xsd, xml_path],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    check(proc.returncode == 0,
          "xmllint: " + proc.stderr.decode(errors="replace"))

    xml = JUnitXml.fromfile(xml_path)
    totals = {"tests": 0, "failures": 0, "errors": 0}
    failures, errors, tolerated = [], [], []
    for suite in xml:
        counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        for case in suite:
            counts["tests"] += 1
            results = list(case.result)
            check(len(results) <= 1,
                  f"{case.name}: more than one result element")
            for r in results:
                if isinstance(r, Failure):
                    counts["failures"] += 1
                    failures.append((suite.name, case, r))
                elif isinstance(r, Error):
                    counts["errors"] += 1
                    errors.append(r)
                elif isinstance(r, Skipped):
                    counts["skipped"] += 1
                    if suite.name == "evaluation-errors":
                        tolerated.append(r)
            check(case.classname == suite.name,
                  f"{case.name}: classname {case.classname}")
        for key, val in counts.items():
            check(getattr(suite, key) == val,
                  f"suite {suite.name}: {key}={getattr(suite, key)}, "
                  f"counted {val}")
        for key in totals:
            totals[key] += counts[key]
    for key, val in totals.items():
        check(int(xml._elem.get(key)) == val,
              f"testsuites {key}={xml._elem.get(key)}, counted {val}")
    if "drain" in report:
        check_drain_junit(report, xml)
        return

    # The JSON report of the same run says what the JUnit one must hold:
    # an <error> per error, a <skipped> per evaluation error that its
    # rule tolerates.
    hard = [e for e in report["errors"] if not e.get("tolerated")]
    check(len(errors) == len(hard),
          f"{len(errors)} <error>s for {len(hard)} errors")
    for r, e in zip(errors, hard):
        check(r.message == sanitize(e["message"]),
              f"error message {r.message!r}")
    passing = [e for e in report["errors"] if e.get("tolerated")]
    check(len(tolerated) == len(passing),
          f"{len(tolerated)} tolerated for {len(passing)} errors")
    for r, e in zip(tolerated, passing):
        check(r.message == sanitize("tolerated: " + e["message"]),
              f"tolerated message {r.message!r}")
    # a test case is named by the object's input; a finding moved to a
    # chart's template line keeps that input in "rendered"
    by_case = {}
    for f in report["findings"]:
        where = (f.get("rendered") or f)["file"]
        by_case.setdefault((f["rule"], identity(f["object"]),
                            where), []).append(f)
    failing = {k: v for k, v in by_case.items() if any(map(fails, v))}
    passing = {k: v for k, v in by_case.items() if k not in failing}
    check(len(failures) == len(failing),
          f"{len(failures)} failures for {len(failing)} failing objects")
    # below the gate: a passed test case that shows its findings
    for key, found in passing.items():
        case = next((c for s in xml if s.name == key[0] for c in s
                     if c.name == sanitize(f"{key[1]} ({key[2]})")), None)
        check(case is not None, f"no test case for {key}")
        check(not list(case.result), f"{case.name}: passes the gate, "
              f"yet has {list(case.result)}")
        for f in found:
            place = f'{f["file"]}:{f["line"]}:{f["column"]}: '
            check(sanitize(place + f["severity"] + ": " + f["headline"])
                  in (case.system_out or ""),
                  f"{case.name}: system-out misses {place}")
    for suite_name, case, r in failures:
        key = next((k for k in failing if k[0] == suite_name and
                    case.name == sanitize(f"{k[1]} ({k[2]})")), None)
        check(key is not None, f"no finding for failure {case.name!r}")
        found = failing[key]
        check(r.type == found[0]["severity"], f"{case.name}: type {r.type}")
        for f in found:
            check(sanitize(f["headline"]) in r.message,
                  f"{case.name}: message misses {f['headline']!r}")
            place = f'{f["file"]}:{f["line"]}:{f["column"]}: '
            check(sanitize(place + f["severity"] + ": " + f["headline"])
                  in r.text, f"{case.name}: body misses {place}")


def sanitize(s):
    """What kvet_xml_sanitize() does to text the JSON report holds."""
    out = []
    for ch in s:
        c = ord(ch)
        if (c < 0x20 and ch not in "\t\n\r") or c in (0xFFFE, 0xFFFF):
            out.append("\uFFFD")
        else:
            out.append(ch)
    # an XML parser turns CR LF and lone CR into LF in text
    return "".join(out)


def check_sarif(report, sarif_path, schemas):
    import jsonschema

    with open(os.path.join(schemas, "sarif-schema-2.1.0.json"),
              encoding="utf-8") as f:
        schema = json.load(f)
    with open(sarif_path, encoding="utf-8") as f:
        sarif = json.load(f)
    jsonschema.validate(sarif, schema)

    run = sarif["runs"][0]
    driver = run["tool"]["driver"]
    check(driver["name"] == "kvet", "driver name")
    for key in ("version", "rules"):
        check(key in driver, f"driver misses {key}")
    # kvet has no site of its own: a link only where the user set one
    check("//kvet.dev" not in json.dumps(sarif), "a link to kvet.dev")
    rules = [r["id"] for r in driver["rules"]]
    check(rules == sorted(rules), "rules are not sorted by id")
    for r in driver["rules"]:
        for key in ("shortDescription", "fullDescription", "help",
                    "defaultConfiguration"):
            check(key in r, f"rule {r['id']} misses {key}")

    # reported findings first, then the suppressed ones, each in order
    everything = report["findings"] + report["suppressed"]
    results = run["results"]
    check(len(results) == len(everything),
          f"{len(results)} results for {len(everything)} findings")
    held = [r for r in results if r.get("suppressions")]
    check(len(held) == len(report["suppressed"]),
          f"{len(held)} suppressed results for "
          f"{len(report['suppressed'])} suppressed findings")
    prints = set()
    for res, f in zip(results, everything):
        check(res["ruleId"] == f["rule"], "ruleId")
        check(rules[res["ruleIndex"]] == f["rule"], "ruleIndex")
        check(res["message"]["text"] == f["message"], "message")
        if "headline" in f:
            check(res["properties"]["headline"] == f["headline"],
                  "properties.headline")
            check(res["properties"].get("help") == f["help"],
                  "properties.help")
        level = {"error": "error", "warning": "warning", "info": "note"}
        if "severity" in f:
            check(res["level"] == level[f["severity"]], "level")
        loc = res["locations"][0]["physicalLocation"]
        check(loc["region"]["startLine"] == f["line"], "startLine")
        check(loc["region"]["startColumn"] == f["column"], "startColumn")
        uri = loc["artifactLocation"]["uri"]
        check(not uri.startswith("/") and "://" not in uri or
              f["file"].startswith("/"), f"absolute URI {uri}")
        if "related" in f:
            # a node kvet made up (a synthetic pool's, a surge node) has
            # no file, so no physical location to relate
            placed = [r for r in f["related"] if r.get("file")]
            check(len(res.get("relatedLocations", [])) == len(placed),
                  "relatedLocations")
        fp = tuple(sorted(res["partialFingerprints"].items()))
        check(fp not in prints, f"fingerprint {fp} is not unique")
        prints.add(fp)
    notes = run["invocations"][0]["toolExecutionNotifications"]
    check(len(notes) == len(report["errors"]) + len(report["notices"]),
          "notifications: one per error and notice")
    for note, e in zip(notes, report["errors"]):
        check(note["level"] == ("warning" if e.get("tolerated")
                                else "error"), "notification level")
        check(note["message"]["text"] == e["message"], "notification text")
        if "rule" in e:
            check(note["associatedRule"]["id"] == e["rule"],
                  "notification rule")
    check(run["invocations"][0]["executionSuccessful"] ==
          (not any(not e.get("tolerated") for e in report["errors"])),
          "executionSuccessful")


CHECKS = {
    "junit": lambda r, p, s, fails, rc: check_junit(r, p, s, fails),
    "sarif": lambda r, p, s, fails, rc: check_sarif(r, p, s),
    "codequality": lambda r, p, s, fails, rc: check_codequality(r, p),
    "markdown": lambda r, p, s, fails, rc: check_markdown(r, p, rc),
    "github": lambda r, p, s, fails, rc: check_github(r, p),
}


CQ_SEVERITIES = {"info", "minor", "major", "critical", "blocker"}


def check_codequality(report, path):
    with open(path, encoding="utf-8") as f:
        issues = json.load(f)
    check(isinstance(issues, list), "not a JSON array")
    want = [(f["rule"], f["headline"], f["file"], f["line"])
            for f in report["findings"] if f["file"]]
    want += [("evaluation-error" if "rule" in e else "input-error",
              e["message"], e["file"], e["line"])
             for e in report["errors"] if e["file"]]
    check(len(issues) == len(want), f"{len(issues)} issues for {len(want)}")
    prints = set()
    for issue, (rule, message, file, line) in zip(issues, want):
        for key, kind in (("description", str), ("check_name", str),
                          ("fingerprint", str), ("severity", str),
                          ("location", dict)):
            check(isinstance(issue.get(key), kind), f"{key}: {issue}")
        check(issue["severity"] in CQ_SEVERITIES, issue["severity"])
        check(issue["fingerprint"] not in prints,
              f"fingerprint {issue['fingerprint']} twice: GitLab keeps one")
        prints.add(issue["fingerprint"])
        check(issue["check_name"] == rule, f"check_name {issue}")
        check(issue["description"] == message, f"description {issue}")
        loc = issue["location"]
        expect = "stdin" if file == "<stdin>" else re.sub(r"^(\./)+", "",
                                                          file)
        check(loc["path"] == expect, f"path {loc['path']} for {file}")
        check(isinstance(loc["lines"]["begin"], int) and
              loc["lines"]["begin"] == (line or 1), f"lines {loc}")


# What render_markdown.c writes, and nothing a manifest could add.
MD_TAGS = {"h3", "h4", "p", "table", "thead", "tbody", "tr", "th", "td",
           "ul", "li", "strong", "a"}


def check_drain_markdown(report, out):
    """kvet drain: a section before the rules, a row per node with its
    verdict and counts, then the causes of a stall; returns the report
    without that section, for the checks every report passes."""
    start = out.find("<h4>Drain, ")
    check(start >= 0, "no drain section")
    end = out.find("</table>", start)
    check(end > start, "no drain table")
    rows = re.findall(r"<tr>\s*<td>(.*?)</td>\s*<td[^>]*>(\d*)</td>\s*"
                      r"<td>(.*?)</td>", out[start:end], re.S)
    nodes = report["drain"]["nodes"]
    check(len(rows) == len(nodes), f"{len(rows)} rows for {len(nodes)} nodes")
    for (name, _step, verdict), node in zip(rows, nodes):
        check(html.unescape(name) == node["name"], f"row {name}")
        check(verdict == node["verdict"], f"{name}: verdict {verdict}")
    for step in report["drain"].get("steps", []):
        for cause in step["causes"]:
            check(cause in html.unescape(re.sub(r"<[^>]+>", "", out)),
                  f"cause missing: {cause!r}")
    rest = [i for i in (out.find("<table>", end), out.find("<h4>", end))
            if i >= 0]
    return out[:start] + (out[min(rest):] if rest else "")


def check_markdown(report, path, rc):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    proc = subprocess.run(["cmark-gfm", "--extension", "table",
                           "--extension", "autolink",
                           "--extension", "strikethrough"],
                          input=text.encode(), stdout=subprocess.PIPE,
                          check=True)
    out = proc.stdout.decode()
    if "drain" in report:
        out = check_drain_markdown(report, out)
    tags = set(re.findall(r"</?([a-z0-9]+)", out))
    check(tags <= MD_TAGS, f"unexpected HTML elements {tags - MD_TAGS}")
    # the only links are the rules' help links, one per table row
    links = re.findall(r'<a href="([^"]*)"', out)
    in_table = re.findall(r'<td><a href="([^"]*)"', out)
    check(links == in_table, f"links outside the rule table: {links}")
    rows = re.findall(r"<tr>\s*<td>(.*?)</td>\s*<td>(.*?)</td>\s*"
                      r"<td[^>]*>(\d+)</td>", out, re.S)
    rules = {}
    for f in report["findings"]:
        rules[f["rule"]] = rules.get(f["rule"], 0) + 1
    check(len(rows) == len(rules), f"{len(rows)} rows for {len(rules)} rules")
    for cell, _sev, count in rows:
        rule = html.unescape(re.sub(r"<[^>]+>", "", cell))
        check(rules.get(rule) == int(count), f"row {rule}: {count}")
    # an item per finding and error, the reason and help in a list below
    items = re.findall(r"<li><strong>", out)
    check(len(items) == len(report["findings"]) + len(report["errors"]),
          f"{len(items)} items for the findings and errors")
    plain = html.unescape(re.sub(r"<[^>]+>", "", out))
    texts = [f[k] for f in report["findings"]
             for k in ("headline", "reason", "help") if f.get(k)]
    texts += [e["message"] for e in report["errors"]]
    for text in texts:
        msg = re.sub(r"[\x00-\x1f\x7f-\x9f]", lambda m: " "
                     if m.group() in "\t\n\r" else "\ufffd", text)
        check(msg in plain, f"text missing: {text!r}")
    verdict = {0: "passes", 1: "fails", 2: "could not be linted"}[rc]
    check(verdict in plain, f"verdict {verdict!r} for exit code {rc}")


GITHUB_LINE = re.compile(r"^::(error|warning|notice)( [^:]*)?::(.*)$")
GITHUB_LIMIT = 10


def check_github(report, path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    order = {"error": 0, "warning": 1, "notice": 2}
    levels = []
    for line in lines:
        m = GITHUB_LINE.match(line)
        check(m, f"not a workflow command: {line!r}")
        levels.append(m.group(1))
    check(levels == sorted(levels, key=order.get),
          "errors, then warnings, then notices")
    want = {"error": 0, "warning": 0, "notice": 0}
    for e in report["errors"]:
        want["warning" if e.get("tolerated") else "error"] += 1
    for n in report["notices"]:
        if n["level"] != "detail":
            want["warning" if n["level"] == "warning" else "notice"] += 1
    for f in report["findings"]:
        want[{"info": "notice"}.get(f["severity"], f["severity"])] += 1
    for level, n in want.items():
        got = [l for l, lv in zip(lines, levels) if lv == level]
        over = n > GITHUB_LIMIT
        check(len(got) == n + over, f"{len(got)} {level} lines for {n}")
        if over:
            check(got[0].startswith(f"::{level} title=kvet::{n} ") and
                  f"so {n - GITHUB_LIMIT + 1} of them" in got[0],
                  f"first {level} line does not count the hidden ones")


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in CHECKS:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    what, kvet, testdata, schemas = sys.argv[1:]
    if what in ("junit", "sarif") and not os.path.isdir(schemas):
        print(f"skipped: {schemas} is absent (kvet's ../shared checkout); "
              f"the {what} report is not validated")
        return SKIP
    if what == "markdown" and not shutil.which("cmark-gfm"):
        print("skipped: cmark-gfm is not installed (Debian package "
              "cmark-gfm); the markdown report is not rendered")
        return SKIP
    if what in ("junit", "sarif"):
        debian_modules()
    kvet = os.path.abspath(kvet)
    n = failed = 0
    for case, args, missing in cases(testdata):
        name = os.path.relpath(case, testdata)
        n += 1
        if missing:
            print(f"ok {n} - {name} # SKIP not on PATH: {' '.join(missing)} "
                  "(scripts/test installs them)")
            continue
        with tempfile.TemporaryDirectory() as out:
            try:
                report, paths, rc = run_kvet(kvet, case, args, out, what)
                CHECKS[what](report, paths[what], schemas, gate(args), rc)
                print(f"ok {n} - {name}")
            except Exception as e:  # report every case, then fail
                failed += 1
                print(f"not ok {n} - {name}: {type(e).__name__}: {e}")
    print(f"1..{n}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
