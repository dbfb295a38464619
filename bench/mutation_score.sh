#!/usr/bin/env bash
# Mutation score of the reference matrix (printed figures, not a test): builds the reference
# library at RELEASE (build = target = RELEASE, CPU) through `torch-abi-check matrix`, which also
# builds the shim call counter, then runs bench/mutation_score.py on that one cell under RELEASE.
# Usage: bench/mutation_score.sh [RELEASE]   (default: the newest stored release;
#        env: TORCH_ABI_CHECK_CLI, JOBS, MODES=error,zero)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cli=${TORCH_ABI_CHECK_CLI:-$root/build/checker/torch-abi-check}
jobs=${JOBS:-$(nproc)}
modes=${MODES:-error,zero}
work=$(mktemp -d /tmp/torch-abi-check-mutation.XXXXXX)
trap 'rm -rf "$work"' EXIT

"$cli" store list --json "$work/store.json" >/dev/null
release=${1:-$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["releases"][-1]["version"])' "$work/store.json")}
python=$(python3 - "$work/store.json" "$release" <<'PY'
import json, sys
releases = json.load(open(sys.argv[1]))["releases"]
wanted = sys.argv[2].split(".")[:2]
print(next(r["python"] for r in releases if r["version"].split(".")[:2] == wanted))
PY
)
target=$(echo "$release" | cut -d. -f1,2)
cat >"$work/spec.toml" <<TOML
[[suite]]
name = "abiref"
sources = "$root/kernels"
backends = ["cpu"]
builds = ["$target"]
targets = ["$target"]
runtimes = ["$target"]
TOML
"$cli" matrix "$work/spec.toml" --cache-dir "$work/cache" --jobs "$jobs" >"$work/matrix.log" 2>&1 || {
  cat "$work/matrix.log"
  exit 2
}
library=$(ls "$work"/cache/builds/*/libabiref_matrix.so)
counter=$(ls "$work"/cache/shim-counter/*/shim_counter.so)
echo "release $release; jobs $jobs; machine: $(nproc) CPUs; commit $(git -C "$root" rev-parse --short HEAD)"
python3 "$root/bench/mutation_score.py" --python "$python" --library "$library" --counter "$counter" \
  --target "$target" --modes "$modes" --jobs "$jobs"
