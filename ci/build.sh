#!/usr/bin/env bash
# Configures and builds everything (checker, CLI, tests) into build/. Incremental when re-run; with
# ccache on the machine (ci/setup.sh installs it) a clean rebuild of unchanged sources is a cache hit.
set -euo pipefail
cd "$(dirname "$0")/.."
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" >/dev/null
cmake --build build --parallel "$(nproc)"
