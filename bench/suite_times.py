#!/usr/bin/env python3
"""The suite's time by tier and its slowest tests, from the log of one ctest run (issue 29, item 6).

Reads the lines ctest prints as tests end ("  12/560 Test  #34: Suite.Name ....   Passed   41.20 sec")
from a log (a `.ci/run` or `bash ci/test.sh` log, stamped lines included) and each test's labels
from `ctest --show-only=json-v1` in BUILD_DIR, then prints, as Markdown: per tier, how many tests ran,
the sum of their times and the longest; then the N slowest tests. The sum is CPU-independent only in
the sense that it adds up each test's wall time: with ctest -j2 the suite's wall time is less.

Usage: python3 bench/suite_times.py --build BUILD_DIR --log LOG [--slowest N]
Exit: 0, or 2 when the log holds no test result or ctest cannot list the tests.
"""

import argparse
import collections
import json
import re
import subprocess
import sys

RESULT = re.compile(r"Test +#\d+: (.+?) \.+ *(Passed|\*\*\*\w+|Failed|Not Run|\w+)[^\d]*?([\d.]+) sec")
TIERS = ("quick", "store", "style", "corpus")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--slowest", type=int, default=10)
    args = parser.parse_args()

    try:
        with open(args.log, errors="replace") as log:
            results = [(m[1], m[2], float(m[3])) for m in map(RESULT.search, log) if m]
    except OSError as error:
        print(f"suite_times: {args.log}: {error.strerror}", file=sys.stderr)
        return 2
    if not results:
        print(f"suite_times: {args.log}: no ctest result line", file=sys.stderr)
        return 2
    listed = subprocess.run(["ctest", "--show-only=json-v1"], cwd=args.build, capture_output=True, text=True,
                            check=False)
    if listed.returncode != 0:
        print(f"suite_times: {args.build}: ctest cannot list the tests", file=sys.stderr)
        return 2
    tier_of = {}
    for test in json.loads(listed.stdout).get("tests", []):
        labels = next((p["value"] for p in test.get("properties", []) if p.get("name") == "LABELS"), [])
        tier_of[test["name"]] = next((label for label in labels if label in TIERS), "none")

    by_tier = collections.defaultdict(list)
    for name, status, seconds in results:
        by_tier[tier_of.get(name, "none")].append((seconds, name, status))
    print("| tier | tests | sum of test times | longest |")
    print("|---|---:|---:|---|")
    for tier in sorted(by_tier, key=lambda t: -sum(s for s, _, _ in by_tier[t])):
        tests = by_tier[tier]
        longest = max(tests)
        print(f"| {tier} | {len(tests)} | {sum(s for s, _, _ in tests):.0f} s | `{longest[1]}` {longest[0]:.0f} s |")
    failed = [(name, status) for name, status, _ in results if status != "Passed"]
    print(f"\n{len(results)} tests, {len(results) - len(failed)} passed" +
          (": " + ", ".join(f"{name} ({status})" for name, status in failed) if failed else ""))
    print(f"\nThe {args.slowest} slowest:\n")
    print("| test | tier | seconds |")
    print("|---|---|---:|")
    for name, status, seconds in sorted(results, key=lambda r: -r[2])[:args.slowest]:
        print(f"| `{name}` | {tier_of.get(name, 'none')} | {seconds:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
