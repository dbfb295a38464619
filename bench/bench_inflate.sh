#!/usr/bin/env bash
# The inflate alone, zlib (through libzip) against ISA-L's igzip, on the deflated ELF entries of the
# wheels named (default: the Linux wheels in /tmp/wheels and /tmp/wheels/probe): what a .whl audit
# cannot avoid paying (docs/wheel-reading.md), measured without the audit around it.
#   bash bench/bench_inflate.sh [WHEEL...]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
g++ -O2 -std=c++20 "$root/bench/inflate_zlib_isal.cpp" -o "$work/inflate_zlib_isal" -lzip -lisal
if (($# == 0)); then
  shopt -s nullglob
  set -- /tmp/wheels/*linux*.whl /tmp/wheels/probe/*linux*.whl
fi
"$work/inflate_zlib_isal" "$@"
