"""Runs one matrix cell inside one torch release's Python: load the built library, run the tests
of every kernel group the build contains, write what happened as JSON.

Usage: python run_cell.py --library LIB.so --target 2.12 --backend cpu --tests DIR [--tests DIR]
                          --harness DIR --result FILE [--load-only]

--load-only: a GPU library where there is no GPU: load it, check that every op its tests call has
a kernel registered for the device, and run nothing ("loaded, not executed").

Exit status: 0 every test passed, 1 a test failed (or an op is not registered), 3 the library did
not load. A crash or hang is seen by the caller (torch-abi-check matrix) as a signal or a timeout of
this process; the result file says "load": "started" when it died while loading (a registration
that aborts in the library's static initialisers), so the caller reports a load failure, not a crash.
"""

import argparse
import glob
import importlib.util
import json
import os
import sys
import time


def version_key(text):
    return tuple(int(part) for part in text.split(".")[:2])


def write_result(path, result):
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as stream:
        json.dump(result, stream, indent=1, sort_keys=True)
    os.replace(temporary, path)


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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--library", required=True)
    parser.add_argument("--target", required=True)
    parser.add_argument("--backend", required=True)
    parser.add_argument("--tests", action="append", default=[])
    parser.add_argument("--harness", required=True)
    parser.add_argument("--result", required=True)
    parser.add_argument("--load-only", action="store_true")
    arguments = parser.parse_args()

    sys.path.insert(0, arguments.harness)
    import torch  # noqa: E402  (R's torch, after the harness path is set)
    import harness  # noqa: E402

    result = {"torch": torch.__version__, "library": arguments.library, "load": "started"}
    write_result(arguments.result, result)
    started = time.monotonic()
    try:
        torch.ops.load_library(arguments.library)
    except OSError as error:
        # torch wraps the loader's message; the cause is what dlopen said ("undefined symbol: ...").
        result.update(load="failed", load_failure="loader", error=str(error.__cause__ or error))
        print(f"load failed: {result['error']}", flush=True)
        write_result(arguments.result, result)
        return 3
    except Exception as error:  # the library loaded, but registering its ops raised
        result.update(load="failed", load_failure="registration", error=f"{type(error).__name__}: {error}")
        print(f"op registration failed: {result['error']}", flush=True)
        write_result(arguments.result, result)
        return 3
    result["load"] = "ok"
    result["load_s"] = round(time.monotonic() - started, 3)
    write_result(arguments.result, result)  # from here a signal is a crash of the cell, not of the load

    import_test_modules(arguments.tests)
    target = version_key(arguments.target)
    groups = {case["group"] for case in harness.CASES if version_key(case["group"]) <= target}
    # Some releases only log a failed registration ("Exception in aoti_torch: ...") and load the
    # library anyway: an op its tests call that is missing now is a registration failure.
    missing = missing_ops(harness.CASES, groups, arguments.backend)
    if missing:
        result.update(load="failed", load_failure="registration",
                      error=f"op registration failed: {', '.join(missing)} not registered after load (see the log)")
        print(result["error"], flush=True)
        write_result(arguments.result, result)
        return 3
    if arguments.load_only:
        result["cases"] = registration_cases(harness.CASES, groups, arguments.backend)
        for case in result["cases"]:
            print(f"{case['outcome']:7} {case['group']:5} {case['op']}: {case['name']} {case['message']}", flush=True)
        write_result(arguments.result, result)
        return 0 if all(case["outcome"] != "failed" for case in result["cases"]) else 1
    device_available = arguments.backend == "cpu" or torch.cuda.is_available()
    cases = harness.run_cases(groups, arguments.backend, device_available)
    cases.sort(key=lambda case: version_key(case["group"]))  # stable: registration order within a group
    for case in cases:
        print(f"{case['outcome']:7} {case['group']:5} {case['op']}: {case['name']} {case['message']}", flush=True)
        if "traceback" in case:
            print(case.pop("traceback"), flush=True)
    result["cases"] = cases
    write_result(arguments.result, result)
    return 0 if all(case["outcome"] != "failed" for case in cases) else 1


if __name__ == "__main__":
    sys.exit(main())
