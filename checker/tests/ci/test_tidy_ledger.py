#!/usr/bin/env python3
"""The clang-tidy cache and its ledger (ci/tidy_cached.py), on a small CMake project built for real.

What a new machine relies on: the ledger recorded in one checkout lets a clone elsewhere, with an
empty cache and another processor, skip every file whose key is unchanged and still print each file's findings (with its
own paths); a changed header re-checks exactly the files that include it, also through a generated
header that names the checkout; a ledger that is no ledger is exit 2, never a silent full pass.

Usage: test_tidy_ledger.py CHECKOUT   (the checkout whose ci/tidy_cached.py is tested)
Exit: 0 every expectation held, 1 one did not (printed), 2 a tool is missing.
"""

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# main.cpp has one finding of the check below (0 as a null pointer); other.cpp has none. main.cpp
# includes util.h and the generated paths.h, whose configured text names the checkout.
PROJECT = {
    "CMakeLists.txt": """cmake_minimum_required(VERSION 3.20)
project(tidy_ledger CXX)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)
configure_file(src/paths.h.in ${CMAKE_BINARY_DIR}/generated/paths.h)
add_library(small STATIC src/main.cpp src/other.cpp)
target_include_directories(small PRIVATE src ${CMAKE_BINARY_DIR}/generated)
""",
    ".clang-tidy": "Checks: '-*,modernize-use-nullptr'\n",
    "src/paths.h.in": '#pragma once\ninline const char* checkout() { return "@PROJECT_SOURCE_DIR@"; }\n',
    "src/util.h": "#pragma once\ninline int twice(int x) { return 2 * x; }\n",
    "src/main.cpp": '#include "paths.h"\n#include "util.h"\nint* nothing() { int* p = 0; return p; }\n'
                    'int four() { return twice(2) + (checkout() != nullptr ? 0 : 1); }\n',
    "src/other.cpp": "int one() { return 1; }\n",
}
FILES = ["src/main.cpp", "src/other.cpp"]


def run(argv, cwd, check=True):
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False)
    if check and done.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, argv))} exited {done.returncode}:\n{done.stdout}{done.stderr}")
    return done


def make_checkout(where: Path, checkout: Path) -> None:
    for name, text in PROJECT.items():
        (where / name).parent.mkdir(parents=True, exist_ok=True)
        (where / name).write_text(text)
    (where / "ci").mkdir(exist_ok=True)
    shutil.copy(checkout / "ci" / "tidy_cached.py", where / "ci" / "tidy_cached.py")
    run(["cmake", "-S", ".", "-B", "build", "-G", "Ninja", "-DCMAKE_CXX_COMPILER=g++"], where)
    run(["ninja", "-C", "build"], where)


def tidy(where: Path, cache: Path, clang_tidy: str, *extra: str):
    done = run([sys.executable, "ci/tidy_cached.py", "--clang-tidy", clang_tidy, "--build-dir", "build",
                "--cache-dir", str(cache), "--ledger", "ci/tidy-results.json", *extra, *FILES], where, check=False)
    counted = re.search(r"tidy: (\d+) of (\d+) files checked .* \((\d+) of them from the ledger", done.stderr)
    return done, (int(counted[1]), int(counted[3])) if counted else None


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 2
    checkout = Path(sys.argv[1]).resolve()
    clang_tidy = shutil.which("clang-tidy-14") or shutil.which("clang-tidy")
    if clang_tidy is None or shutil.which("ninja") is None:
        print("test_tidy_ledger: clang-tidy or ninja not found; bash ci/setup.sh installs them", file=sys.stderr)
        return 2
    failures = []

    def expect(what, condition, done=None):
        if not condition:
            failures.append(what + (f"\n  stdout: {done.stdout}\n  stderr: {done.stderr}" if done else ""))

    with tempfile.TemporaryDirectory() as temp:
        temp = Path(temp)
        first, second = temp / "first", temp / "elsewhere" / "second"
        make_checkout(first, checkout)

        done, counts = tidy(first, temp / "cache-first", clang_tidy, "--record")
        expect("the first run checks both files and records them", done.returncode == 0 and counts == (2, 0), done)
        expect("the finding of main.cpp is printed with its checkout's path",
               f"{first}/src/main.cpp:3" in done.stdout and "modernize-use-nullptr" in done.stdout, done)
        ledger = (first / "ci" / "tidy-results.json").read_text() if (first / "ci/tidy-results.json").exists() else ""
        expect("the ledger names each file once, by its path in the checkout, and no absolute path",
               ledger.count('"src/main.cpp"') == 1 and ledger.count('"src/other.cpp"') == 1 and str(first) not in ledger)

        # Another clone in another folder, with an empty cache, on a machine with another processor (a
        # new machine; clang-tidy --version names the processor): nothing to check.
        make_checkout(second, checkout)
        shutil.copy(first / "ci" / "tidy-results.json", second / "ci" / "tidy-results.json")
        other_processor = temp / "clang-tidy-on-another-processor"
        other_processor.write_text(f'#!/bin/sh\nif [ "$1" = --version ]; then "{clang_tidy}" --version | '
                                   f'sed "s/Host CPU: .*/Host CPU: another-processor/"; exit; fi\n'
                                   f'exec "{clang_tidy}" "$@"\n')
        other_processor.chmod(0o755)
        done, counts = tidy(second, temp / "cache-second", str(other_processor))
        expect("a clone elsewhere, on another processor, with an empty cache takes both results from the ledger",
               done.returncode == 0 and counts == (0, 2), done)
        expect("the ledger's finding is printed with the clone's own path",
               f"{second}/src/main.cpp:3" in done.stdout and "modernize-use-nullptr" in done.stdout, done)

        # A header changed: only the file that includes it is checked again.
        (second / "src" / "util.h").write_text("#pragma once\ninline int twice(int x) { return x + x; }\n")
        run(["ninja", "-C", "build"], second)
        done, counts = tidy(second, temp / "cache-second", clang_tidy)
        expect("a changed header re-checks only main.cpp", done.returncode == 0 and counts == (1, 0), done)

        # --full checks everything, whatever the ledger says.
        done, counts = tidy(second, temp / "cache-second", clang_tidy, "--full")
        expect("--full checks both files", done.returncode == 0 and counts == (2, 0), done)

        # A ledger that cannot be read is exit 2 with its name, not a pass and not a traceback.
        (second / "ci" / "tidy-results.json").write_text('{"src/main.cpp": 3}\n')
        done, _ = tidy(second, temp / "cache-third", clang_tidy)
        expect("an unreadable ledger is exit 2 naming it",
               done.returncode == 2 and "ci/tidy-results.json: not a ledger" in done.stderr
               and "Traceback" not in done.stderr, done)

    for failure in failures:
        print(f"FAILED: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
