#!/usr/bin/env python3
"""The extension lint scored on the whole stable surface (issue 44): every declaration x every target.

From the newest stored release's inventory (shim_decls/<newest>/inventory.json: C shims, the stable C++
wrappers and their overloads, methods and constructors, header-only types, enumerators, macros), generates
for each declaration a use as an extension writes it (a call with arguments of its parameter types, a
member call on an object of its class, a constructor, an enumerator's value, a type named, a macro
expanded), one function a use, and for each target T from the oldest stored release to the newest:

  truth   compile the uses with the newest headers at T (g++, as a pip build does), link them the way
          torch's cpp_extension links an extension and load the library under release T in a fresh
          process (bench/probe_loader.py, RTLD_NOW); per use where the whole library does not load. The
          uses are compiled with T's own headers too (a column: what a build against T itself sees).
  lint    `torch-abi-check lint extension` of the same source with the newest headers (`--torch newest`).

A use is judged right when the lint says what the truth shows:
  E003      the use does not compile with the newest headers at T, or compiles and does not load under T;
            some release declares it, so it is newer than the target
  silence   it compiles and loads: the extension keeps its promise to run on T (header-only code that the
            headers expose to older targets included, PyTorch's REVIEW.md rule)
  E010      never: every generated use is of a declaration a release declares (any E010 is false)

A declaration whose use does not compile even at the newest target (a detail template that only its own
helpers instantiate, a class without the constructor the key names) is listed as not generated, with the
compiler's first error; a declaration of a backend (CUDA, XPU, MPS) as not generated with that reason.
Truth comes from g++ and the loader, never from the tool.

usage: bench/surface_uses.py [--cli CLI] [--sample] [--check] [--json FILE] [--keep DIR] [--jobs N]
  --sample  the fixed sample CI runs: SAMPLE_PER_KIND declarations of each kind (the newest first), at the
            oldest and the newest targets and one between
  --check   exit 1 when fewer than 99 % of the judged uses are right or any E010 is reported
"""
import collections
import json
import os
import re
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from probe_findings import CXX, ROOT, abi_hex, begin, cpu_seconds_since, run  # noqa: E402

SAMPLE_PER_KIND = 6
PRELUDE = """#include <cstdint>
#include <type_traits>
#include <utility>
// A value of any parameter type, as a caller has one; never run (the uses are compiled, linked and loaded).
static void* volatile use_slot;
template <class T>
T arg() {
  return std::forward<T>(*static_cast<std::remove_reference_t<T>*>(use_slot));
}
// An argument for a template parameter (a callable: parallel_for's body, from_blob's deleter).
inline constexpr auto any_callable = [](auto&&...) {};
"""


def version_key(minor):
    return tuple(map(int, minor.split(".")))


# ------------------------------------------------------------------------------------------------
# A declaration's key as the inventory spells it (the tool's reader is inventory/declaration_name.h;
# this is the benchmark's own, so that the truth does not depend on the tool).


def top_level_split(text):
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += c in "(<[" and 1 or 0
        depth -= c in ")>]" and 1 or 0
        if c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    last = text[start:].strip()
    return parts + [last] if last or parts else []


def parameter_list(text):
    """(the text before the parameter list, the parameters, what follows) of `name(params) const`."""
    close = text.rfind(")")
    depth = 0
    for i in range(close, -1, -1):
        depth += text[i] == ")"
        depth -= text[i] == "("
        if depth == 0:
            return text[:i], top_level_split(text[i + 1:close]), text[close + 1:].strip()
    return text, [], ""


def split_key(key):
    """(scope, name, template text, parameters or None, qualifiers) of a declaration's key."""
    parameters, qualifiers, head = None, "", key
    if key.endswith(")") or key.endswith(") const"):
        head, parameters, qualifiers = parameter_list(key)
    template = ""
    operator = re.search(r"(^|::)(operator\W.*)$", head)
    if operator:
        name = operator.group(2)
        scope = head[:operator.start(2)]
    else:
        if head.endswith(">"):
            depth = 0
            for i in range(len(head) - 1, -1, -1):
                depth += head[i] == ">"
                depth -= head[i] == "<"
                if depth == 0:
                    head, template = head[:i], head[i:]
                    break
        scope, _, name = head.rpartition("::")
    scope = "::".join(part for part in scope.split("::") if part)
    return scope, name, template, parameters, qualifiers


