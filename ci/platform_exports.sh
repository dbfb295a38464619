#!/usr/bin/env bash
# Records what the macOS and Windows torch wheels of each committed baseline's release export of the
# C shim (shim_decls/<release>/exports.<platform>.json, only where it differs from Linux's).
# Downloads one wheel per release and platform from PyPI into a cache (about 80-140 MB for macOS,
# 110-130 MB for Windows; CPU builds, the only ones PyPI has for those platforms).
#
#   ci/platform_exports.sh [CLI] [RELEASE...]     default: build/checker/torch-abi-check, every release in shim_decls/
set -euo pipefail
cd "$(dirname "$0")/.."
cli=${1:-build/checker/torch-abi-check}
shift || true
releases=("$@")
if [ ${#releases[@]} -eq 0 ]; then
  for dir in shim_decls/*/; do releases+=("$(basename "$dir")"); done
fi
cache=${XDG_CACHE_HOME:-$HOME/.cache}/torch-abi-check/platform-wheels
mkdir -p "$cache"
pip=${TORCH_ABI_CHECK_TOOLS:-$HOME/.cache/torch-abi-check-tools}/bin/pip
[ -x "$pip" ] || pip="python3 -m pip"

# The newest patch of a minor release that PyPI has for the platform: pip resolves "torch~=2.10.0".
for release in "${releases[@]}"; do
  for platform in macosx_14_0_arm64 win_amd64; do
    dir="$cache/$release-$platform"
    if ! ls "$dir"/torch-*.whl >/dev/null 2>&1; then
      mkdir -p "$dir"
      $pip download --quiet --no-deps --only-binary=:all: --platform "$platform" --python-version 3.12 \
        "torch~=$release.0" -d "$dir"
    fi
    "$cli" baseline --platform-wheel "$(ls "$dir"/torch-*.whl | head -n 1)" --out "shim_decls/$release"
  done
done
