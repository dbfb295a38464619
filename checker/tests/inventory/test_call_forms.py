#!/usr/bin/env python3
"""The inventory's call forms checked by g++ on every stored release (issue 48, item 3).

The inventory records, for each C++ declaration of the stable headers (kind "method": member functions,
constructors, the torch::stable wrappers), how many trailing parameters have a default argument
(`default_arguments`) and whether a constructor is `explicit`; `diff` reports a default removed or a
constructor made explicit as a source break from these facts. This test asks the compiler whether the facts
are true, for every such declaration of every committed baseline whose release is stored, with that release's
own headers:

  defaults kept     a call with only the parameters that have no default compiles (each recorded default is real);
  none missed       a call with one argument fewer does not compile, where no other overload of the name could
                    take that many arguments (else the call is another overload's);
  converting        a constructor callable with one argument that is not explicit converts implicitly
                    (std::is_convertible), one recorded explicit does not, where no other constructor of the
                    class could convert the same argument.

Each statement is one function of one generated source per release (g++ -fsyntax-only, errors mapped back
by line). A declaration whose full call does not compile (a template, a parameter type no statement can
name) is counted as not checkable. Prints a table per release; exit 1 on any fact g++ contradicts, 2 when
nothing could be checked.

usage: test_call_forms.py CLI
"""
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench"))
from probe_findings import CXX, Store  # noqa: E402
from surface_uses import PRELUDE, argument, split_key  # noqa: E402


def statements_of(declarations):
    """(statement, what g++ must say: True compiles / False refuses, the declaration, the fact) for every
    checkable fact of a release's methods."""
    methods = [d for d in declarations if d["kind"] == "method" and not d.get("backend")]
    shapes = {}  # (scope, name) -> [(required, total)] of every overload
    for d in methods:
        scope, name, _, parameters, _ = split_key(d["name"])
        if parameters is None:
            continue
        total = len(parameters)
        shapes.setdefault((scope, name), []).append((total - d.get("default_arguments", 0), total))
    classes = {split_key(d["name"])[0] for d in methods if split_key(d["name"])[0].rpartition("::")[2] ==
               split_key(d["name"])[1]}
    checks = []
    for d in methods:
        scope, name, template, parameters, qualifiers = split_key(d["name"])
        if parameters is None or template or any("type-parameter-" in p for p in parameters):
            continue
        constructor = scope.rpartition("::")[2] == name
        if not constructor and name.startswith("operator"):
            continue

        def call(count):
            arguments = ", ".join(argument(p) for p in parameters[:count])
            if constructor:
                return f"(void){scope}({arguments});"
            if scope in classes:
                return f"(void)arg<{scope}&>().{name}({arguments});"
            return f"(void){scope}::{name}({arguments});"

        total, defaults = len(parameters), d.get("default_arguments", 0)
        required = total - defaults
        checks.append((call(total), True, d, "the full call"))
        if defaults:
            checks.append((call(required), True, d, f"{defaults} defaults: a call of {required} arguments"))
        fewer = required - 1
        overloads = shapes.get((scope, name), [])
        if fewer >= 0 and sum(1 for low, high in overloads if low <= fewer <= high) == 0:
            checks.append((call(fewer), False, d, f"{defaults} defaults: no call of {fewer} arguments"))
        if constructor and required == 1 and scope not in parameters[0]:
            converting = [high for low, high in overloads if low <= 1 <= high]
            if not d.get("explicit") or len(converting) == 1:
                checks.append((f"static_assert(std::is_convertible_v<{parameters[0]}, {scope}>);",
                               not d.get("explicit"), d, "explicit" if d.get("explicit") else "converts implicitly"))
    return checks


def compile_checks(include, headers, checks, work):
    """{index: compiles?} of each statement, by one g++ run (errors mapped back to the statement's line)."""
    lines = PRELUDE.splitlines() + ["#include <type_traits>"]
    lines += [f"#include <{h}>" for h in sorted(headers)]
    line_of = {}
    for index, (statement, _, _, _) in enumerate(checks):
        lines.append(f"void check_{index}() {{ {statement} }}")
        line_of[len(lines)] = index
    source = work / "calls.cpp"
    source.write_text("\n".join(lines) + "\n")
    result = subprocess.run([CXX, "-std=c++17", "-fsyntax-only", "-fmax-errors=0", "-w", "-I", include,
                             "-I", f"{include}/torch/csrc/api/include", str(source)], capture_output=True, text=True)
    refused = set()
    for match in re.finditer(rf"^{re.escape(str(source))}:(\d+):\d+: error", result.stderr, re.M):
        line = int(match.group(1))
        if line not in line_of:
            return None, next((l for l in result.stderr.splitlines() if "error" in l), "")
        refused.add(line_of[line])
    return {i: i not in refused for i in range(len(checks))}, ""


def main():
    if len(sys.argv) != 2:
        print(__doc__.split("usage: ")[1].strip(), file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="call-forms-") as temp:
        work = Path(temp)
        store = Store(sys.argv[1], work)
        wrong, checked, uncheckable = [], 0, 0
        print("| release | declarations | facts checked | contradicted |\n|---|---:|---:|---:|")
        for minor in store.minors():
            baseline = ROOT / "shim_decls" / minor / "inventory.json"
            if not baseline.exists():
                continue
            declarations = json.load(open(baseline))["declarations"]
            checks = statements_of(declarations)
            headers = {d["header"] for _, _, d, _ in checks}
            outcome, error = compile_checks(store.include(minor), headers, checks, work)
            if outcome is None:
                print(f"test_call_forms: {minor}: the headers do not compile: {error}", file=sys.stderr)
                return 2
            full = {id(d): outcome[i] for i, (_, _, d, fact) in enumerate(checks) if fact == "the full call"}
            release_wrong = 0
            for i, (statement, expected, d, fact) in enumerate(checks):
                if not full.get(id(d), False):
                    uncheckable += fact == "the full call"
                    continue
                if fact == "the full call":
                    continue
                checked += 1
                if outcome[i] != expected:
                    release_wrong += 1
                    wrong.append(f"{minor} {d['name']}: {fact}: g++ says the statement "
                                 f"{'compiles' if outcome[i] else 'does not compile'}: {statement}")
            print(f"| {minor} | {len(full)} | {sum(1 for c in checks if c[3] != 'the full call')} | {release_wrong} |")
        print(f"{checked} facts checked by g++, {len(wrong)} contradicted; {uncheckable} declarations whose full call "
              "does not compile (not checkable)")
        for line in wrong:
            print("  " + line)
        if checked == 0:
            return 2
        return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
