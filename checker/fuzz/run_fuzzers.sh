#!/usr/bin/env bash
# Builds the audit's libFuzzer targets (ELF reader, Mach-O/PE reader, wheel reader) with clang-14 and
# ASan/UBSan, runs each for a bounded time from the committed audit fixtures as seeds, and prints
# executions and crashes per target. Exit 1 when a target crashed.
#   checker/fuzz/run_fuzzers.sh [--seconds N] [--out DIR]   (defaults: 20 s each, build-fuzz/)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
seconds=20
out="$root/build-fuzz"
while (($#)); do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "usage: $0 [--seconds N] [--out DIR]" >&2; exit 2 ;;
  esac
done
clang="$(command -v clang++-14 || command -v clang++ || true)"
[[ -n "$clang" ]] || { echo "run_fuzzers: clang++-14 not found (bash ci/setup.sh installs it)" >&2; exit 2; }
mkdir -p "$out"
llvm_config="$(command -v llvm-config-14 || command -v llvm-config)"
# Line tables (-g1): a crash report still names file and line, at a fraction of full debug information.
flags=(-std=c++20 -O1 -g1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I "$root/checker/src"
       -isystem "$("$llvm_config" --includedir)")
# LLVM's Object library (the Mach-O and PE reader), static, as the main build links it.
read -r -a llvm_libraries <<<"$("$llvm_config" --link-static --libfiles object demangle)"
targets=(elf_reader object_file_reader wheel_reader)
# The readers are compiled once, as one unit (readers_unit.cpp, through ccache when the machine has it),
# and linked into every target; each target's own file beside it, as many compiles at once as there
# are cores. Paths relative to the checkout, compiled from its root, as ci/build.sh has them: a fresh
# clone elsewhere hits the same entries (103 s of audit_fuzz_smoke's 104 s in a fresh clone were misses).
out="$(realpath -m "$out")"
cd "$root"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(ccache)
  export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
fi
mkdir -p "$out/objects"
# An object is compiled again when a source or header of checker/ is newer than it.
stale() { [[ ! -f "$1" || -n "$(find "$root/checker/src" "$root/checker/fuzz" -newer "$1" -name '*.[ch]*' -print -quit)" ]]; }
sources=(checker/fuzz/readers_unit.cpp)
for target in "${targets[@]}"; do sources+=("checker/fuzz/${target}_fuzzer.cpp"); done
compiles=()
for source in "${sources[@]}"; do
  object="$out/objects/$(basename "${source%.cpp}").o"
  if stale "$object"; then
    while (($(jobs -rp | wc -l) >= $(nproc))); do wait -n; done
    "${launcher[@]}" "$clang" "${flags[@]}" -c "$source" -o "$object" &
    compiles+=($!)
  fi
done
for compile in "${compiles[@]}"; do wait "$compile"; done
for target in "${targets[@]}"; do
  binary="$out/${target}_fuzzer"
  if [[ ! -x "$binary" || -n "$(find "$out/objects" -newer "$binary" -name '*.o' -print -quit)" ]]; then
    "$clang" "${flags[@]}" "$out/objects/${target}_fuzzer.o" "$out/objects/readers_unit.o" "${llvm_libraries[@]}" \
      -lelf -lzip -lisal -lfmt -lz -ltinfo -o "$binary"
  fi
done

status=0
printf '%-18s %12s %8s %8s\n' target executions seconds crashes
for target in "${targets[@]}"; do
  corpus="$out/${target}_corpus"
  crashes="$out/${target}_crashes"
  mkdir -p "$corpus" "$crashes"
  case "$target" in
    elf_reader) seeds=("$root"/fixtures/audit/bad/*.so "$root"/fixtures/audit/bad/*.o) ;;
    object_file_reader) seeds=("$root"/fixtures/audit/bad/*macho* "$root"/fixtures/audit/bad/*.pyd) ;;
    wheel_reader) seeds=("$root"/fixtures/audit/bad/*.whl) ;;
  esac
  cp -n "${seeds[@]}" "$corpus/" 2>/dev/null || true
  log="$out/${target}.log"
  set +e
  "$out/${target}_fuzzer" "$corpus" -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=1048576 \
    -artifact_prefix="$crashes/" -print_final_stats=1 >"$log" 2>&1
  set -e
  runs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)"
  crash_count="$(find "$crashes" -type f | wc -l)"
  printf '%-18s %12s %8s %8s\n' "$target" "${runs:-0}" "$seconds" "$crash_count"
  if ((crash_count > 0)); then
    status=1
    echo "  crash inputs in $crashes; log: $log" >&2
  fi
done
exit "$status"
