#!/usr/bin/env bash
# Issue 28 (branch surface4): what 2.10's replacement of 2.9's std::vector<int64_t> overloads of
# torch::stable::amax, new_empty, new_zeros and pad (by HeaderOnlyArrayRef<int64_t>) does to a user,
# found by compiling, not by asking the tool:
#   1. real calls (a vector, a braced list) compiled at TORCH_TARGET_VERSION 2.9 against the 2.9 and
#      the 2.10 headers of the store;
#   2. the address of the old overload, compiled the same way;
#   3. the object built against 2.9: are the four functions inline (the object defines its own weak
#      copy, so a binary built before carries the old overload with it), and is every torch symbol it
#      imports exported by 2.10's libraries?
# usage: bench/overload_replacement.sh [CLI]   (default build/checker/torch-abi-check)
set -euo pipefail
cli=${1:-build/checker/torch-abi-check}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
field() {  # field RELEASE KEY: the newest stored RELEASE.x's include_dir or lib_dir
  "$cli" store list --json - | python3 -c "
import json, sys
found = [r for r in json.load(sys.stdin)['releases'] if r['version'].startswith('$1.')]
print(found[-1]['$2'])"
}
include_29=$(field 2.9 include_dir)
include_210=$(field 2.10 include_dir)
lib_210=$(field 2.10 lib_dir)
target_29="-DTORCH_TARGET_VERSION=0x0209000000000000"
cxx=${CXX:-g++}

cat >"$work/calls.cpp" <<'EOF'
#include <torch/csrc/stable/ops.h>
#include <torch/csrc/stable/tensor.h>

#include <vector>

using torch::stable::Tensor;

Tensor calls(const Tensor& t) {
  std::vector<int64_t> dims{0, 1};
  Tensor a = torch::stable::amax(t, dims, false);
  Tensor b = torch::stable::amax(t, {0, 1}, true);
  Tensor c = torch::stable::new_empty(t, dims);
  Tensor d = torch::stable::new_empty(t, {2, 3});
  Tensor e = torch::stable::new_zeros(t, dims);
  Tensor f = torch::stable::new_zeros(t, {2, 3});
  Tensor g = torch::stable::pad(t, dims);
  Tensor h = torch::stable::pad(t, {1, 1});
  return a;
}
EOF
cat >"$work/address.cpp" <<'EOF'
#include <torch/csrc/stable/ops.h>

#include <vector>

using torch::stable::Tensor;
auto* old_amax = static_cast<Tensor (*)(const Tensor&, std::vector<int64_t>, bool)>(&torch::stable::amax);
EOF

for what in calls address; do
  for release in 2.9 2.10; do
    include=$include_29
    [[ $release == 2.10 ]] && include=$include_210
    if "$cxx" -std=c++17 -fsyntax-only $target_29 -DTORCH_STABLE_ONLY -I"$include" "$work/$what.cpp" \
      >"$work/$what-$release.log" 2>&1; then
      echo "$what.cpp at target 2.9 against $release's headers: compiles"
    else
      echo "$what.cpp at target 2.9 against $release's headers: does not compile: $(grep -m1 'error' "$work/$what-$release.log")"
    fi
  done
done

# The object built against 2.9 (no optimisation: nothing is inlined away, each wrapper it calls is a
# definition of its own), then its symbols.
"$cxx" -std=c++17 -O0 -fPIC -c $target_29 -DTORCH_STABLE_ONLY -I"$include_29" "$work/calls.cpp" -o "$work/calls.o"
echo "wrappers the object built against 2.9 defines itself (W: weak, an inline function's copy):"
nm -C "$work/calls.o" | grep -E ' [TWV] torch::stable::(amax|new_empty|new_zeros|pad)\(' | sed 's/^/  /'
missing=0
nm -D --defined-only "$lib_210"/libtorch*.so 2>/dev/null | awk 'NF == 3 {print $3}' | sort -u >"$work/exports-2.10"
for symbol in $(nm --undefined-only "$work/calls.o" | awk '{print $2}' | grep -E '^(aoti_torch|torch_)'); do
  if ! grep -qx "$symbol" "$work/exports-2.10"; then
    echo "  imported $symbol: not exported by 2.10's libtorch*.so"
    missing=$((missing + 1))
  fi
done
echo "C shims the object imports: $(nm --undefined-only "$work/calls.o" | grep -cE ' (aoti_torch|torch_)'), of which not exported by 2.10: $missing"
