#!/usr/bin/env python3
"""Planted-fault benchmark of the header checks (diff and `lint headers`).

Copies the newest stored release's headers, plants one fault at a time into the copy, and runs on
each planted tree what a release manager runs: a baseline of the tree (`torch-abi-check baseline`,
headers only), `diff` of the committed baselines of the release before and of the same release
against it, and `lint headers` on the tree (reusing the inventory the baseline collected). A fault
is caught by a tool when that tool reports, for the planted symbol, a finding the unplanted tree
does not give; "wrong" is a tool that stopped (exit 2) instead of judging. Controls are edits that
change nothing in the ABI (a parameter renamed, int64_t spelled long, a comment): any new finding
on them is a false positive.

usage: bench/bench_planted_faults.py [--build BUILD_DIR] [--kinds K1,K2] [--keep DIR]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHIM = "torch/csrc/stable/c/shim.h"
OPS = "torch/csrc/stable/ops.h"
COMPLEX = "torch/headeronly/util/complex.h"
BFLOAT16 = "torch/headeronly/util/BFloat16.h"
LAYOUT = "torch/headeronly/core/Layout.h"
STABLE_VERSION = "torch/csrc/stable/version.h"
MACROS = "torch/csrc/inductor/aoti_torch/c/macros.h"


def replace_once(text, old, new):
    if text.count(old) < 1:
        raise ValueError(f"planting site not found: {old[:60]!r}")
    return text.replace(old, new, 1)


def declaration_of(text, name):
    """The whole declaration `AOTI_TORCH_EXPORT ... name(...);` (comments before it left alone)."""
    match = re.search(r"AOTI_TORCH_EXPORT AOTITorchError\s*" + re.escape(name) + r"\([^;]*\);[^\n]*\n", text)
    if not match:
        raise ValueError(f"declaration of {name} not found")
    return match.group(0)


def move_out_of_guards(text, name):
    declaration = declaration_of(text, name)
    text = text.replace(declaration, "", 1)
    return replace_once(text, '#ifdef __cplusplus\n} // extern "C"', declaration + '#ifdef __cplusplus\n} // extern "C"')


def remove_declaration(text, name):
    return text.replace(declaration_of(text, name), "", 1)


def rewrap(text, name, condition):
    declaration = declaration_of(text, name)
    text = text.replace(declaration, "", 1)
    return replace_once(text, '#ifdef __cplusplus\n} // extern "C"',
                        f"#if {condition}\n{declaration}#endif\n" + '#ifdef __cplusplus\n} // extern "C"')


def append_to_ops(text, code):
    return replace_once(text, "HIDDEN_NAMESPACE_END(torch, stable)", code + "\nHIDDEN_NAMESPACE_END(torch, stable)")


# kind -> list of (symbol the finding must name, file, edit). Faults first, controls after.
FAULTS = {
    "guard-removed": [
        ("torch_dtype_to_pyobject", SHIM, lambda t: move_out_of_guards(t, "torch_dtype_to_pyobject")),
    ],
    "guard-lowered": [
        ("torch_is_tensor_pyobject", SHIM,
         lambda t: replace_once(t, "#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_15_0",
                                "#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_14_0")),
    ],
    "guard-raised": [
        ("torch_has_storage", SHIM,
         lambda t: replace_once(t, "#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_14_0",
                                "#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_15_0")),
    ],
    "signature-changed": [
        ("torch_call_dispatcher", SHIM,
         lambda t: replace_once(t, "StableIValue* stack,\n    uint64_t extension_build_version);",
                                "StableIValue* stack,\n    uint32_t extension_build_version);")),
    ],
    "parameter-added": [
        ("torch_has_storage", SHIM,
         lambda t: replace_once(t, "torch_has_storage(AtenTensorHandle tensor, bool* ret_has_storage)",
                                "torch_has_storage(AtenTensorHandle tensor, bool* ret_has_storage, int flags)")),
    ],
    "function-removed": [
        ("torch_call_dispatcher", SHIM, lambda t: remove_declaration(t, "torch_call_dispatcher")),
    ],
    "newest-function-removed": [
        ("torch_device_to_pyobject", SHIM, lambda t: remove_declaration(t, "torch_device_to_pyobject")),
    ],
    "struct-member-inserted": [
        ("c10::BFloat16", BFLOAT16, lambda t: replace_once(t, "  uint16_t x;", "  uint16_t pad;\n  uint16_t x;")),
    ],
    "enum-value-changed": [
        ("c10::Layout", LAYOUT, lambda t: replace_once(t, "enum class Layout : int8_t {\n  Strided,",
                                                      "enum class Layout : int8_t {\n  Planted,\n  Strided,")),
    ],
    "macro-value-changed": [
        ("TORCH_VERSION_2_15_0", STABLE_VERSION,
         lambda t: replace_once(t, "((0ULL + 15) << 48))", "((0ULL + 14) << 48))")),
    ],
    "typedef-changed": [
        ("AtenTensorHandle", MACROS,
         lambda t: replace_once(t, "using AtenTensorHandle = AtenTensorOpaque*;", "using AtenTensorHandle = void*;")),
    ],
    "combined-guard-lowered": [
        ("torch_device_from_pyobject", SHIM,
         lambda t: rewrap(t, "torch_device_from_pyobject",
                          "TORCH_FEATURE_VERSION >= TORCH_VERSION_2_12_0 && defined(USE_CUDA)")),
    ],
    "combined-guard-unknown-macro": [
        ("torch_device_from_pyobject", SHIM,
         lambda t: rewrap(t, "torch_device_from_pyobject",
                          "TORCH_FEATURE_VERSION >= TORCH_VERSION_2_15_0 && defined(TORCH_PLANTED_FEATURE)")),
    ],
    "backend-guarded-removed": [
        ("torch_mps_set_arg_bytes", SHIM,
         lambda t: remove_declaration(t, "torch_mps_set_arg_bytes")),
    ],
    "wrapper-calls-newer-shim": [
        ("torch_is_tensor_pyobject", OPS,
         lambda t: append_to_ops(t, "#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0\n"
                                    "inline bool planted_is_tensor(void* obj) {\n  bool result = false;\n"
                                    "  torch_is_tensor_pyobject(obj, &result);\n  return result;\n}\n#endif\n")),
    ],
    "template-calls-newer-shim": [
        ("torch_is_tensor_pyobject", OPS,
         lambda t: append_to_ops(t, "#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0\n"
                                    "template <typename T>\ninline bool planted_is_tensor(T* obj) {\n"
                                    "  bool result = false;\n  torch_is_tensor_pyobject(obj, &result);\n"
                                    "  return result;\n}\n#endif\n")),
    ],
    "class-template-member-inserted": [
        ("c10::complex", COMPLEX, lambda t: replace_once(t, "  T real_ = T(0);", "  T planted_ = T(0);\n  T real_ = T(0);")),
    ],
}

# What runs first: the blind spots issue 15 measured, and the controls among them.
ORDER = ["combined-guard-lowered", "combined-guard-unknown-macro", "template-calls-newer-shim",
         "class-template-member-inserted", "parameter-renamed", "int64_t-spelled-long", "backend-guarded-removed",
         "newest-function-removed", "signature-changed", "function-removed", "struct-member-inserted",
         "enum-value-changed", "comment-and-blank-lines"]

CONTROLS = {
    "parameter-renamed": (SHIM, lambda t: replace_once(t, "int32_t* ret_dtype", "int32_t* out_dtype")),
    "int64_t-spelled-long": (SHIM, lambda t: replace_once(t, "typedef void (*ParallelFunc)(int64_t begin",
                                                            "typedef void (*ParallelFunc)(long begin")),
    "comment-and-blank-lines": (SHIM, lambda t: replace_once(t, "#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_15_0",
                                                           "// planted comment\n\n\n#if TORCH_FEATURE_VERSION >= "
                                                           "TORCH_VERSION_2_15_0")),
}


def run(argv, log):
    started = time.monotonic()
    proc = subprocess.run(argv, capture_output=True, text=True)
    log.append(f"$ {' '.join(map(str, argv))}\n-> {proc.returncode} in {time.monotonic() - started:.0f} s\n"
               + (proc.stdout + proc.stderr)[-1500:])
    return proc


def normal(message):
    return re.sub(r":\d+", ":N", message)


def findings(cli, tree, work, releases, log):
    """Every finding of the header checks on `tree`: {(tool, kind, text)}, and the tools that failed."""
    found, failed = set(), []
    baseline = work / "baseline"
    shutil.rmtree(baseline, ignore_errors=True)
    built = run([cli, "baseline", "--torch", tree, "--out", baseline, "--jobs", "2"], log)
    if built.returncode == 2 or not (baseline / "inventory.json").exists():
        failed.append("baseline")
        last = (built.stdout + built.stderr).strip().splitlines()
        found.add(("baseline", "exit-2", last[-1] if last else ""))
    else:
        for old in releases:
            report = work / "diff.json"
            proc = run([cli, "diff", old, baseline, "--json", report], log)
            if proc.returncode == 2:
                failed.append(f"diff {old}")
                continue
            for change in json.loads(report.read_text())["diffs"][0]["changes"]:
                if change["verdict"] != "compatible":
                    found.add(("diff", change["kind"], change["name"] + " " + normal(change["detail"])))
    report = work / "lint.json"
    lint = [cli, "lint", "headers", "--torch", tree, "--json", report]
    if (baseline / "inventory.json").exists():
        lint += ["--inventory", baseline / "inventory.json"]
    proc = run(lint, log)
    if proc.returncode == 2:
        failed.append("lint")
    else:
        for diagnostic in json.loads(report.read_text())["lint"]["diagnostics"]:
            found.add(("lint", diagnostic["rule"], normal(diagnostic["message"])))
    return found, failed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=str(ROOT / "build"))
    parser.add_argument("--kinds", default="", help="comma-separated kinds and controls to run (default: all)")
    parser.add_argument("--keep", default="", help="keep the work directory and the commands' logs here")
    args = parser.parse_args()
    cli = str(Path(args.build) / "checker" / "torch-abi-check")
    store = json.loads(subprocess.run([cli, "store", "list", "--json", "-"], capture_output=True, text=True,
                                      check=True).stdout)
    releases = sorted(store["releases"], key=lambda r: [int(p) for p in r["version"].split(".")[:2]])
    newest = releases[-1]
    minor = ".".join(newest["version"].split(".")[:2])
    previous = ".".join(releases[-2]["version"].split(".")[:2])
    wanted = set(filter(None, args.kinds.split(",")))

    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="planted-faults-"))
    work.mkdir(parents=True, exist_ok=True)
    pristine = work / "pristine"
    if not pristine.exists():
        shutil.copytree(newest["include_dir"], pristine, symlinks=True)
    tree = work / "tree"
    log = []

    def planted(path, edit):
        shutil.rmtree(tree, ignore_errors=True)
        shutil.copytree(pristine, tree, symlinks=True)
        target = tree / path
        target.write_text(edit(target.read_text()))
        return findings(cli, tree, work, [previous, minor], log)

    started = time.monotonic()
    print(f"planted faults into a copy of torch {newest['version']}'s headers; diff against {previous} and {minor}")
    control, control_failed = planted(SHIM, lambda t: t)
    if control_failed:
        print(f"the unplanted tree fails in {control_failed}: no figure")
        return 2
    rows, totals = [], {"caught": 0, "missed": 0, "wrong": 0, "diff": 0, "lint": 0, "both": 0}
    false_positives, controls_run = 0, 0
    order = [k for k in ORDER if k in FAULTS or k in CONTROLS]
    order += [k for k in list(FAULTS) + list(CONTROLS) if k not in order]
    try:
        for kind in order:
            if wanted and kind not in wanted:
                continue
            if kind in CONTROLS:
                path, edit = CONTROLS[kind]
                found, failed = planted(path, edit)
                extra = found - control
                false_positives += len(extra) + len(failed)
                controls_run += 1
                print(f"  control {kind:24} {len(extra)} new findings"
                      + "".join(f"\n      {tool} {rule}: {text[:140]}" for tool, rule, text in sorted(extra))
                      + (f"  (exit 2 in {', '.join(failed)})" if failed else ""), flush=True)
                continue
            tally = {"caught": 0, "missed": 0, "wrong": 0, "diff": 0, "lint": 0, "both": 0}
            for symbol, path, edit in FAULTS[kind]:
                found, failed = planted(path, edit)
                new = {f for f in found - control if symbol in f[2]}
                by_diff = any(f[0] == "diff" for f in new)
                by_lint = any(f[0] == "lint" for f in new)
                outcome = "wrong" if failed and not new else "caught" if by_diff or by_lint else "missed"
                tally[outcome] += 1
                tally["diff"] += by_diff
                tally["lint"] += by_lint
                tally["both"] += by_diff and by_lint
                shown = sorted({f"{tool} {rule}" for tool, rule, _ in new})
                print(f"  {kind:32} {symbol:28} {outcome:7} {', '.join(shown) or '-'}"
                      + (f"  (exit 2 in {', '.join(failed)})" if failed else ""), flush=True)
            rows.append((kind, len(FAULTS[kind]), tally))
            for key in totals:
                totals[key] += tally[key]
    except KeyboardInterrupt:
        print("  (interrupted: the figures below cover the kinds run so far)")

    print(f"\n{'kind':32} {'planted':>7} {'caught':>6} {'missed':>6} {'wrong':>5} {'diff':>4} {'lint':>4} {'both':>4}")
    for kind, count, tally in rows:
        print(f"{kind:32} {count:7} {tally['caught']:6} {tally['missed']:6} {tally['wrong']:5} "
              f"{tally['diff']:4} {tally['lint']:4} {tally['both']:4}")
    planted_count = sum(count for _, count, _ in rows)
    if planted_count:
        share = lambda n: f"{100.0 * n / planted_count:.0f}%"
        print(f"\ncaught {totals['caught']}/{planted_count} ({share(totals['caught'])}): by diff "
              f"{share(totals['diff'])}, by the lint {share(totals['lint'])}, by both {share(totals['both'])}; "
              f"missed {totals['missed']}, wrong {totals['wrong']}")
    print(f"false positives on the {controls_run} controls: {false_positives}")
    print(f"took {time.monotonic() - started:.0f} s")
    if args.keep:
        (work / "commands.log").write_text("\n".join(log))
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
