#!/usr/bin/env bash
# The test command: set up the machine, install the default torch store (cached after the first
# run), build, and run every test with ctest, $(nproc) + 1 at a time. Arguments go to ctest:
#   bash ci/test.sh -L quick     the quick tier: no store (not even installed), a few minutes
#   bash ci/test.sh -R Lint      the tests whose name matches
# Every test has one tier label (quick, store, style, corpus: checker/tests/test_tiers.cmake.in).
# Tests that cannot share the machine say so themselves (RESOURCE_LOCK, RUN_SERIAL in
# checker/tests/test_tiers.cmake.in), so -j is safe for any selection.
# Without arguments: every test except the corpus beyond its fixed sample (label corpus-full, the
# real projects that take minutes each); `bash ci/test.sh -L corpus` runs the whole corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
default_selection=false
if (($# == 0)); then
  default_selection=true
  set -- -LE corpus-full
fi
bash ci/setup.sh

# The store is installed unless the tests selected by label (-L/--label-regex) need none of it. Its
# download is network-bound and the build CPU-bound: on a new machine they run side by side.
labels=""
excludes=false
arguments=("$@")
for ((i = 0; i < ${#arguments[@]}; i++)); do
  case "${arguments[i]}" in
    -LE* | --label-exclude*) excludes=true ;;
    -L | --label-regex) labels="${arguments[i + 1]:-}" ;;
    -L* ) labels="${arguments[i]#-L}" ;;
    --label-regex=*) labels="${arguments[i]#--label-regex=}" ;;
  esac
done
store_install=
if [[ -z $labels || $excludes == true || store =~ $labels || corpus =~ $labels ]]; then
  bash ci/store_install.sh &
  store_install=$!
  # A failed build ends the script: the download goes with it (an interrupted release is redone).
  trap 'kill "$store_install" 2>/dev/null || true' EXIT
else
  echo "test: the tests labelled '$labels' need no torch store; not installing it"
fi
bash ci/build.sh
. ci/heartbeat.sh
heartbeat_start test
run_ctest() {
  # One more test than cores: most tests wait part of their time (on fresh processes importing torch,
  # on downloads, on cells' timeouts), so $(nproc) of them left cores idle (bench/HISTORY.md, issue 29).
  (cd build && ctest --output-on-failure --timeout 1800 --parallel "$(($(nproc) + 1))" "$@")
}

# On a new machine the build ends minutes before the store's install (several GB to download and
# unpack): the tests that need no store (quick, style) run meanwhile, the others once it is there. The
# corpus sample needs the newest release alone (the CLI's default, which the store installs first): when
# the store already has the release its install plans as the newest, the sample runs meanwhile too.
# A failed run ends the script: the download goes with it (an interrupted release is redone).
if [[ -n $store_install ]]; then trap 'kill "$heartbeat_pid" "$store_install" 2>/dev/null || true' EXIT; fi
early=0
if [[ $default_selection == true && -n $store_install ]] && kill -0 "$store_install" 2>/dev/null; then
  early_tiers=(quick style)
  newest=$(bash ci/store_install.sh --dry-run 2>/dev/null | tail -n 1) || newest=""
  listed=$(build/checker/torch-abi-check store list 2>/dev/null) || listed=""
  if [[ -n $newest ]] && grep -q "^${newest//./\\.} " <<<"$listed"; then
    early_tiers+=(corpus-sample)
  fi
  echo "test: the tests that need no more than the store has (${early_tiers[*]}) run while its install ends"
  early_labels=$(IFS='|'; echo "${early_tiers[*]}")
  run_ctest -L "^($early_labels)\$" || early=$?
  set -- -LE "corpus-full|^($early_labels)\$"
fi
if [[ -n $store_install ]]; then wait "$store_install"; fi
trap 'kill "$heartbeat_pid" 2>/dev/null || true' EXIT

# The builds that the tests of every clone share (testing::with_shared_builds) are keyed by content,
# so old keys are never asked for again: entries made over two weeks ago go (at worst, rebuilt once).
shared_builds="${XDG_CACHE_HOME:-$HOME/.cache}/torch-abi-check/test-builds"
if [[ -d $shared_builds ]]; then
  find "$shared_builds" -mindepth 2 -maxdepth 2 -mtime +14 -exec rm -rf {} + 2>/dev/null || true
fi
rest=0
run_ctest "$@" || rest=$?
exit $((early ? early : rest))
