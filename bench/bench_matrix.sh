#!/usr/bin/env bash
# Benchmark of `torch-abi-check matrix` (printed figures, not a timed test): the full default
# matrix cold (empty build and result cache), the same re-run warm, and the time per cell.
# Usage: bench/bench_matrix.sh [SPEC]   (env: TORCH_ABI_CHECK_CLI, JOBS)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cli=${TORCH_ABI_CHECK_CLI:-$root/build/checker/torch-abi-check}
spec=${1:-$root/matrix/default.toml}
jobs=${JOBS:-$(nproc)}
cache=$(mktemp -d /tmp/torch-abi-check-bench.XXXXXX)
trap 'rm -rf "$cache"' EXIT

run() {  # label json
  local started ended status
  started=$(date +%s.%N)
  "$cli" matrix "$spec" --cache-dir "$cache/cache" --json "$cache/$2" --jobs "$jobs" >"$cache/$1.log" 2>&1
  status=$?
  ended=$(date +%s.%N)
  printf '%-5s wall %7.1f s  (exit %d)\n' "$1" "$(echo "$ended - $started" | bc)" "$status"
}

echo "spec: $spec; jobs: $jobs; machine: $(nproc) CPUs"
run cold cold.json
run warm warm.json
tail -n 1 "$cache/cold.log"
tail -n 1 "$cache/warm.log"
python3 - "$cache/cold.json" <<'PY'
import json, statistics, sys
cells = json.load(open(sys.argv[1]))["cells"]
ran = [c["duration_s"] for c in cells if c["duration_s"] > 0]
print(f"cells: {len(cells)}, run in a process: {len(ran)}")
if ran:
    print(f"per run cell (cold): mean {statistics.mean(ran):.1f} s, median {statistics.median(ran):.1f} s, "
          f"max {max(ran):.1f} s, sum {sum(ran):.0f} s")
by_outcome = {}
for c in cells:
    by_outcome[c["outcome"]] = by_outcome.get(c["outcome"], 0) + 1
print("outcomes:", ", ".join(f"{n} {o}" for o, n in sorted(by_outcome.items())))
PY
