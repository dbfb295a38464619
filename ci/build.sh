#!/usr/bin/env bash
# Configures and builds everything (checker, CLI, tests) into build/, or only the targets named
# (`bash ci/build.sh torch-abi-check`: the CLI). Incremental when re-run; with ccache on the machine
# (ci/setup.sh installs it) a clean rebuild of unchanged sources is a cache hit.
set -euo pipefail
cd "$(dirname "$0")/.."
. ci/heartbeat.sh  # a line at least every 30 s in a CI log, whatever one compile takes
heartbeat_start build
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
# Paths under the checkout are hashed relative to it and the build folder's own path not at all, so a
# clone in another folder (CI's) hits what any earlier clone compiled.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
# Precompiled headers (checker/CMakeLists.txt) are cached only with this sloppiness: their macros and
# timestamps are not in the key, their content is.
export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" >/dev/null
targets=()
for target in "$@"; do targets+=(--target "$target"); done
cmake --build build --parallel "$(nproc)" "${targets[@]}"
