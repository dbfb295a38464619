#!/usr/bin/env bash
# Builds the Python package (pyproject.toml: the CLI alone, with the project files it reads) and
# makes the wheel manylinux with auditwheel, which copies in the shared libraries it links
# (libabigail, libelf, libzip, ...), so `pip install` works on a machine without Debian's packages.
# libclang is loaded on first use, not linked: the lint, inventory and baseline need it installed
# (or TORCH_ABI_CHECK_LIBCLANG); audit, check's build and smoke runs, diff and the store do not.
#
# Usage: bash ci/build_wheel.sh [OUT_DIR]   (default: dist/); prints the wheel's path last.
# The CMake build stays in build-wheel/, so a second run rebuilds only what changed. It compiles with
# the flags of ci/build.sh's build (RelWithDebInfo: -O2, line tables) from a folder as deep as build/, so that
# every object is a ccache hit of that build, on a new machine too (the PythonPackage test compiled the
# whole CLI a second time, at -O3, for 11 minutes there); auditwheel --strip then drops the debug
# information, which leaves what a Release build at -O2 gives.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-dist}")
bash ci/setup.sh >&2
tools="${TORCH_ABI_CHECK_TOOLS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/torch-abi-check-tools}"
if command -v ccache >/dev/null; then export CMAKE_CXX_COMPILER_LAUNCHER=ccache; fi
# As in ci/build.sh: paths hashed relative to the checkout, so a clone in another folder (CI's, the
# PythonPackage test's) hits what an earlier clone compiled.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime  # as ci/build.sh
# The compiler by the name ci/build.sh's CMake finds (c++, or $CXX): pip's build otherwise gets CXX=g++ from
# Python's sysconfig, and ccache counts another name of the same g++ as another compiler (every file
# of the wheel a miss, 2026-12-01).
export CC="${CC:-cc}" CXX="${CXX:-c++}"

unrepaired=$(mktemp -d)
trap 'rm -rf "$unrepaired"' EXIT
"$tools/bin/pip" wheel --quiet --no-build-isolation --no-deps --wheel-dir "$unrepaired" \
  --config-settings=build-dir=build-wheel --config-settings=cmake.build-type=RelWithDebInfo . >&2
mkdir -p "$out"
PATH="$tools/bin:$PATH" "$tools/bin/auditwheel" repair --strip --wheel-dir "$out" "$unrepaired"/torch_abi_check-*.whl >&2
ls -t "$out"/torch_abi_check-*.whl | head -n 1
