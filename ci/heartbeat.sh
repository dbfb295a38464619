# Sourced by the set-up scripts (ci/setup.sh, ci/build.sh). Where standard output is no terminal (a
# CI log), `heartbeat_start LABEL` prints "LABEL: still running, N s so far" every 25 s until the
# script ends, so that one long compile or apt download never leaves the log quiet for 30 s.
heartbeat_start() {
  [[ -t 1 ]] && return 0
  local label=$1 parent=$$ started
  started=$(date +%s)
  (
    # sleep holds no copy of the log, so the log ends with the script, not when the sleep does.
    while sleep 25 >/dev/null 2>&1 && kill -0 "$parent" 2>/dev/null; do
      echo "$label: still running, $(($(date +%s) - started)) s so far"
    done
  ) &
  heartbeat_pid=$!
  trap 'kill "$heartbeat_pid" 2>/dev/null || true' EXIT
}
