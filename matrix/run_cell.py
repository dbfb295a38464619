"""Runs matrix cells inside one torch release's Python: load the built library, run the tests of
every kernel group the build contains, write what happened as JSON.

Usage: python run_cell.py --cells CELLS.json --harness DIR [--jobs N] [--summary FILE]
       python run_cell.py --library LIB.so --target 2.12 --backend cpu --tests DIR [--tests DIR]
                          --harness DIR --result FILE [--load-only]

--cells (what torch-abi-check matrix runs, one process per runtime release): torch is imported once,
then every cell runs in a forked child (matrix/forked_cells.py), so a cell costs its own work and not
the import. The cells: [{"dir", "library", "target", "backend", "tests" ([DIR]), "load_only",
"timeout_s"}]; each child works in its "dir" and leaves there result.json (below), log.txt (its
stdout and stderr), ending.json (how the child ended: forked_cells.ending) and, under the shim call
counter, shim_calls.bin (matrix/shim_counts.py). --summary gets {"torch", "import_s", "cells"}.
The single-cell form runs one cell in this process (a fresh interpreter per cell: the old way,
kept for bench/bench_matrix.sh's comparison).

--load-only: a GPU library where there is no GPU: load it, check that every op its tests call has
a kernel registered for the device, and run nothing ("loaded, not executed").

A cell's exit status: 0 every test passed, 1 a test failed (or an op is not registered), 3 the
library did not load. A crash or hang is seen as a signal or a timeout of the cell's process; the
result file says "load": "started" when it died while loading (a registration that aborts in the
library's static initialisers), so the caller reports a load failure, not a crash.
"""

import argparse
import ctypes
import glob
import importlib.util
import json
import os
import sys
import time

from forked_cells import Cell, run_forked
from forked_cells import write_json_atomically as write_result
import shim_counts


def version_key(text):
    return tuple(int(part) for part in text.split(".")[:2])


def import_test_modules(directories):
    for directory in directories:
        for path in sorted(glob.glob(os.path.join(directory, "test_*.py"))):
            name = "abiref_" + os.path.splitext(os.path.basename(path))[0]
            spec = importlib.util.spec_from_file_location(name, path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)


def missing_ops(cases, groups, backend):
    """The ops the backend's tests call that torch does not know after the load."""
    import torch  # noqa: E402  (R's torch)

    missing = set()
    for case in cases:
        if case["group"] in groups and case["backend"] == backend:
            try:
                getattr(getattr(torch.ops, case["namespace"]), case["op"])
            except (AttributeError, RuntimeError):
                missing.add(f"{case['namespace']}::{case['op']}")
    return sorted(missing)


def registration_cases(cases, groups, backend):
    """One case per op the backend's tests call: is a kernel registered for the device? (ROCm torch
    registers HIP kernels under the CUDA key too.)"""
    import torch  # noqa: E402  (R's torch)

    results = []
    for op in sorted({(case["group"], case["namespace"], case["op"]) for case in cases
                      if case["group"] in groups and case["backend"] == backend}, key=lambda entry: entry[2]):
        group, namespace, name = op
        qualified = f"{namespace}::{name}"
        registered = torch._C._dispatch_has_kernel_for_dispatch_key(qualified, "CUDA")
        results.append({"group": group, "op": name, "name": "registered_for_the_device",
                        "outcome": "passed" if registered else "failed",
                        "failure": "" if registered else "registration",
                        "message": "" if registered else f"{qualified} has no CUDA kernel after load"})
    return results


def run_cell(library, target, backend, tests, result_path, load_only=False):
    """One cell in this process (torch and the harness already on the path); returns its exit status."""
    import torch  # noqa: E402  (R's torch)
    import harness  # noqa: E402

    result = {"torch": torch.__version__, "library": library, "target": target, "backend": backend, "load": "started"}
    write_result(result_path, result)
    started = time.monotonic()
    try:
        torch.ops.load_library(library)
    except OSError as error:
        # torch wraps the loader's message; the cause is what dlopen said ("undefined symbol: ...").
        result.update(load="failed", load_failure="loader", error=str(error.__cause__ or error))
        print(f"load failed: {result['error']}", flush=True)
        write_result(result_path, result)
        return 3
    except Exception as error:  # the library loaded, but registering its ops raised
        result.update(load="failed", load_failure="registration", error=f"{type(error).__name__}: {error}")
        print(f"op registration failed: {result['error']}", flush=True)
        write_result(result_path, result)
        return 3
    result["load"] = "ok"
    result["load_s"] = round(time.monotonic() - started, 3)
    write_result(result_path, result)  # from here a signal is a crash of the cell, not of the load

    started = time.monotonic()
    import_test_modules(tests)
    groups = {case["group"] for case in harness.CASES if version_key(case["group"]) <= version_key(target)}
    # Some releases only log a failed registration ("Exception in aoti_torch: ...") and load the
    # library anyway: an op its tests call that is missing now is a registration failure.
    missing = missing_ops(harness.CASES, groups, backend)
    if missing:
        result.update(load="failed", load_failure="registration",
                      error=f"op registration failed: {', '.join(missing)} not registered after load (see the log)")
        print(result["error"], flush=True)
        write_result(result_path, result)
        return 3
    if load_only:
        cases = registration_cases(harness.CASES, groups, backend)
    else:
        device_available = backend == "cpu" or torch.cuda.is_available()
        cases = harness.run_cases(groups, backend, device_available)
        cases.sort(key=lambda case: version_key(case["group"]))  # stable: registration order within a group
    for case in cases:
        print(f"{case['outcome']:7} {case['group']:5} {case['op']}: {case['name']} {case['message']}", flush=True)
        if "traceback" in case:
            print(case.pop("traceback"), flush=True)
    result["cases"] = cases
    result["tests_s"] = round(time.monotonic() - started, 3)
    write_result(result_path, result)
    return 0 if all(case["outcome"] != "failed" for case in cases) else 1


