#!/usr/bin/env bash
# Installs the default torch store (the newest patch of every minor release from 2.9 to the newest
# on PyPI; cached: installed releases cost nothing) without the CLI, so that ci/test.sh and
# ci/main.sh can download it while the CLI is still being built. The same script the CLI's
# `store install` runs, with the same default store ($TORCH_ABI_CHECK_STORE, else the user cache).
# Arguments go to `store install` (versions, --from, --index-url, --find-links).
set -euo pipefail
cd "$(dirname "$0")/.."
exec "${TORCH_ABI_CHECK_PYTHON:-python3}" matrix/torch_store.py install "$@"
