#!/usr/bin/env bash
# Benchmark of the ecosystem canary (printed figures, not a timed test): matrix/ecosystem.toml over N
# shards, each cold in a cache of its own (downloads linked in, as bench_canary.sh does: unpacking,
# dependencies, predictions and every cell are measured; the wheels' download is not), then each
# shard warm, then the shards' caches copied into one and the whole grid from it (the join of
# ci/workflows/ecosystem-canary.yml), with its agreement and every disagreement.
# Usage: bench/bench_ecosystem.sh [N] [OUT]   (env: TORCH_ABI_CHECK_CLI, JOBS, SHARDS_TO_RUN="1 2 3 4",
# CANARY_DOWNLOADS). OUT (default: a temp dir, removed) keeps the caches and reports (ecosystem.html).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cli=${TORCH_ABI_CHECK_CLI:-$root/build/checker/torch-abi-check}
spec=$root/matrix/ecosystem.toml
shards=${1:-4}
out=${2:-}
jobs=${JOBS:-$(nproc)}
downloads=${CANARY_DOWNLOADS:-${XDG_CACHE_HOME:-$HOME/.cache}/torch-abi-check/canary/downloads}
if [[ -z $out ]]; then out=$(mktemp -d /tmp/torch-abi-check-ecosystem.XXXXXX); trap 'rm -rf "$out"' EXIT; fi
mkdir -p "$out" "$downloads"

run() {  # label cache [flags...]
  local label=$1 cache=$2 started ended status
  shift 2
  started=$(date +%s.%N)
  /usr/bin/time -f "%U %S %M" -o "$out/$label.time" \
    "$cli" canary --spec "$spec" --cache-dir "$cache" --json "$out/$label.json" -j "$jobs" "$@" >"$out/$label.log" 2>&1
  status=$?
  ended=$(date +%s.%N)
  read -r user sys rss < <(tail -n 1 "$out/$label.time")
  printf '%-10s wall %7.1f s  cpu %7.1f s  (exit %d)  %s\n' "$label" "$(echo "$ended - $started" | bc)" \
    "$(echo "$user + $sys" | bc)" "$status" "$(grep -o '([0-9]* cells: .*)' "$out/$label.log" | tail -n 1)"
}

echo "spec: $spec ($(grep -c '^\[\[package\]\]' "$spec") packages); shards: $shards; jobs: $jobs; machine: $(nproc) CPUs"
for k in ${SHARDS_TO_RUN:-$(seq 1 "$shards")}; do
  mkdir -p "$out/shard-$k"
  [[ -e $out/shard-$k/downloads ]] || ln -s "$downloads" "$out/shard-$k/downloads"
  run "cold-$k" "$out/shard-$k" --shard "$k/$shards"
  run "warm-$k" "$out/shard-$k" --shard "$k/$shards"
  echo "  disk: unpacked $(du -sh "$out/shard-$k/unpacked" | cut -f1), dependencies $(du -sh "$out/shard-$k/dependencies" 2>/dev/null | cut -f1)"
done
mkdir -p "$out/joined"
for k in $(seq 1 "$shards"); do
  [[ -d $out/shard-$k ]] && cp -rn "$out/shard-$k/." "$out/joined/"
done
run joined "$out/joined" --html "$out/ecosystem.html"
python3 - "$out/joined.json" <<'PY'
import json, sys
section = json.load(open(sys.argv[1]))["canary"]
print(f"cells: {section['cells']}; observable: {section['observable']}; "
      f"loads / does not load as predicted: {section['as_predicted_loading']} "
      f"({100.0 * section['as_predicted_loading'] / max(1, section['observable']):.1f}%); "
      f"the failure class too: {section['as_predicted']} ({100.0 * section['as_predicted'] / max(1, section['observable']):.1f}%)")
for package in section["packages"]:
    for cell in package["cells"]:
        if not cell["observable"]:
            print(f"  environment: {package['name']} on {cell['release']}: {cell['detail']}")
        elif not cell["as_predicted"]:
            level = "LOADS" if not cell["as_predicted_loading"] else "class"
            print(f"  {level}: {package['name']} on {cell['release']}: predicted {cell['predicted']} "
                  f"({cell['prediction_reason']}); observed {cell['observed']}: {cell['detail']}")
for problem in section["problems"]:
    print(f"  could not be got ready: {problem['package']}: {problem['problem']}")
PY
