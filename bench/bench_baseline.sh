#!/usr/bin/env bash
# Times `torch-abi-check baseline` of one installed release into a temporary directory (goal: under
# 60 s on 2 cores): 2 + 2 x (release - 2.8) libclang parses of every stable header, the probe
# compiled at -O0 -g, abidw, and the libraries' dynamic symbols.
#
# usage: bench/bench_baseline.sh [BUILD_DIR] [RELEASE]   (default: build, the newest in the store)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
cli="$build/checker/torch-abi-check"
release="${2:-$("$cli" store list --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["releases"][-1]["version"])')}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$cli" baseline --torch "$release" --out "$work/baseline" --bench
du -sh "$work/baseline" | sed 's/^/size: /'
