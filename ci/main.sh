#!/usr/bin/env bash
# The main job: set up the machine, build, install the torch store (every release from 2.9 to the
# newest on PyPI), then run `torch-abi-check ci`: the reference-kernel matrix, the stable ABI diff of
# every pair of consecutive committed baselines and the header lint of the newest stored release,
# in one report (reports/report.html and reports/report.json) with a one-screen summary.
#
# Usage: bash ci/main.sh [--cli PATH] [ci options...]
#   --cli PATH  use this built torch-abi-check and skip set-up, build and store install
#   every other option goes to `torch-abi-check ci` (--out DIR, --spec FILE, --cache-dir DIR, ...;
#   see `torch-abi-check ci --help`)
# Exit: 0 nothing found, 1 the report has findings, 2 the job could not run.
set -euo pipefail
cd "$(dirname "$0")/.."

cli=
if [ "${1:-}" = --cli ]; then
  cli=$2
  shift 2
fi

if [ -z "$cli" ]; then
  bash ci/setup.sh
  # The store's download (network-bound) beside the build of the CLI alone (CPU-bound).
  bash ci/store_install.sh &
  store_install=$!
  # A failed build ends the script: the download goes with it (an interrupted release is redone).
  trap 'kill "$store_install" 2>/dev/null || true' EXIT
  bash ci/build.sh torch-abi-check
  wait "$store_install"
  cli=build/checker/torch-abi-check
fi

exec "$cli" ci "$@"