def argument(parameter):
    if "type-parameter-" in parameter:
        return "any_callable"
    return f"arg<{parameter}>()"


def use_statement(declaration, classes):
    """The statement that uses a declaration the way an extension would; None when no use can be written
    (with the reason)."""
    kind, key = declaration["kind"], declaration["name"]
    if kind == "function":
        _, parameters, _ = parameter_list(declaration.get("abi_type", ""))
        if "..." in parameters:
            return None, "a variadic C function"
        parameters = [] if parameters == ["void"] else parameters
        return f"(void){key}({', '.join(argument(p) for p in parameters)});", ""
    if kind == "enum_constant":
        return f"(void)static_cast<long long>({key});", ""
    if kind == "enum":
        return f"(void)sizeof({key});", ""
    if kind in ("struct", "typedef"):
        return f"(void)static_cast<{key}*>(nullptr);", ""
    if kind == "macro":
        return f"(void)({key});", ""
    if kind != "method":
        return None, f"kind {kind}"
    scope, name, template, parameters, _ = split_key(key)
    arguments = ", ".join(argument(p) for p in parameters or [])
    explicit = "<float>" if template and not any("type-parameter-" in p for p in parameters or []) else ""
    if scope.rpartition("::")[2] == name:  # a constructor
        return f"(void){scope}({arguments});", ""
    if scope in classes:
        call = f".template {name}{explicit}" if explicit else f".{name}"
        return f"(void)arg<{scope}&>(){call}({arguments});", ""
    return f"(void){scope}::{name}{explicit}({arguments});", ""


# ------------------------------------------------------------------------------------------------


class Use:
    def __init__(self, index, declaration, statement):
        self.index = index
        self.declaration = declaration
        self.statement = statement
        self.line = 0
        self.truth = {}  # target -> {"compiles": bool, "loads": bool|None, "own_headers": bool|None, "error": str}
        self.lint = {}  # target -> [rule ids]


def generate(inventory, sample):
    classes = {split_key(d["name"])[0] for d in inventory
               if d["kind"] == "method" and split_key(d["name"])[0].rpartition("::")[2] == split_key(d["name"])[1]}
    uses, skipped = [], []
    for declaration in inventory:
        if declaration.get("backend"):
            skipped.append((declaration, f"needs the {declaration['backend']} backend's headers"))
            continue
        statement, reason = use_statement(declaration, classes)
        if statement is None:
            skipped.append((declaration, reason))
        else:
            uses.append(Use(len(uses), declaration, statement))
    if sample:
        by_kind = collections.defaultdict(list)
        for use in sorted(uses, key=lambda u: version_key(u.declaration["since"]), reverse=True):
            by_kind[use.declaration["kind"]].append(use)
        uses = [u for kind in sorted(by_kind) for u in by_kind[kind][:SAMPLE_PER_KIND]]
    return uses, skipped


# The public headers of the stable C++ API (torch/csrc/stable/*.h of the newest release, not the *_struct.h
# and *_inl.h halves they join): an extension includes these, and a wrapper declared in a *_struct.h is
# defined in its *_inl.h (hidden, so a use that sees only the declaration does not even link).
PUBLIC_HEADERS = set()


def source_of(uses, headers_guarded, headers=None):
    """The uses' source: the prelude, an include of each header (`headers`, else every use's and the public
    ones), then a function a use, on a line of its own (use.line)."""
    lines = PRELUDE.splitlines()
    for header in sorted(headers if headers is not None else {u.declaration["header"] for u in uses} | PUBLIC_HEADERS):
        if headers_guarded:
            lines += [f"#if __has_include(<{header}>)", f"#include <{header}>", "#endif"]
        else:
            lines.append(f"#include <{header}>")
    for use in uses:
        lines.append(f'extern "C" void use_{use.index}() {{ {use.statement} }}')
        use.line = len(lines)
    return "\n".join(lines) + "\n"


