#!/usr/bin/env bash
# The main job: set up the machine, build, install the torch store (every release from 2.9 to the
# newest on PyPI), then run the default checks and write one report:
#   * the reference-kernel matrix (matrix/default.toml),
#   * the stable ABI diff of every pair of consecutive committed baselines (shim_decls/),
#   * the header lint of the newest stored release,
# joined into <out>/report.html and <out>/report.json, with a one-screen summary at the end.
#
# Usage: bash ci/main.sh [--out DIR] [--spec SPEC] [--cache-dir DIR] [--cli PATH]
#   --out DIR        where the report goes (default: reports/); stage outputs and logs in DIR/stages/
#   --spec SPEC      matrix spec (default: matrix/default.toml)
#   --cache-dir DIR  matrix build and result cache (default: the matrix's own)
#   --cli PATH       use this built torch-abi-check and skip set-up, build and store install
# Exit: 0 nothing found, 1 the report has findings, 2 a stage could not run (its log is printed).
set -euo pipefail
cd "$(dirname "$0")/.."

out=reports
spec=matrix/default.toml
cache_args=()
cli=
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --spec) spec=$2; shift 2 ;;
    --cache-dir) cache_args=(--cache-dir "$2"); shift 2 ;;
    --cli) cli=$2; shift 2 ;;
    *) echo "ci/main.sh: error: unknown argument '$1' (see the usage at the top of ci/main.sh)" >&2; exit 2 ;;
  esac
done

if [ -z "$cli" ]; then
  bash ci/setup.sh
  bash ci/build.sh
  cli=build/checker/torch-abi-check
  "$cli" store install
fi

stages="$out/stages"
mkdir -p "$stages"
# Outputs of an earlier run must not slip into this run's report.
rm -f "$stages"/*.json "$stages"/*.log "$out/report.html" "$out/report.json"

# Runs one stage with its output in stages/NAME.log; a finding (exit 1) is the report's business,
# anything else stops the job.
run_stage() {
  local name=$1
  shift
  local started=$SECONDS status=0
  "$cli" "$@" >"$stages/$name.log" 2>&1 || status=$?
  if [ "$status" -gt 1 ]; then
    tail -n 20 "$stages/$name.log" >&2
    echo "ci/main.sh: error: stage $name failed (exit $status); log: $stages/$name.log" >&2
    exit 2
  fi
  printf '%-14s %4d s  exit %d\n' "$name" $((SECONDS - started)) "$status"
}

run_stage matrix matrix "$spec" "${cache_args[@]}" --json "$stages/matrix.json"

baselines=$(find shim_decls -mindepth 2 -maxdepth 2 -name inventory.json -printf '%h\n' | xargs -n1 basename | sort -V)
previous=
for release in $baselines; do
  if [ -n "$previous" ]; then
    run_stage "diff-$previous-$release" diff "shim_decls/$previous" "shim_decls/$release" \
      --json "$stages/diff-$previous-$release.json"
  fi
  previous=$release
done

newest=$("$cli" store list --json - | python3 -c 'import json, sys; print(json.load(sys.stdin)["releases"][-1]["version"])')
newest_minor=${newest%.*}
inventory_args=()
# The committed inventory of that minor release was collected from the same headers: no second parse.
if [ -f "shim_decls/$newest_minor/inventory.json" ]; then
  inventory_args=(--inventory "shim_decls/$newest_minor/inventory.json")
fi
run_stage "lint-$newest_minor" lint headers --torch "$newest" "${inventory_args[@]}" --json "$stages/lint.json"

verdict_status=0
"$cli" report "$stages"/*.json --title "torch-abi-check main job" --html "$out/report.html" \
  --json "$out/report.json" >"$stages/report.log" 2>&1 || verdict_status=$?
if [ "$verdict_status" -gt 1 ]; then
  cat "$stages/report.log" >&2
  exit 2
fi

echo
echo "== torch-abi-check main job: $(echo "$baselines" | head -n1) ... $newest_minor, $SECONDS s =="
cat "$stages/report.log"
if [ "$verdict_status" -eq 0 ]; then echo "verdict: no finding"; else echo "verdict: findings (see the report)"; fi
echo "report: $out/report.html"
echo "        $out/report.json; each stage's output and log: $stages/"
exit "$verdict_status"
