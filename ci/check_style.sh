#!/usr/bin/env bash
# The style checks of the tree, run by the tests (ctest Style.*) and by hand:
#   ci/check_style.sh format          clang-format (.clang-format) on every tracked C++ file of checker/
#                                     and kernels/; prints the files that differ, exit 1 when any does
#   ci/check_style.sh tidy [--full | --record] BUILD_DIR
#                                     clang-tidy (.clang-tidy) on every .cpp of checker/, with BUILD_DIR's
#                                     compile_commands.json; exit 1 on any finding. Each file's result is
#                                     cached (ci/tidy_cached.py: keyed by the file, its headers, its compile
#                                     command, .clang-tidy and clang-tidy's version), so only what changed
#                                     is checked again; --full (or TORCH_ABI_CHECK_TIDY_FULL=1) checks all.
#                                     ci/tidy-results.json carries the results with the repository, so that
#                                     a new machine checks only what changed since they were recorded:
#                                     --record writes it (run it before a commit that changes C++)
#   ci/check_style.sh workflows       zizmor (GitHub Actions security linter) on ci/workflows/*.yml and
#                                     ci/action.yml, offline; exit 1 on any finding at medium or above
#   ci/check_style.sh conflicts       no tracked file holds a merge's conflict markers (one landed once,
#                                     in bench/RESULTS.md, where no compiler would have noticed)
#   ci/check_style.sh fix             rewrites the files clang-format would change
# Exit 2 when a tool or the build's compile commands are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

clang_format=$(command -v clang-format-14 || command -v clang-format || true)
clang_tidy=$(command -v clang-tidy-14 || command -v clang-tidy || true)
# zizmor is a PyPI package: ci/setup.sh installs it into the tools venv.
tools_venv="${TORCH_ABI_CHECK_TOOLS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/torch-abi-check-tools}"
zizmor=$(command -v zizmor || { [[ -x $tools_venv/bin/zizmor ]] && echo "$tools_venv/bin/zizmor"; } || true)

# Tracked sources when this is a git checkout; otherwise every source of the two trees.
cxx_sources() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -- "$@"
  else
    find checker kernels -type f \( -name '*.cpp' -o -name '*.h' -o -name '*.cu' -o -name '*.hip' \) | sort
  fi
}

need() {
  if [[ -z $2 ]]; then
    echo "check_style: $1 not found; bash ci/setup.sh installs it" >&2
    exit 2
  fi
}

case "${1:-}" in
  format | fix)
    need clang-format "$clang_format"
    mapfile -t files < <(cxx_sources 'checker/*.cpp' 'checker/*.h' 'kernels/*.cpp' 'kernels/*.h' 'kernels/*.cu' 'kernels/*.hip')
    if [[ $1 == fix ]]; then
      "$clang_format" -i "${files[@]}"
      exit 0
    fi
    differ=()
    for file in "${files[@]}"; do
      "$clang_format" --dry-run --Werror "$file" >/dev/null 2>&1 || differ+=("$file")
    done
    if ((${#differ[@]})); then
      printf '%s: not formatted (ci/check_style.sh fix rewrites it)\n' "${differ[@]}"
      exit 1
    fi
    echo "check_style: ${#files[@]} files formatted"
    ;;
  tidy)
    need clang-tidy "$clang_tidy"
    shift
    full=()
    if [[ ${1:-} == --full ]]; then full=(--full); shift; fi
    if [[ ${1:-} == --record ]]; then full=(--record); shift; fi
    if [[ ${TORCH_ABI_CHECK_TIDY_FULL:-} == 1 ]]; then full=(--full); fi
    build_dir=${1:-build}
    if [[ ! -f $build_dir/compile_commands.json ]]; then
      echo "check_style: $build_dir/compile_commands.json: missing; configure the build first (bash ci/build.sh)" >&2
      exit 2
    fi
    mapfile -t files < <(cxx_sources 'checker/*.cpp' | grep -v '^checker/fuzz/')
    log=$(mktemp)
    trap 'rm -f "$log"' EXIT
    cache_dir="${XDG_CACHE_HOME:-$HOME/.cache}/torch-abi-check/tidy"
    status=0
    python3 ci/tidy_cached.py --clang-tidy "$clang_tidy" --build-dir "$build_dir" --cache-dir "$cache_dir" \
      --ledger ci/tidy-results.json --jobs "$(nproc)" "${full[@]}" "${files[@]}" >"$log" || status=$?
    if ((status != 0)); then exit 2; fi
    # A finding names its check; clang 14 (which clang-tidy runs) cannot parse some of GCC 12's C++20
    # library code, and the files where it stops are listed as not fully checked, not as findings.
    findings=$(grep -E '(warning|error): .*\[[a-z]+-[a-z0-9.-]+(,-warnings-as-errors)?\]$' "$log" |
      grep -v '\[clang-diagnostic-' | sort -u || true)
    unparsed=$(grep -E '^/.*: error: .*\[clang-diagnostic-error\]$' "$log" | grep -v '^/usr/' |
      cut -d: -f1 | sort -u || true)
    if [[ -n $unparsed ]]; then
      echo "check_style: clang 14 could not parse all of (checked up to the error):"
      sed 's|^'"$PWD"'/|  |' <<<"$unparsed"
    fi
    if [[ -n $findings ]]; then
      echo "$findings"
      echo "check_style: clang-tidy found the above in ${#files[@]} files" >&2
      exit 1
    fi
    echo "check_style: ${#files[@]} files pass clang-tidy"
    ;;
  conflicts)
    # Markers as git writes them: 7 characters at the start of a line, a space and a name after the
    # outer two. A Markdown rule of '=' signs alone is no marker unless it is exactly 7 long.
    if git grep -nE '^(<<<<<<< |>>>>>>> |=======$)' -- . ':!*.png'; then
      echo "check_style: the lines above are a merge's conflict markers" >&2
      exit 1
    fi
    echo "check_style: no conflict markers"
    ;;
  workflows)
    need zizmor "$zizmor"
    # --offline: no GitHub API (no token); the pins are checked for being commit SHAs, not looked up.
    if ! "$zizmor" --offline --min-severity medium --no-progress ci/workflows/*.yml ci/action.yml; then
      echo "check_style: zizmor found the above (docs/workflow-pins.md says how to fix a pin)" >&2
      exit 1
    fi
    ;;
  *)
    echo "usage: ci/check_style.sh format | tidy [--full | --record] [BUILD_DIR] | workflows | conflicts | fix" >&2
    exit 2
    ;;
esac