def compiler(include, target, source, obj):
    return [CXX, "-std=c++17", "-c", "-fPIC", "-O0", "-w", "-ffunction-sections", "-I", include, "-I",
            f"{include}/torch/csrc/api/include", f"-DTORCH_TARGET_VERSION={abi_hex(target)}", str(source),
            "-o", str(obj)]


def refused_headers(headers, work, tag, include, target, guarded):
    """{header: g++'s first error} for the headers that do not compile on their own at `target` (ATen/Config.h
    refuses every target), found by compiling the includes alone and leaving out each header an error's
    include chain starts from."""
    refused = {}
    remaining = sorted(headers)
    while remaining:
        source = work / f"{tag}-headers.cpp"
        source.write_text(source_of([], guarded, remaining))
        result = run(compiler(include, target, source, work / f"{tag}-headers.o"))
        if result.returncode == 0:
            return refused
        first_error = next((l for l in result.stderr.splitlines() if "error" in l), result.stderr[:300])
        lines = source.read_text().splitlines()
        started = {int(m.group(1)) for m in re.finditer(rf"(?:from|included from) {re.escape(str(source))}:(\d+)",
                                                       result.stderr)}
        started |= {int(m.group(1)) for m in re.finditer(rf"^{re.escape(str(source))}:(\d+):\d+: error",
                                                        result.stderr, re.M)}
        newly = {re.search(r"<(.+)>", lines[n - 1]).group(1) for n in started if "#include" in lines[n - 1]}
        if not newly:
            return {**refused, **{h: first_error for h in remaining}}
        for header in newly:
            refused[header] = first_error
        remaining = [h for h in remaining if h not in newly]
    return refused


def compile_uses(uses, work, tag, headers, target, store, guarded=False):
    """Compiles the uses into one object, leaving out those g++ refuses. Returns (object or None, {use index:
    first error}, an error of the unit as a whole, the headers it included)."""
    include = store.include(headers)
    broken = refused_headers({u.declaration["header"] for u in uses} | PUBLIC_HEADERS, work, tag, include, target,
                             guarded)
    failing = {u.index: f"{u.declaration['header']} does not compile at this target: {broken[u.declaration['header']]}"
               for u in uses if u.declaration["header"] in broken}
    remaining = [u for u in uses if u.index not in failing]
    headers = ({u.declaration["header"] for u in remaining} | PUBLIC_HEADERS) - set(broken)
    for _ in range(4):
        source = work / f"{tag}.cpp"
        source.write_text(source_of(remaining, guarded, headers))
        obj = work / f"{tag}.o"
        result = run(compiler(include, target, source, obj))
        if result.returncode == 0:
            return obj, failing, "", headers
        by_line = {u.line: u for u in remaining}
        newly = {}
        for match in re.finditer(rf"{re.escape(str(source))}:(\d+):\d+:\s+(?:error|note|required)[^\n]*",
                                 result.stderr):
            use = by_line.get(int(match.group(1)))
            if use and use.index not in newly:
                newly[use.index] = match.group(0).split(":", 3)[-1].strip()[:300]
        if not newly:
            first = next((l for l in result.stderr.splitlines() if "error" in l), result.stderr[:300])
            return None, failing, first, headers
        failing.update(newly)
        remaining = [u for u in remaining if u.index not in newly]
    return None, failing, "g++ kept refusing after the refused uses were left out", headers


def link(obj, work, tag, store, headers, exported=None):
    out = work / f"{tag}.so"
    argv = [CXX, "-shared", str(obj), "-o", str(out), "-L", store.lib(headers), "-Wl,--no-as-needed",
            "-ltorch_cpu", "-lc10"]
    if exported is not None:
        script = work / f"{tag}.map"
        script.write_text(f"{{ global: {exported}; local: *; }};\n")
        argv += ["-Wl,--gc-sections", f"-Wl,--version-script={script}"]
    result = run(argv)
    return out if result.returncode == 0 else None


