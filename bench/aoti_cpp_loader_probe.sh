#!/usr/bin/env bash
# Probe of the C++ loader (issue 27, item 5; not a cell of the tool): builds
# bench/aoti_cpp_loader_probe.cpp against each stored release's headers and libraries (timed), then
# loads and runs PACKAGE.pt2 with it under that release. PACKAGE: one float32 (3, 8) input, as
# fixtures/check/pt2/compile_package.py makes.
# Usage: bench/aoti_cpp_loader_probe.sh PACKAGE.pt2 [RELEASE...]   (default: every stored release)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
package=$(realpath "$1")
shift
store=${TORCH_ABI_CHECK_STORE:-${XDG_CACHE_HOME:-$HOME/.cache}/torch-abi-check}
releases=("$@")
if [ ${#releases[@]} -eq 0 ]; then
  mapfile -t releases < <(ls "$store/releases")
fi
out=$(mktemp -d /tmp/aoti-cpp-probe.XXXXXX)
echo "load average $(cut -d' ' -f1-3 /proc/loadavg); binaries in $out"
for release in "${releases[@]}"; do
  torch=$(echo "$store"/releases/"$release"/venv/lib/python3*/site-packages/torch)
  started=$(date +%s.%N)
  if ! g++ -std=c++20 -O1 -D_GLIBCXX_USE_CXX11_ABI=1 -I"$torch/include" -I"$torch/include/torch/csrc/api/include" \
    "$root/bench/aoti_cpp_loader_probe.cpp" -o "$out/runner-$release" -L"$torch/lib" -ltorch -ltorch_cpu -lc10 \
    -Wl,-rpath,"$torch/lib" >"$out/build-$release.log" 2>&1; then
    echo "$release: build failed: $(grep -m1 error "$out/build-$release.log")"
    continue
  fi
  built=$(date +%s.%N)
  # The package's wrapper.so NEEDs libtorch.so by name only: a Python process has it loaded, a C++
  # runner finds it through the library path.
  result=$(LD_LIBRARY_PATH="$torch/lib" timeout 300 "$out/runner-$release" "$package" 2>&1 | grep -v '^frame' | head -n 1)
  ended=$(date +%s.%N)
  printf '%s: build %.1f s, load and run %.2f s: %s\n' "$release" "$(echo "$built - $started" | bc)" \
    "$(echo "$ended - $built" | bc)" "$result"
done
