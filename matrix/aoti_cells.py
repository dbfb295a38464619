"""Loads AOTInductor packages under one torch release, inside its Python (the standard library and
torch only); matrix/aoti_compile.py makes the reference packages.

Usage: python aoti_cells.py --cells FILE.json [--jobs N]

Torch and the torch._inductor package are imported once (what a fresh process has imported when its
first aoti_load_package call starts, and no more), then each cell loads its package in a forked child
with torch._inductor.aoti_load_package, runs it and compares its outputs with eager under this
release. A cell: {"package", "reference" (a .reference.pt from aoti_compile.py, or "" for a package
without one: loaded, not run), "model", "models_dir", "extension" (the reference extension's library
to load first, for a model that calls its operators; optional), "result", "timeout_s"}. Each result: {"torch",
"stage" (load, run, compare, crash, timeout; "" when it loaded and matched), "error", "error_type",
"warnings", "retry" (when the load raised AttributeError for a submodule of torch._inductor that was
never imported: the same load after importing it, {"import", "stage", "error", "matches"}),
"outputs", "mismatches", "seconds"}. This script observes; torch-abi-check judges.
"""

import argparse
import json
import os
import re
import sys
import time
import traceback
import warnings

from forked_cells import Cell, ended_early, run_forked
from forked_cells import write_json_atomically as write_result

# "module 'torch._inductor' has no attribute 'codecache'": a submodule used before anything imported it.
MISSING_SUBMODULE = re.compile(r"module '(torch\._inductor(?:\.\w+)*)' has no attribute '(\w+)'")


def describe(error):
    text = f"{type(error).__name__}: {error}"
    cause = error.__cause__ or error.__context__
    if cause is not None and str(cause) and str(cause) not in text:
        text += f" (caused by {type(cause).__name__}: {cause})"
    return text.splitlines()[0] if text else text


def flatten(value):
    import torch  # noqa: E402  (R's torch)

    return [leaf for leaf in torch.utils._pytree.tree_leaves(value) if isinstance(leaf, torch.Tensor)]


def compare(actual, expected, tolerance):
    """The mismatches between the package's outputs and eager's, one line each; `tolerance(dtype)`
    gives (rtol, atol)."""
    import torch  # noqa: E402

    mismatches = []
    actual, expected = flatten(actual), flatten(expected)
    if len(actual) != len(expected):
        return [f"{len(actual)} outputs, eager gives {len(expected)}"], len(actual)
    for index, (got, want) in enumerate(zip(actual, expected)):
        rtol, atol = tolerance(want.dtype)
        if got.dtype != want.dtype or got.shape != want.shape:
            mismatches.append(f"output {index}: {got.dtype} {tuple(got.shape)}, eager {want.dtype} {tuple(want.shape)}")
        elif not torch.allclose(got.double(), want.double(), rtol=rtol, atol=atol, equal_nan=True):
            difference = (got.double() - want.double()).abs().max().item()
            mismatches.append(f"output {index}: differs from eager by up to {difference:.3g}")
    return mismatches, len(actual)


def run_package(cell, result):
    """Loads and runs the cell's package; returns (loaded runner or None)."""
    import torch  # noqa: E402  (R's torch)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            runner = torch._inductor.aoti_load_package(cell["package"])
        except Exception as error:  # noqa: BLE001
            result.update(stage="load", error=describe(error), error_type=type(error).__name__,
                          traceback=traceback.format_exc(limit=-3))
            runner = None
    result["warnings"] = sorted({str(warning.message).splitlines()[0][:300] for warning in caught})
    return runner


