#!/usr/bin/env bash
# Benchmark of `torch-abi-check aoti` (printed figures, not a timed test): the reference models
# compiled at every stored release and loaded under every later one (the B <= R triangle), cold
# (an empty cache: every compile and cell) and warm (nothing to do), with CPU time.
# Usage: bench/bench_aoti.sh [CACHE_DIR]   (env: TORCH_ABI_CHECK_CLI, JOBS; CACHE_DIR is emptied first
# and kept, so the aoti tests can reuse it: build/checker/aoti-test-cache is theirs)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cli=${TORCH_ABI_CHECK_CLI:-$root/build/checker/torch-abi-check}
jobs=${JOBS:-$(nproc)}
cache=${1:-$(mktemp -d /tmp/torch-abi-check-aoti-bench.XXXXXX)}
rm -rf "$cache" && mkdir -p "$cache"

run() {  # label
  local started ended status
  started=$(date +%s.%N)
  /usr/bin/time -f "%U %S %M" -o "$cache/$1.time" \
    "$cli" aoti --cache-dir "$cache" --json "$cache/$1.json" -j "$jobs" >"$cache/$1.log" 2>&1
  status=$?
  ended=$(date +%s.%N)
  read -r user sys rss < <(tail -n 1 "$cache/$1.time")
  printf '%-5s wall %7.1f s  cpu %7.1f s (this process and its children)  (exit %d)\n' "$1" \
    "$(echo "$ended - $started" | bc)" "$(echo "$user + $sys" | bc)" "$status"
}

echo "jobs: $jobs; machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
run cold
run warm
tail -n 3 "$cache/warm.log"
python3 - "$cache/cold.json" <<'PY'
import json, sys
section = json.load(open(sys.argv[1]))["aoti"]
compiles = [p["compile_seconds"] for p in section["packages"]]
cpu = [p["compile_cpu_seconds"] for p in section["packages"]]
print(f"compiles: {len(compiles)}, {sum(compiles):.0f} s wall, {sum(cpu):.0f} s CPU in all (the compilers' included)")
for loader in ("python", "cpp"):
    cells = [c for p in section["packages"] for c in p["cells"] if c["ran"] and c["loader"] == loader]
    print(f"{loader} loader: cells loaded: {len(cells)}, {sum(c['seconds'] for c in cells):.0f} s in all; "
          f"outcomes: { {o: sum(c['outcome'] == o for c in cells) for o in sorted({c['outcome'] for c in cells})} }")
print(f"shims the compiled code imports: {section['coverage']['shims']} ({section['coverage']['cpu_shims']} aoti_torch_cpu_*)")
PY
