#!/usr/bin/env python3
"""Fails when a ctest test of the build has no tier label, or more than one.

The tiers (README.md, CONTRIBUTING.md "Tests"): quick, store, style, corpus. Other labels (fuzz)
may sit beside a tier. Reads `ctest --show-only=json-v1` of BUILD_DIR, so it sees every test ctest
would run, whoever registered it (gtest_discover_tests, add_test, a fixture folder).

Usage: check_test_tiers.py BUILD_DIR
Exit: 0 every test has one tier, 1 some test has none or several, 2 ctest could not list the tests.
"""

import json
import subprocess
import sys

TIERS = ("quick", "store", "style", "corpus")


def labels_of(test: dict) -> list[str]:
    for prop in test.get("properties", []):
        if prop.get("name") == "LABELS":
            return list(prop.get("value", []))
    return []


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 2
    listed = subprocess.run(
        ["ctest", "--show-only=json-v1"], cwd=sys.argv[1], capture_output=True, text=True, check=False
    )
    if listed.returncode != 0:
        print(f"check_test_tiers: ctest --show-only failed:\n{listed.stderr}", file=sys.stderr)
        return 2
    tests = json.loads(listed.stdout).get("tests", [])
    if not tests:
        print(f"check_test_tiers: ctest lists no test in {sys.argv[1]}", file=sys.stderr)
        return 2
    problems = []
    counts = dict.fromkeys(TIERS, 0)
    for test in tests:
        tiers = [label for label in labels_of(test) if label in TIERS]
        if len(tiers) == 1:
            counts[tiers[0]] += 1
        else:
            problems.append(f"{test['name']}: tiers {tiers or 'none'} (exactly one of {', '.join(TIERS)})")
    for problem in problems:
        print(problem)
    summary = ", ".join(f"{count} {tier}" for tier, count in counts.items())
    print(f"check_test_tiers: {len(tests)} tests: {summary}; {len(problems)} without exactly one tier")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
