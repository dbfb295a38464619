#!/usr/bin/env bash
# The test command: set up the machine, install the default torch store (cached after the first
# run), build, and run every test with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/setup.sh
bash ci/build.sh
build/checker/torch-abi-check store install
cd build
ctest --output-on-failure --timeout 1800 "$@"