def load(libraries, release, store, work, jobs):
    """{id: {"stage", "error"}} for libraries loaded under `release` (bench/probe_loader.py)."""
    listing = work / f"load-{release}.json"
    results = work / f"loaded-{release}.json"
    json.dump([{"id": key, "library": str(path), "call": False} for key, path in libraries.items()],
              open(listing, "w"))
    result = run([store.releases[release]["python"], str(ROOT / "bench" / "probe_loader.py"), str(listing),
                  str(results), str(jobs)], timeout=1800)
    if result.returncode != 0:
        print(f"surface_uses: the loader of torch {release} failed: {result.stderr.strip()[-500:]}", file=sys.stderr)
        sys.exit(2)
    return json.load(open(results))


def establish_truth(uses, target, newest, store, work, jobs):
    obj, refused, unit_error, headers = compile_uses(uses, work, f"uses-{target}", newest, target, store)
    if unit_error:
        print(f"surface_uses: the uses at target {target} do not compile as a unit: {unit_error}", file=sys.stderr)
        sys.exit(2)
    for use in uses:
        use.truth[target] = {"compiles": use.index not in refused, "loads": None, "own_headers": None,
                             "error": refused.get(use.index, "")}
    compiled = [u for u in uses if u.truth[target]["compiles"]]
    whole = link(obj, work, f"uses-{target}", store, newest)
    loaded = load({"all": whole}, target, store, work, jobs)["all"] if whole else {"stage": "link-failed"}
    if loaded["stage"] == "loaded":
        for use in compiled:
            use.truth[target]["loads"] = True
    else:
        # One library a use: only the function of that use kept (the others collected), so the loader
        # names the symbols of that use alone.
        libraries = {}
        for use in compiled:
            library = link(obj, work, f"use-{target}-{use.index}", store, newest, exported=f"use_{use.index}")
            if library:
                libraries[str(use.index)] = library
        outcomes = load(libraries, target, store, work, jobs)
        for use in compiled:
            outcome = outcomes.get(str(use.index), {"stage": "link-failed", "error": ""})
            use.truth[target]["loads"] = outcome["stage"] == "loaded"
            if outcome["stage"] != "loaded":
                use.truth[target]["error"] = outcome["error"][:300]
    _, own_refused, own_error, _ = compile_uses(uses, work, f"own-{target}", target, target, store, guarded=True)
    for use in uses:
        use.truth[target]["own_headers"] = None if own_error else use.index not in own_refused
    return headers


def lint_uses(uses, headers, target, newest, cli, work):
    """The lint's verdict on each use at `target`: of the same source the truth compiled (`headers` included)."""
    project = work / f"lint-{target}"
    project.mkdir(exist_ok=True)
    source = project / "uses.cpp"
    source.write_text(f"#define TORCH_TARGET_VERSION {abi_hex(target)}\n" + source_of(uses, False, headers))
    report = work / f"lint-{target}.json"
    result = run([cli, "lint", "extension", str(project), "--torch", newest, "--json", str(report)])
    if result.returncode not in (0, 1):
        print(f"surface_uses: lint of the uses at target {target}: {result.stderr.strip()[-500:]}", file=sys.stderr)
        sys.exit(2)
    by_line = {u.line + 1: u for u in uses}  # the #define above the generated source
    for use in uses:
        use.lint[target] = []
    for diagnostic in json.load(open(report))["lint"]["diagnostics"]:
        use = by_line.get(diagnostic["line"]) if diagnostic["file"] == str(source) else None
        if use:
            use.lint[target].append(diagnostic["rule"])


def verdict(truth):
    if not truth["compiles"] or truth["loads"] is False:
        return "E003"
    return "silence"


def score(uses, targets):
    rows = collections.defaultdict(collections.Counter)
    wrong = []
    for use in uses:
        kind = use.declaration["kind"]
        for target in targets:
            truth = use.truth[target]
            expected = verdict(truth)
            said = "E010" if "E010" in use.lint[target] else "E003" if "E003" in use.lint[target] else "silence"
            c = rows[kind]
            c["pairs"] += 1
            c[f"expected-{expected}"] += 1
            c["right"] += expected == said
            c["false-E010"] += said == "E010"
            c["missed-E003"] += expected == "E003" and said != "E003"
            c["false-E003"] += expected == "silence" and said == "E003"
            c["load-failure"] += truth["compiles"] and truth["loads"] is False
            c["newer-than-own-headers"] += truth["compiles"] and truth["own_headers"] is False
            if expected != said:
                wrong.append((use, target, expected, said))
    return rows, wrong