RTLD_NOW, RTLD_NOLOAD = 2, 4


def tear_down(library, code):
    """Ends a forked cell as a process of its own would end: its extension's teardown (static
    destructors: aoti_torch_delete_library_object, counted by the shim counter; a crash there is the
    cell's) runs. Unloading the extension (dlclose until the loader lets it go) runs exactly that,
    in a millisecond; where the loader keeps it (a NODELETE library), the child ends through exit(),
    which runs every loaded library's teardown, torch's too (about a second). Returns the status."""
    libc = ctypes.CDLL(None)
    libc.dlopen.restype = ctypes.c_void_p
    libc.dlclose.argtypes = [ctypes.c_void_p]
    for _ in range(8):  # torch.ops.load_library's handle, and any other
        handle = libc.dlopen(library.encode(), RTLD_NOW | RTLD_NOLOAD)
        if not handle:
            return code
        libc.dlclose(handle)
        libc.dlclose(handle)
    sys.stdout.flush()
    sys.stderr.flush()
    libc.exit(code)
    return code


def serve(cells_file, jobs, summary):
    """Imports torch once, then runs every cell of cells_file in a forked child."""
    with open(cells_file, encoding="utf-8") as stream:
        cells = json.load(stream)
    started = time.monotonic()
    import torch  # noqa: E402  (once: every cell forks from here)
    import harness  # noqa: E402  (its CASES stay empty here: each child imports its own tests)

    harness.warm_up()

    import_s = round(time.monotonic() - started, 3)
    print(f"torch {torch.__version__} imported in {import_s:.2f} s; {len(cells)} cells", flush=True)
    if summary:
        write_result(summary, {"torch": torch.__version__, "import_s": import_s, "cells": len(cells)})

    def body(cell):
        def run():
            os.chdir(cell["dir"])
            shim_counts.configure_child(library=cell["library"])
            code = run_cell(cell["library"], cell["target"], cell["backend"], cell["tests"],
                            os.path.join(cell["dir"], "result.json"), cell.get("load_only", False))
            return tear_down(cell["library"], code)
        return run

    forked = [Cell(body(cell), cell["timeout_s"], log=os.path.join(cell["dir"], "log.txt")) for cell in cells]
    pids = {}
    for index, ended in run_forked(forked, jobs, on_start=pids.__setitem__):
        shim_counts.collect_child(pids[index], os.path.join(cells[index]["dir"], "shim_calls.bin"))
        write_result(os.path.join(cells[index]["dir"], "ending.json"), ended)
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cells", help="JSON list of cells, all for this release: forks one child per cell")
    parser.add_argument("--jobs", type=int, default=1, help="with --cells: children at a time")
    parser.add_argument("--summary", help="with --cells: where to write the import time")
    parser.add_argument("--library")
    parser.add_argument("--target")
    parser.add_argument("--backend")
    parser.add_argument("--tests", action="append", default=[])
    parser.add_argument("--harness", required=True)
    parser.add_argument("--result")
    parser.add_argument("--load-only", action="store_true")
    arguments = parser.parse_args()

    sys.path.insert(0, arguments.harness)
    if arguments.cells:
        return serve(arguments.cells, arguments.jobs, arguments.summary)
    if not (arguments.library and arguments.target and arguments.backend and arguments.result):
        parser.error("--library, --target, --backend and --result are needed without --cells")
    return run_cell(arguments.library, arguments.target, arguments.backend, arguments.tests, arguments.result,
                    arguments.load_only)


if __name__ == "__main__":
    sys.exit(main())
