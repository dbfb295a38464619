#!/usr/bin/env python3
"""Checks that the files compiled together in one unit of the unity build (checker/CMakeLists.txt,
checker_unity_build) cannot capture each other's names.

In one unit, a function a file defines for itself (in its anonymous namespace) is visible to the files
after it: where one of them calls a function of the same name, overload resolution may pick the other
file's, silently. That happened: pt2_package.cpp's `std::string trimmed(std::string)` was a better match
than python_imports.cpp's own `std::string_view trimmed(std::string_view)` for a std::string, and a
string_view then pointed into a destroyed temporary (the canary's reasons showed freed memory).

A file's own names are the functions it defines at the start of a line (clang-format leaves namespace
members unindented) that no project header it includes declares; a finding is such a name that another file of
the unit defines too or calls. Prints one line per finding: exit 1; 0 when there is none; 2 when the
build folder has no units (configure first).

Usage: check_unity_names.py BUILD_DIR
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INCLUDE_ROOTS = (ROOT / "checker" / "src", ROOT / "checker" / "tests")
DEFINITION = re.compile(r"^(?!return\b|else\b|case\b)[A-Za-z_][\w:<>,\s*&]*?[\s*&](\w+)\([^;]*$", re.M)
KEYWORDS = {"if", "for", "while", "switch", "catch", "TEST", "TEST_F", "TEST_P", "INSTANTIATE_TEST_SUITE_P",
            "operator", "sizeof", "decltype", "static_assert", "defined"}


def strip_comments_and_strings(text: str) -> str:
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'R"(\w*)\(.*?\)\1"', '""', text, flags=re.S)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)


def project_file(included: str) -> Path | None:
    """Where an `#include "..."` of checker/ points: under checker/src or checker/tests."""
    return next((root / included for root in INCLUDE_ROOTS if (root / included).is_file()), None)


def included_project_files(text: str) -> list[Path]:
    return [path for path in map(project_file, re.findall(r'^#include "([^"]+)"', text, re.M)) if path is not None]


def declared_in_included_headers(text: str) -> set[str]:
    """The names that the project's headers a file includes declare: what it defines for other files (a
    second definition of one of those is the linker's error, not a silent capture)."""
    names: set[str] = set()
    for header in included_project_files(text):
        names.update(re.findall(r"\b(\w+)\s*\(", strip_comments_and_strings(header.read_text())))
    return names


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    units = sorted(Path(sys.argv[1]).glob("**/unity/*.cpp"))
    if not units:
        print(f"check_unity_names: {sys.argv[1]}: no units of the unity build (configure the build first)",
              file=sys.stderr)
        return 2
    findings = set()
    for unit in units:
        own: dict[Path, set[str]] = {}
        called: dict[Path, set[str]] = {}
        for path in included_project_files(unit.read_text()):
            text = path.read_text()
            code = strip_comments_and_strings(text)
            public = declared_in_included_headers(text)
            own[path] = {name for name in DEFINITION.findall(code) if name not in KEYWORDS and name not in public}
            called[path] = set(re.findall(r"(?<![\w.>:])(\w+)\s*\(", code))
        for path, names in own.items():
            for other in own:
                if other == path:
                    continue
                for name in sorted(names & (own[other] | called[other])):
                    findings.add(f"{path.relative_to(ROOT)}: its own '{name}' is also "
                                 f"{'defined' if name in own[other] else 'called'} in {other.relative_to(ROOT)}, "
                                 f"compiled with it in {unit.name}: rename one")
    for line in sorted(findings):
        print(line)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
