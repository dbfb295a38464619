#!/usr/bin/env bash
# Audits published wheels of one project for several platforms and prints, per wheel, each platform's
# object count, verdict (worst of its objects) and minimum torch, so the Mach-O and PE audits can be
# compared with the ELF audit of the same release (docs/platforms.md).
#   bench/bench_platform_audit.sh CLI WHEEL...   (e.g. the files of `pip download --no-deps --platform ...`)
set -euo pipefail
cli="$1"
shift
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
printf '%-60s %-8s %7s %-18s %-9s %s\n' wheel platform objects verdict min_torch seconds
for wheel in "$@"; do
  start=$(date +%s.%N)
  "$cli" audit "$wheel" --json "$work/report.json" >/dev/null 2>&1 || true
  seconds=$(echo "$(date +%s.%N) - $start" | bc)
  python3 - "$work/report.json" "$(basename "$wheel")" "$seconds" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))["audit"]
rank = {"stable": 0, "needs-newer-torch": 1, "unstable": 2}
platforms = {}
for binary in report["binaries"]:
    entry = platforms.setdefault(binary["platform"], {"objects": 0, "verdict": "stable", "min": None})
    entry["objects"] += 1
    if rank[binary["verdict"]] > rank[entry["verdict"]]:
        entry["verdict"] = binary["verdict"]
    if binary["min_torch"] and (entry["min"] is None or
                                tuple(map(int, binary["min_torch"].split("."))) > tuple(map(int, entry["min"].split(".")))):
        entry["min"] = binary["min_torch"]
for platform, entry in sorted(platforms.items()):
    print(f"{sys.argv[2]:<60} {platform:<8} {entry['objects']:>7} {entry['verdict']:<18} {entry['min'] or '-':<9} {float(sys.argv[3]):.2f}")
for failure in report["errors"]:
    print(f"  not audited: {failure['path']}: {failure['problem']}")
PY
done
