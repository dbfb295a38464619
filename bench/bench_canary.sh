#!/usr/bin/env bash
# Benchmark of `torch-abi-check canary` (printed figures, not a timed test): the default spec under
# every stored release, cold (downloads cached, everything else fresh: unpacking, dependencies,
# predictions, every cell) and warm (nothing to do), with CPU time, disk of the unpacked wheels and
# the agreement of prediction and observation.
# Usage: bench/bench_canary.sh [SPEC]   (env: TORCH_ABI_CHECK_CLI, JOBS, CANARY_DOWNLOADS: a folder of
# downloads kept between runs, default ~/.cache/torch-abi-check/canary/downloads)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cli=${TORCH_ABI_CHECK_CLI:-$root/build/checker/torch-abi-check}
spec=${1:-$root/matrix/canary.toml}
jobs=${JOBS:-$(nproc)}
downloads=${CANARY_DOWNLOADS:-${XDG_CACHE_HOME:-$HOME/.cache}/torch-abi-check/canary/downloads}
cache=$(mktemp -d /tmp/torch-abi-check-canary-bench.XXXXXX)
trap 'rm -rf "$cache"' EXIT
mkdir -p "$downloads" "$cache/cache"
ln -s "$downloads" "$cache/cache/downloads"  # downloads are not what is measured

run() {  # label
  local started ended status
  started=$(date +%s.%N)
  /usr/bin/time -f "%U %S %M" -o "$cache/$1.time" \
    "$cli" canary --spec "$spec" --cache-dir "$cache/cache" --json "$cache/$1.json" -j "$jobs" >"$cache/$1.log" 2>&1
  status=$?
  ended=$(date +%s.%N)
  read -r user sys rss < <(tail -n 1 "$cache/$1.time")  # after "Command exited with non-zero status"
  printf '%-5s wall %7.1f s  cpu %7.1f s (this process and its children)  (exit %d)\n' "$1" \
    "$(echo "$ended - $started" | bc)" "$(echo "$user + $sys" | bc)" "$status"
}

echo "spec: $spec; jobs: $jobs; machine: $(nproc) CPUs; releases: $("$cli" store list 2>/dev/null | grep -c '^ *2\.')"
echo "downloads already cached: $(find "$downloads" -name '*.whl' | wc -l) wheels (a first use downloads them in the cold run)"
run cold
run warm
tail -n 1 "$cache/warm.log"
echo "disk: unpacked wheels $(du -sh "$cache/cache/unpacked" | cut -f1), dependencies $(du -sh "$cache/cache/dependencies" | cut -f1), downloads $(du -shL "$downloads" | cut -f1)"
python3 - "$cache/cold.json" <<'PY'
import json, statistics, sys
section = json.load(open(sys.argv[1]))["canary"]
cells = [c for p in section["packages"] for c in p["cells"]]
seconds = [c["seconds"] for c in cells]
print(f"cells: {len(cells)}; per cell (the forked child): median {statistics.median(seconds):.1f} s, max {max(seconds):.1f} s")
print(f"agreement: {section['as_predicted_loading']} of {section['observable']} observable cells load or fail as predicted; "
      f"{section['as_predicted']} of {section['cells']} cells as predicted "
      f"({100.0 * section['as_predicted'] / max(1, section['cells']):.0f}%)")
PY
