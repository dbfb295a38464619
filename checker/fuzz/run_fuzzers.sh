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
sources=("$root/checker/src/audit/elf_reader.cpp" "$root/checker/src/audit/wheel_reader.cpp"
         "$root/checker/src/audit/elf_stream_reader.cpp" "$root/checker/src/audit/entry_stream.cpp"
         "$root/checker/src/audit/binary_imports.cpp" "$root/checker/src/audit/object_file_reader.cpp"
         "$root/checker/src/audit/recorded_toolkit.cpp" "$root/checker/src/audit/python_imports.cpp"
         "$root/checker/src/audit/import_time_checks.cpp" "$root/checker/src/core/device_library.cpp"
         "$root/checker/src/core/torch_version.cpp" "$root/checker/src/core/wheel_file_name.cpp")
llvm_config="$(command -v llvm-config-14 || command -v llvm-config)"
# Line tables (-g1): a crash report still names file and line, at a fraction of full debug information.
flags=(-std=c++20 -O1 -g1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I "$root/checker/src"
       -isystem "$("$llvm_config" --includedir)")
# LLVM's Object library (the Mach-O and PE reader), static, as the main build links it.
read -r -a llvm_libraries <<<"$("$llvm_config" --link-static --libfiles object demangle)"
targets=(elf_reader object_file_reader wheel_reader)
# The readers are compiled once, each to its own object (through ccache when the machine has it),
# and linked into every target: three targets cost one compile of the readers, not three.
# Paths relative to the checkout, compiled from its root, as ci/build.sh has them: a fresh clone
# elsewhere hits the same entries (103 s of audit_fuzz_smoke's 104 s in a fresh clone were misses).
out="$(realpath -m "$out")"
cd "$root"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(ccache)
  export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
fi
objects=()
mkdir -p "$out/objects"
# As many compiles at once as there are cores: one after the other, a new machine's cold build was
# 100 s on one core while the other had nothing left to do (bench/RESULTS.md, issue 29).
compiles=()
for source in "${sources[@]}"; do
  object="$out/objects/$(basename "$(dirname "$source")")_$(basename "${source%.cpp}").o"
  if [[ ! -f "$object" || -n "$(find "$root/checker/src" -newer "$object" -name '*.[ch]*' -print -quit)" ]]; then
    while (($(jobs -rp | wc -l) >= $(nproc))); do wait -n; done
    "${launcher[@]}" "$clang" "${flags[@]}" -c "$source" -o "$object" &
    compiles+=($!)
  fi
  objects+=("$object")
done
for compile in "${compiles[@]}"; do wait "$compile"; done
for target in "${targets[@]}"; do
  binary="$out/${target}_fuzzer"
  if [[ ! -x "$binary" || -n "$(find "$root/checker/src/audit" "$root/checker/fuzz" "$out/objects" -newer "$binary" \
        -name '*.[cho]*' -print -quit)" ]]; then
    "${launcher[@]}" "$clang" "${flags[@]}" -c "$root/checker/fuzz/${target}_fuzzer.cpp" -o "$out/objects/${target}_fuzzer.o"
    "$clang" "${flags[@]}" "$out/objects/${target}_fuzzer.o" "${objects[@]}" "${llvm_libraries[@]}" -lelf -lzip -lisal \
      -lfmt -lz -ltinfo -o "$binary"
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
