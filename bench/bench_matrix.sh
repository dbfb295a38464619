#!/usr/bin/env bash
# Benchmark of `torch-abi-check matrix` (printed figures, not a timed test): the full default
# matrix cold (empty build and result cache), the same re-run warm, the time per cell, and the
# cell overhead: what a cell costs beyond loading its library and running its tests. The matrix
# runs one Python per runtime release that imports torch once and forks a child per cell
# (matrix/run_cell.py --cells); for comparison, a few of the same cells are then run the old way,
# one fresh interpreter each (matrix/run_cell.py --library ..., under the same call counter).
# Usage: bench/bench_matrix.sh [SPEC]   (env: TORCH_ABI_CHECK_CLI, JOBS, OLD_WAY_CELLS=4,
#        MATRIX_FLAGS: more flags for both runs, e.g. "--shard 1/4" for one job of the CI fan-out or
#        "--sample" for the triangle's two ends)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cli=${TORCH_ABI_CHECK_CLI:-$root/build/checker/torch-abi-check}
spec=${1:-$root/matrix/default.toml}
jobs=${JOBS:-$(nproc)}
old_way_cells=${OLD_WAY_CELLS:-4}
read -ra matrix_flags <<<"${MATRIX_FLAGS:-}"
cache=$(mktemp -d /tmp/torch-abi-check-bench.XXXXXX)
trap 'rm -rf "$cache"' EXIT

run() {  # label json
  local started ended status
  started=$(date +%s.%N)
  "$cli" matrix "$spec" --cache-dir "$cache/cache" --json "$cache/$2" --jobs "$jobs" "${matrix_flags[@]}" \
    >"$cache/$1.log" 2>&1
  status=$?
  ended=$(date +%s.%N)
  printf '%-5s wall %7.1f s  (exit %d; load average before: %s)\n' "$1" "$(echo "$ended - $started" | bc)" "$status" \
    "$3"
}

load() { cut -d' ' -f1-3 /proc/loadavg; }

echo "spec: $spec ${MATRIX_FLAGS:-}; jobs: $jobs; machine: $(nproc) CPUs; commit $(git -C "$root" rev-parse --short HEAD)"
run cold cold.json "$(load)"
run warm warm.json "$(load)"
tail -n 1 "$cache/cold.log"
tail -n 1 "$cache/warm.log"
"$cli" store list --json "$cache/store.json" >/dev/null
python3 - "$cache" "$root" "$old_way_cells" <<'PY'
import glob, json, os, statistics, subprocess, sys, tempfile, time
cache, root, old_way_cells = sys.argv[1], sys.argv[2], int(sys.argv[3])
cells = json.load(open(os.path.join(cache, "cold.json")))["matrix"]["cells"]
ran = [c["duration_s"] for c in cells if c["duration_s"] > 0]
print(f"cells: {len(cells)}, run in a forked child: {len(ran)}")
if ran:
    print(f"per run cell (cold, the child alone): mean {statistics.mean(ran):.2f} s, median {statistics.median(ran):.2f} s, "
          f"max {max(ran):.2f} s, sum {sum(ran):.0f} s")
by_outcome = {}
for c in cells:
    by_outcome[c["outcome"]] = by_outcome.get(c["outcome"], 0) + 1
print("outcomes:", ", ".join(f"{n} {o}" for o, n in sorted(by_outcome.items())))


def read(path):
    try:
        with open(path, encoding="utf-8") as stream:
            return json.load(stream)
    except (OSError, ValueError):
        return None


# The fork server: each child's time beyond its load and tests, plus torch's import shared by its cells.
servers = [s for s in (read(p) for p in glob.glob(os.path.join(cache, "cache", "runs", "server-*", "summary.json"))) if s]
imports = sum(s["import_s"] for s in servers)
forked = 0
child_overheads = []
passing = []
for run_dir in glob.glob(os.path.join(cache, "cache", "runs", "*")):
    result, ending = read(os.path.join(run_dir, "result.json")), read(os.path.join(run_dir, "ending.json"))
    if not result or not ending:
        continue
    forked += 1
    if "tests_s" in result and "load_s" in result:
        child_overheads.append(ending["seconds"] - result["load_s"] - result["tests_s"])
        if result.get("backend") == "cpu" and all(case["outcome"] != "failed" for case in result["cases"]):
            passing.append(result)
if forked and child_overheads:
    amortised = imports / forked
    child = statistics.median(child_overheads)
    print(f"fork server: {len(servers)} servers imported torch in {imports:.1f} s together "
          f"(mean {imports / max(1, len(servers)):.1f} s), {forked} forked cells: {amortised:.2f} s of import per cell")
    print(f"cell overhead (fork server): {child + amortised:.2f} s per cell = {child:.3f} s in the child beyond its "
          f"load and tests (median; fork, test modules, exit) + {amortised:.2f} s of import torch shared")

# The old way, on a few of the same passing CPU cells: a fresh interpreter per cell, under the counter.
store = {r["version"].split("+")[0]: r["python"] for r in read(os.path.join(cache, "store.json"))["releases"]}
counter = (glob.glob(os.path.join(cache, "cache", "shim-counter", "*", "shim_counter.so")) or [None])[0]
passing.sort(key=lambda r: (r["torch"], r["library"]))
sample = passing[:: max(1, len(passing) // max(1, old_way_cells))][:old_way_cells]
old = []
for result in sample:
    python = store.get(result["torch"].split("+")[0])
    if not python:
        continue
    with tempfile.TemporaryDirectory() as work:
        environment = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONUNBUFFERED="1")
        if counter:
            environment.update(LD_AUDIT=counter, TORCH_ABI_CHECK_AUDITED_LIBRARY=result["library"],
                               TORCH_ABI_CHECK_SHIM_COUNTS=os.path.join(work, "counts"))
        tests = os.path.join(root, "kernels", "tests")
        started = time.monotonic()
        subprocess.run([python, os.path.join(root, "matrix", "run_cell.py"), "--library", result["library"],
                        "--target", result["target"], "--backend", "cpu", "--tests", tests, "--harness", tests,
                        "--result", os.path.join(work, "result.json")], env=environment, cwd=work,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall = time.monotonic() - started
        again = read(os.path.join(work, "result.json"))
    if again and "tests_s" in again:
        old.append(wall - again["load_s"] - again["tests_s"])
        print(f"  old way, torch {result['torch']} T{result['target']}: {wall:.2f} s, of which "
              f"{old[-1]:.2f} s beyond load and tests")
if old:
    print(f"cell overhead (fresh interpreter per cell, the old way, {len(old)} cells): median {statistics.median(old):.2f} s")
print(f"load average now: {open('/proc/loadavg').read().split()[:3]}")
PY