def table(rows):
    lines = ["| kind | uses x targets | right | E003 expected | missed E003 | false E003 | false E010 | compile, no load "
             "| header-only, newer than the target's own headers |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    total = collections.Counter()
    for kind in sorted(rows) + ["**all**"]:
        c = total if kind == "**all**" else rows[kind]
        if kind != "**all**":
            total.update(c)
        right = f"{c['right']} ({100.0 * c['right'] / c['pairs']:.1f} %)" if c["pairs"] else "-"
        lines.append(f"| {kind} | {c['pairs']} | {right} | {c['expected-E003']} | {c['missed-E003']} | "
                     f"{c['false-E003']} | {c['false-E010']} | {c['load-failure']} | {c['newer-than-own-headers']} |")
    return "\n".join(lines), total


def main():
    arguments = begin(__doc__, "surface_uses")
    started, cpu_started, work, store = arguments.started, arguments.cpu_started, arguments.work, arguments.store
    minors = store.minors()
    newest = minors[-1]
    inventory_path = ROOT / "shim_decls" / newest / "inventory.json"
    if not inventory_path.exists():
        print(f"surface_uses: {inventory_path}: no committed baseline of the newest stored release", file=sys.stderr)
        return 2
    # What only a build without a target sees is not part of the targeted surface.
    declarations = [d for d in json.load(open(inventory_path))["declarations"]
                    if "!TORCH_TARGET_VERSION" not in d.get("backend", "")]
    stable = Path(store.include(newest)) / "torch" / "csrc" / "stable"
    PUBLIC_HEADERS.update(f"torch/csrc/stable/{h.name}" for h in stable.glob("*.h")
                          if not h.name.endswith(("_struct.h", "_inl.h")))
    uses, skipped = generate(declarations, arguments.sample)
    targets = [minors[0], minors[len(minors) // 2], newest] if arguments.sample else minors

    # A use that does not compile, link and load at the newest target with the newest release is the
    # generator's failure, not a finding.
    headers = {newest: establish_truth(uses, newest, newest, store, work, arguments.jobs)}
    for use in [u for u in uses if verdict(u.truth[newest]) != "silence"]:
        skipped.append((use.declaration, f"the generated use does not compile and load at the newest target: "
                                         f"{use.truth[newest]['error']}"))
    uses = [u for u in uses if verdict(u.truth[newest]) == "silence"]
    for target in targets:
        if target != newest:
            headers[target] = establish_truth(uses, target, newest, store, work, arguments.jobs)
        lint_uses(uses, headers[target], target, newest, arguments.cli, work)
    rows, wrong = score(uses, targets)
    text, total = table(rows)
    cpu_s = cpu_seconds_since(cpu_started)
    print(text)
    by_reason = collections.Counter(re.sub(r":.*", "", reason) for _, reason in skipped)
    print(f"\n{len(uses)} declarations x {len(targets)} targets ({', '.join(targets)}) judged, headers of {newest}; "
          f"{len(skipped)} not generated: " + "; ".join(f"{n} {r}" for r, n in sorted(by_reason.items())))
    print(f"{time.monotonic() - started:.0f} s wall, {cpu_s:.0f} CPU-s, {arguments.jobs} jobs")
    for use, target, expected, said in wrong[:40]:
        print(f"wrong: target {target}: {use.declaration['name']} ({use.declaration['kind']}, since "
              f"{use.declaration['since']}): expected {expected}, lint said {said}; truth {use.truth[target]}")
    if arguments.json:
        json.dump({"uses": [{"name": u.declaration["name"], "kind": u.declaration["kind"], "truth": u.truth,
                             "lint": u.lint} for u in uses],
                   "not_generated": [{"name": d["name"], "reason": r} for d, r in skipped]},
                  open(arguments.json, "w"), indent=1, sort_keys=True)
    if not arguments.keep:
        shutil.rmtree(work, ignore_errors=True)
    if arguments.check and (total["false-E010"] or total["right"] < 0.99 * total["pairs"]):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
