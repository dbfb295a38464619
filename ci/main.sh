#!/usr/bin/env bash
# The main job on its default: set up, build, install every torch release from 2.9 to the newest
# on PyPI, and show the store.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/setup.sh
bash ci/build.sh
build/checker/torch-abi-check store install
build/checker/torch-abi-check store list
