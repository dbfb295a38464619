"""Runs one matrix cell inside one torch release's Python: load the built library, run the tests
of every kernel group the build contains, write what happened as JSON.

Usage: python run_cell.py --library LIB.so --target 2.12 --backend cpu --tests DIR [--tests DIR]
                          --harness DIR --result FILE

Exit status: 0 every test passed, 1 a test failed, 3 the library did not load. A crash or hang
is seen by the caller (torch-abi-check matrix) as a signal or a timeout of this process.
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--library", required=True)
    parser.add_argument("--target", required=True)
    parser.add_argument("--backend", required=True)
    parser.add_argument("--tests", action="append", default=[])
    parser.add_argument("--harness", required=True)
    parser.add_argument("--result", required=True)
    arguments = parser.parse_args()

    sys.path.insert(0, arguments.harness)
    import torch  # noqa: E402  (R's torch, after the harness path is set)
    import harness  # noqa: E402

    result = {"torch": torch.__version__, "library": arguments.library}
    started = time.monotonic()
    try:
        torch.ops.load_library(arguments.library)
    except OSError as error:
        # torch wraps the loader's message; the cause is what dlopen said ("undefined symbol: ...").
        result.update(load="failed", error=str(error.__cause__ or error))
        print(f"load failed: {result['error']}", flush=True)
        write_result(arguments.result, result)
        return 3
    result["load"] = "ok"
    result["load_s"] = round(time.monotonic() - started, 3)

    import_test_modules(arguments.tests)
    target = version_key(arguments.target)
    groups = {case["group"] for case in harness.CASES if version_key(case["group"]) <= target}
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