def check_outputs(cell, runner, result):
    """Runs the loaded package on the reference inputs and compares with eager under this torch."""
    import torch  # noqa: E402

    if not cell.get("reference"):
        return
    reference = torch.load(cell["reference"], weights_only=False)
    sys.path.insert(0, cell["models_dir"])
    import reference_models  # noqa: E402

    inputs = reference_models.run_inputs(cell["model"], reference["inputs"])
    try:
        with torch.no_grad():
            actual = runner(*inputs)
    except Exception as error:  # noqa: BLE001
        result.update(stage="run", error=describe(error), error_type=type(error).__name__)
        return
    model = reference_models.make_model(cell["model"])
    model.load_state_dict(reference["state"])
    with torch.no_grad():
        expected = model(*inputs)
    mismatches, count = compare(actual, expected, reference_models.tolerance)
    result["outputs"] = count
    result["mismatches"] = mismatches
    if mismatches:
        result.update(stage="compare", error=mismatches[0])


def observe(cell):
    import torch  # noqa: E402

    result = {"torch": torch.__version__, "stage": "", "error": "", "error_type": "", "outputs": 0,
              "mismatches": [], "warnings": []}
    started = time.monotonic()
    if cell.get("extension"):
        # The package calls operators of the reference extension (built at the package's release): they
        # must be in the dispatcher before the loader's proxy executor looks them up.
        try:
            sys.path.insert(0, cell["models_dir"])
            import reference_models  # noqa: E402

            reference_models.load_extension(cell["extension"])
        except Exception as error:  # noqa: BLE001
            result.update(stage="load", error=f"the reference extension did not load: {describe(error)}",
                          error_type=type(error).__name__, seconds=round(time.monotonic() - started, 3))
            return result
    runner = run_package(cell, result)
    missing = MISSING_SUBMODULE.search(result["error"]) if result["stage"] == "load" else None
    if missing:
        # What a user can try: import the submodule the loader used without importing, then load again.
        module = f"{missing.group(1)}.{missing.group(2)}"
        retry = {"import": module, "stage": "", "error": "", "outputs": 0, "mismatches": [], "warnings": []}
        try:
            __import__(module)
            runner = run_package(cell, retry)
        except Exception as error:  # noqa: BLE001
            retry.update(stage="load", error=describe(error))
            runner = None
        if runner is not None:
            check_outputs(cell, runner, retry)
        retry["matches"] = retry["stage"] == "" and bool(cell.get("reference"))
        result["retry"] = retry
    elif runner is not None:
        check_outputs(cell, runner, result)
    result["seconds"] = round(time.monotonic() - started, 3)
    return result


def load_all(cells_file, jobs):
    with open(cells_file, encoding="utf-8") as stream:
        cells = json.load(stream)
    try:
        import setuptools  # noqa: F401,E402
    except ImportError:
        # Torch 2.9 and 2.10 load through cpp_builder, which imports setuptools, and require it only from
        # Python 3.12; a user's venv of an older Python has it (venv installs it there). The host's
        # setuptools alone, last on the path (torch-abi-check makes the folder).
        if os.environ.get("TORCH_ABI_CHECK_SETUPTOOLS_DIR"):
            sys.path.append(os.environ["TORCH_ABI_CHECK_SETUPTOOLS_DIR"])
    import torch  # noqa: E402,F401
    # What torch._inductor.aoti_load_package imports first in a fresh process (the package that defines
    # it), imported once here so that a cell costs its load and not that import (seconds). Nothing of it
    # is imported beyond: a loader that uses a submodule it never imports fails in each cell as it
    # would in a user's fresh process (torch 2.10.0 and torch._inductor.codecache).
    import torch._inductor  # noqa: E402,F401

    for cell in cells:
        if os.path.exists(cell["result"]):
            os.remove(cell["result"])

    def body(cell):
        def run():
            write_result(cell["result"], observe(cell))
            return 0
        return run

    forked = [Cell(body(cell), cell["timeout_s"], log=cell["result"] + ".log") for cell in cells]
    for index, ended in run_forked(forked, jobs):
        early = ended_early(cells[index]["timeout_s"], cells[index]["result"], ended)
        if early is not None:
            write_result(cells[index]["result"], early)
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cells", required=True, help="JSON list of load cells, all for this release")
    parser.add_argument("--jobs", type=int, default=1)
    arguments = parser.parse_args()
    return load_all(arguments.cells, arguments.jobs)


if __name__ == "__main__":
    sys.exit(main())
