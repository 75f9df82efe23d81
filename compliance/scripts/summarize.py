#!/usr/bin/env python3
"""Per-suite pass/fail counts and failing test names from the compliance module's Surefire reports.

Usage: python3 compliance/scripts/summarize.py [compliance/target/surefire-reports]

Counts every reported test case once: a W3C case, one isolation level of a parameterized test, one test of
the JUnit 4 OptimisticIsolationTest suite. A test switched off with @Disabled counts once as skipped.
"""
import glob
import os
import sys
import xml.etree.ElementTree as ET

OPTIMISTIC = "org.eclipse.rdf4j.testsuite.repository.optimistic."


def suite_of(classname):
    if classname.startswith(OPTIMISTIC):
        return "BasaltOptimisticIsolationTest"
    return classname.rsplit(".", 1)[-1]


def main():
    reports = sys.argv[1] if len(sys.argv) > 1 else "compliance/target/surefire-reports"
    suites = {}
    failing = []
    for path in sorted(glob.glob(os.path.join(reports, "TEST-*.xml"))):
        for case in ET.parse(path).getroot().iter("testcase"):
            suite = suite_of(case.get("classname"))
            counts = suites.setdefault(suite, {"tests": 0, "passed": 0, "failed": 0, "skipped": 0})
            counts["tests"] += 1
            problem = case.find("failure")
            if problem is None:
                problem = case.find("error")
            if case.find("skipped") is not None:
                counts["skipped"] += 1
            elif problem is not None:
                counts["failed"] += 1
                message = (problem.get("message") or problem.get("type") or "").strip().splitlines()
                failing.append((suite, case.get("classname").rsplit(".", 1)[-1], case.get("name"),
                                message[0][:160] if message else ""))
            else:
                counts["passed"] += 1
    total = {"tests": 0, "passed": 0, "failed": 0, "skipped": 0}
    print("| suite | tests | passed | failed | skipped |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for suite in sorted(suites):
        c = suites[suite]
        for key in total:
            total[key] += c[key]
        print(f"| {suite} | {c['tests']} | {c['passed']} | {c['failed']} | {c['skipped']} |")
    print(f"| **total** | {total['tests']} | {total['passed']} | {total['failed']} | {total['skipped']} |")
    if failing:
        print()
        for suite, cls, name, message in failing:
            where = suite if cls == suite else f"{suite} / {cls}"
            print(f"- {where}: `{name}` — {message}")


if __name__ == "__main__":
    main()
