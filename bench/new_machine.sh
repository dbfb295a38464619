#!/usr/bin/env bash
# Runs a command in a fresh clone of this checkout as on a new machine, as far as the project's own
# state goes: an empty XDG cache (no torch store, pip cache, tools venv, tidy cache or shared test builds)
# and an empty ccache. The apt packages stay (ci/setup.sh's apt step took 32 s on a really new machine,
# bench/HISTORY.md). Every output line is stamped (bench/log_gaps.py), so the stages' times can be read.
#
# Usage: bash bench/new_machine.sh DIR -- COMMAND...   e.g. bash bench/new_machine.sh /tmp/nm -- bash .ci/run
# DIR is emptied first; afterwards it holds the clone, the caches (several GB: the store), stamped.log
# (seconds since the start, then the line), gaps.txt (the longest quiet stretch) and summary.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
base=$(realpath -m "$1")
shift
[ "${1:-}" = -- ] && shift
rm -rf "$base"
mkdir -p "$base/cache" "$base/ccache"
git clone -q "$root" "$base/clone"
cd "$base/clone" || exit 2
echo "commit $(git rev-parse --short HEAD), start $(date -u +%H:%M:%S), load $(cut -d' ' -f1-3 /proc/loadavg)" >"$base/summary"
XDG_CACHE_HOME=$base/cache CCACHE_DIR=$base/ccache CI=true \
  python3 bench/log_gaps.py --log "$base/stamped.log" --limit 30 -- /usr/bin/time -v "$@" >"$base/gaps.txt" 2>&1
echo "end $(date -u +%H:%M:%S); $(head -n 1 "$base/gaps.txt")" >>"$base/summary"
cat "$base/summary"
