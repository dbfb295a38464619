"""Compiles the AOTInductor reference models with one torch release, inside its Python (the standard
library and torch only; setuptools too, which Inductor's CPU compile imports).

Usage: python aoti_compile.py --out DIR --models-dir kernels/aoti [--extension LIB] [--models a,b]

Torch and torch._inductor are imported once, then each reference model
(kernels/aoti/reference_models.py) is exported with torch.export and packaged by
torch._inductor.aoti_compile_and_package (CPU) in a forked child: DIR/<model>.pt2, its weights and
inputs in DIR/<model>.reference.pt (torch.save: eager under any other release runs on exactly what
was compiled) and DIR/<model>.compile.json ({"torch", "ok", "error", "seconds", "cpu_seconds" (the child's and its
compilers'), "export_seconds", "extension": whether it calls the reference extension's operators}; a model the release cannot compile is a result, not the
end). LIB is the reference extension built at this release (kernels/cpu/v2_9, the abiref ops), loaded
once before the children fork: a model that calls its operators (reference_models.EXTENSION_MODELS)
fails without it. For the C++ loader's cells, DIR/<model>.cpp_io.pt holds the inputs the package is
run on, eager's outputs for them (both flattened to lists of tensors) and each output's (rtol, atol):
torch.save of a tuple, which torch::jit::pickle_load reads (matrix/aoti_cpp_runner.cpp). DIR/manifest.json lists the models once every child has
ended. matrix/aoti_cells.py loads the packages.
"""

import argparse
import os
import resource
import sys
import time
import traceback

from forked_cells import Cell, run_forked
from forked_cells import write_json_atomically as write_result


def describe(error):
    text = f"{type(error).__name__}: {error}"
    return text.splitlines()[0] if text else text


def save_cpp_io(name, model, inputs, out_dir):
    """What the C++ loader's cells need, in a form C++ reads (no pickled Python objects): the inputs
    the package is run on and eager's outputs for them, each flattened to a list of tensors."""
    import torch  # noqa: E402
    import reference_models  # noqa: E402

    run_inputs = reference_models.run_inputs(name, inputs)
    with torch.no_grad():
        outputs = model(*run_inputs)
    leaves = [leaf for leaf in torch.utils._pytree.tree_leaves(outputs) if isinstance(leaf, torch.Tensor)]
    tolerances = torch.tensor([reference_models.tolerance(leaf.dtype) for leaf in leaves], dtype=torch.float64)
    torch.save((list(run_inputs), [leaf.contiguous() for leaf in leaves], tolerances.reshape(-1, 2)),
               os.path.join(out_dir, f"{name}.cpp_io.pt"))


def compile_model(name, out_dir, extension_problem):
    import torch  # noqa: E402  (B's torch)
    import reference_models  # noqa: E402

    uses_extension = name in reference_models.EXTENSION_MODELS
    status = {"torch": torch.__version__, "ok": False, "error": "", "extension": uses_extension}
    started = time.monotonic()
    try:
        if uses_extension and extension_problem:
            raise RuntimeError(f"it calls the reference extension's operators: {extension_problem}")
        model = reference_models.make_model(name)
        inputs = reference_models.example_inputs(name)
        torch.save({"state": model.state_dict(), "inputs": inputs}, os.path.join(out_dir, f"{name}.reference.pt"))
        save_cpp_io(name, model, inputs, out_dir)
        prepared = time.monotonic()
        exported = torch.export.export(model, inputs, dynamic_shapes=reference_models.dynamic_shapes(name, inputs))
        status["export_seconds"] = round(time.monotonic() - prepared, 3)
        torch._inductor.aoti_compile_and_package(exported, package_path=os.path.join(out_dir, f"{name}.pt2"))
        status["ok"] = True
    except Exception as error:  # noqa: BLE001  (a model B cannot compile is a result, not the end)
        status["error"] = describe(error)
        traceback.print_exc()
    status["seconds"] = round(time.monotonic() - started, 3)
    # CPU time, the honest figure on a shared machine: this forked child's own (a fork starts its count at
    # zero) and that of the compilers it ran and waited for.
    status["cpu_seconds"] = round(sum(usage.ru_utime + usage.ru_stime for usage in (
        resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN))), 3)
    write_result(os.path.join(out_dir, f"{name}.compile.json"), status)
    return 0 if status["ok"] else 1


def compile_all(out_dir, models_dir, only, extension):
    sys.path.insert(0, models_dir)
    os.makedirs(out_dir, exist_ok=True)
    try:
        import setuptools  # noqa: F401,E402  (Inductor's CPU compile imports it through torch.utils.cpp_extension)
    except ImportError:
        # Torch 2.9 and 2.10 require it only from Python 3.12: a folder of the host's setuptools alone,
        # last on the path (torch-abi-check makes it).
        if os.environ.get("TORCH_ABI_CHECK_SETUPTOOLS_DIR"):
            sys.path.append(os.environ["TORCH_ABI_CHECK_SETUPTOOLS_DIR"])
    import torch  # noqa: E402,F401
    import torch._inductor  # noqa: E402,F401  (once, in the parent: each child compiles only)
    import reference_models  # noqa: E402

    # The vector ISA Inductor compiles for, probed once here: its probe (per ISA a compile and a fresh
    # `python -c "import torch ..."`, 8 to 15 s) is kept in memory only, so each forked child probed
    # again. The children inherit the answer; the same probe gives the same ISA, so the packages are
    # the same (bench/HISTORY.md, issue 27: "The compile's ISA probe once a release").
    from torch._inductor.cpu_vec_isa import pick_vec_isa  # noqa: E402

    pick_vec_isa()

    extension_problem = "the extension was not built at this release"
    if extension:
        try:
            reference_models.load_extension(extension)  # once, in the parent: every child has the ops
            extension_problem = ""
        except Exception as error:  # noqa: BLE001  (the other models compile without it)
            extension_problem = f"the extension did not load: {describe(error)}"
    names = [name for name in sorted(reference_models.MODELS) if not only or name in only]

    def body(name):
        return lambda: compile_model(name, out_dir, extension_problem)

    cells = [Cell(body(name), 900, log=os.path.join(out_dir, f"{name}.compile.log")) for name in names]
    for index, ended in run_forked(cells):
        status_file = os.path.join(out_dir, f"{names[index]}.compile.json")
        if not os.path.exists(status_file):
            write_result(status_file, {"ok": False, "error": f"the compile ended early: {ended}",
                                       "seconds": ended["seconds"]})
    write_result(os.path.join(out_dir, "manifest.json"), {"torch": torch.__version__, "models": names})
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True, help="the directory of the packages")
    parser.add_argument("--models-dir", required=True, help="the directory of reference_models.py")
    parser.add_argument("--extension", default="", help="the reference extension's library, built at this release")
    parser.add_argument("--models", default="", help="only these models (comma-separated)")
    arguments = parser.parse_args()
    only = {name for name in arguments.models.split(",") if name}
    return compile_all(arguments.out, arguments.models_dir, only, arguments.extension)


if __name__ == "__main__":
    sys.exit(main())
