#!/usr/bin/env python3
"""Writes a C++ source that defines every function declared in libclang's C headers as a call
through a pointer looked up, on first use, in libclang loaded with dlopen (run by CMake).

Linking libclang (and with it libLLVM) costs every run of the tool ~19 ms of start-up, the audit's
whole budget, although only the lint, inventory and baseline commands call it. Each definition takes
its parameter and return types from the header's own declaration (decltype), so the generator only
needs each function's name and number of parameters.

    generate_libclang_stubs.py CLANG_C_INCLUDE_DIR OUTPUT_CPP
"""
import pathlib
import re
import sys


def unconditional_text(text):
    """The header's text outside #if blocks other than its include guard: declarations that depend
    on a compiler feature (clang_visitChildrenWithBlock) are left out."""
    kept, conditions = [], []
    for line in text.splitlines():
        directive = line.strip()
        if directive.startswith(("#if", "#ifdef", "#ifndef")):
            conditions.append(re.search(r"LLVM_CLANG_C_\w+_H", directive) is not None)
        elif directive.startswith("#endif") and conditions:
            conditions.pop()
        elif all(conditions):
            kept.append(line)
    return "\n".join(kept)


def declarations(include_dir):
    for header in sorted(include_dir.glob("*.h")):
        text = re.sub(r"/\*.*?\*/", " ", header.read_text(), flags=re.S)
        text = unconditional_text(re.sub(r"//[^\n]*", " ", text))
        for match in re.finditer(r"CINDEX_LINKAGE\s+[^;{}()]*?\b(clang_\w+)\s*\(([^;{}]*?)\)\s*;", text, re.S):
            yield header.name, match.group(1), parameter_count(match.group(2))


def parameter_count(parameters):
    parameters = parameters.strip()
    if parameters in ("", "void"):
        return 0
    if "..." in parameters:
        return None
    depth, count = 0, 1
    for character in parameters:
        depth += character == "("
        depth -= character == ")"
        count += character == "," and depth == 0
    return count


def main():
    include_dir, output = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    headers, stubs = set(), []
    for header, name, count in declarations(include_dir):
        if count is None or name in (stub[0] for stub in stubs):
            continue
        headers.add(header)
        parameters = ", ".join(f"Parameter<decltype({name}), {i}> a{i}" for i in range(count))
        arguments = ", ".join(f"a{i}" for i in range(count))
        stubs.append((name, f'Result<decltype({name})> {name}({parameters}) {{\n'
                            f'  static const auto function = libclang_function<decltype(&{name})>("{name}");\n'
                            f'  return function({arguments});\n}}\n'))
    lines = ["// Generated at build time by checker/src/core/generate_libclang_stubs.py: do not edit.",
             *(f"#include <clang-c/{header}>" for header in sorted(headers)),
             "",
             '#include "core/lazy_libclang.h"',
             "",
             "using abicheck::libclang_function;",
             "using abicheck::Parameter;",
             "using abicheck::Result;",
             "",
             'extern "C" {',
             "",
             *(stub for _, stub in stubs),
             '}  // extern "C"',
             ""]
    output.parent.mkdir(parents=True, exist_ok=True)
    temporary = output.with_suffix(".tmp")
    temporary.write_text("\n".join(lines))
    temporary.replace(output)


if __name__ == "__main__":
    main()
