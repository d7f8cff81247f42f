#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Validate kvet's JUnit and SARIF reports with the tools CI uses.

usage: check_reports.py junit|sarif KVET TESTDATA SCHEMAS

For every golden lint and drain case under TESTDATA (see testdata/README.md), run kvet
once with --format json=, junit= and sarif= files (so one run writes several
reports), then:

  junit: validate the report against SCHEMAS/junit-10.xsd with xmllint
         --schema, read it back with junitparser, and check every count
         attribute and every message against the JSON report of the run;
  sarif: validate the report against SCHEMAS/sarif-schema-2.1.0.json with
         jsonschema, and check results, rules, positions and fingerprints
         against the JSON report.

Exits 77 (meson's "skipped") when SCHEMAS is absent, saying so.
"""

import json
import os
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
            yield root, args


def run_kvet(kvet, case, args, out):
    reports = {fmt: os.path.join(out, "report." + fmt)
               for fmt in ("json", "junit", "sarif")}
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
        return json.load(f), reports


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


def check_junit(report, xml_path, schemas):
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
    failing = {}
    for f in report["findings"]:
        failing.setdefault((f["rule"], identity(f["object"]),
                            f["file"]), []).append(f)
    check(len(failures) == len(failing),
          f"{len(failures)} failures for {len(failing)} failing objects")
    for suite_name, case, r in failures:
        key = next((k for k in failing if k[0] == suite_name and
                    case.name == sanitize(f"{k[1]} ({k[2]})")), None)
        check(key is not None, f"no finding for failure {case.name!r}")
        found = failing[key]
        check(r.type == found[0]["severity"], f"{case.name}: type {r.type}")
        for f in found:
            check(sanitize(f["message"]) in r.message,
                  f"{case.name}: message misses {f['message']!r}")
            place = f'{f["file"]}:{f["line"]}:{f["column"]}: '
            check(sanitize(place + f["severity"] + ": " + f["message"])
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
    for key in ("version", "informationUri", "rules"):
        check(key in driver, f"driver misses {key}")
    rules = [r["id"] for r in driver["rules"]]
    check(rules == sorted(rules), "rules are not sorted by id")
    for r in driver["rules"]:
        for key in ("shortDescription", "fullDescription", "help",
                    "helpUri", "defaultConfiguration"):
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
            check(len(res.get("relatedLocations", [])) == len(f["related"]),
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


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in ("junit", "sarif"):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    what, kvet, testdata, schemas = sys.argv[1:]
    if not os.path.isdir(schemas):
        print(f"skipped: {schemas} is absent (kvet's ../shared checkout); "
              f"the {what} report is not validated")
        return SKIP
    debian_modules()
    kvet = os.path.abspath(kvet)
    n = failed = 0
    for case, args in cases(testdata):
        name = os.path.relpath(case, testdata)
        n += 1
        with tempfile.TemporaryDirectory() as out:
            try:
                report, paths = run_kvet(kvet, case, args, out)
                if what == "junit":
                    check_junit(report, paths["junit"], schemas)
                else:
                    check_sarif(report, paths["sarif"], schemas)
                print(f"ok {n} - {name}")
            except Exception as e:  # report every case, then fail
                failed += 1
                print(f"not ok {n} - {name}: {type(e).__name__}: {e}")
    print(f"1..{n}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
