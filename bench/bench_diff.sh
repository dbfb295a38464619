#!/usr/bin/env bash
# Times `torch-abi-check diff` between two committed baselines (goal: under 1 s). The diff reads
# both baselines (inventory, gzipped ABIXML, exports), compares the inventories and lets libabigail
# compare the ABI models; the printed figure is the comparison, the whole command's wall time follows.
#
# usage: bench/bench_diff.sh [BUILD_DIR] [OLD] [NEW]   (default: build, the two newest baselines)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
cli="$build/checker/torch-abi-check"
mapfile -t releases < <(ls "$root/shim_decls" | sort -t. -k1,1n -k2,2n)
old="${2:-${releases[-2]}}"
new="${3:-${releases[-1]}}"
start=$(date +%s.%N)
"$cli" diff "$root/shim_decls/$old" "$root/shim_decls/$new" --bench | tail -2 || true
end=$(date +%s.%N)
python3 -c "print(f'bench: whole diff command {float($end) - float($start):.2f} s')"
