#!/usr/bin/env bash
# Lints the project's reference kernels (kernels/) the way the matrix builds them, and prints the
# time it took (goal: under 20 s on the 2-core CI machine). Each source of a group vX_Y is compiled
# at target X.Y (the oldest target the matrix builds it at) against the newest torch of the store,
# with -DTORCH_STABLE_ONLY, -DUSE_CUDA for the GPU glue, and kernels/include on the include path.
#
# usage: bench/bench_lint_kernels.sh [BUILD_DIR] [TORCH]   (default: build, newest in the store)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
cli="$build/checker/torch-abi-check"
torch="${2:-$("$cli" store list --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["releases"][-1]["version"])')}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 - "$root" "$work/compile_commands.json" <<'PY'
import json, pathlib, re, sys
root, out = pathlib.Path(sys.argv[1]), sys.argv[2]
entries = []
for source in sorted((root / "kernels").glob("*/v*/*")):
    if source.suffix not in (".cpp", ".cu"):
        continue
    major, minor = re.fullmatch(r"v(\d+)_(\d+)", source.parent.name).groups()
    target = f"0x{int(major):02X}{int(minor):02X}000000000000"
    flags = ["-std=c++17", f"-DTORCH_TARGET_VERSION={target}", "-DTORCH_STABLE_ONLY",
             f"-I{root / 'kernels' / 'include'}"]
    if source.parent.parent.name in ("gpu", "cuda"):
        flags.append("-DUSE_CUDA")
    entries.append({"directory": str(root), "file": str(source), "arguments": ["c++", *flags, "-c", str(source)]})
json.dump(entries, open(out, "w"), indent=1)
PY

echo "bench_lint_kernels: $(python3 -c "import json; print(len(json.load(open('$work/compile_commands.json'))))" ) translation units, build torch $torch"
start=$(date +%s.%N)
status=0
"$cli" lint extension "$work/compile_commands.json" --root "$root/kernels" --torch "$torch" || status=$?
end=$(date +%s.%N)
printf 'bench_lint_kernels: %.1f s (goal < 20 s), exit %d\n' "$(echo "$end - $start" | bc)" "$status"
exit "$status"
