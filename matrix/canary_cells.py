"""Runs the canary cells of one torch release inside its Python: torch is imported once, then each
cell forks a child that imports a published package, loads every native library it ships, lists the
operators it registered and runs its smoke snippet. torch-abi-check canary judges the results; this
script only observes.

Usage: python canary_cells.py --cells FILE.json

As a user's fresh environment sees it: torch-abi-check starts this script through the dynamic
loader with its cache of library paths switched off and LD_LIBRARY_PATH empty, so only torch's own
libraries, the package's and the system's default folders are found (none of this machine's CUDA
toolkits); each cell puts its package's own installed dependencies on the path after the release's
site-packages (a distribution the release has stays the release's, as pip leaves it).

The cells: [{"package_dir", "modules", "dependencies" (a directory or ""), "smoke" (code or ""),
"smoke_needs_gpu", "timeout_s", "result" (a file)}]. Each result: {"torch", "stage" (the first step that failed: import, smoke,
crash, timeout; "" when none), "error" (what it raised, with the loader's own message), "signal",
"libraries" ([{path, loaded, error, by}]), "operators" ({namespace: [name]} registered by the
package), "smoke" (ran, skipped, failed, none), "gpu", "seconds"}. A crash or hang of a cell ends
its child only and is written as its result; exit status 0 whenever every result was written.
"""

import argparse
import ctypes
import importlib
import json
import os
import sys
import time
import traceback

from forked_cells import Cell, ended_early, run_forked
from forked_cells import write_json_atomically as write_result


def describe(error):
    """The message a user would see, with the loader's cause when torch or Python wrapped it."""
    text = f"{type(error).__name__}: {error}"
    cause = error.__cause__ or error.__context__
    if cause is not None and str(cause) and str(cause) not in text:
        text += f" (caused by {type(cause).__name__}: {cause})"
    return text


def operator_names(torch):
    return set(torch._C._dispatch_get_all_op_names())


def registered_by_torch(torch, name):
    """Whether torch's own Python registered the operator (importing a package often imports
    torch.distributed and friends, which register theirs lazily): where the dispatcher says the
    operator was registered lies inside the torch package."""
    torch_dir = os.path.dirname(torch.__file__) + os.sep
    for line in torch._C._dispatch_dump(name).splitlines():
        if "registered at " in line:
            return line.split("registered at ", 1)[1].startswith(torch_dir)
    return False


def mapped_paths():
    paths = set()
    with open("/proc/self/maps", encoding="utf-8") as maps:
        for line in maps:
            fields = line.split(maxsplit=5)
            if len(fields) == 6 and fields[5].startswith("/"):
                paths.add(os.path.realpath(fields[5].strip()))
    return paths


def native_libraries(package_dir):
    """Every shared object the package ships, vendored copies (<name>.libs/) left to the loader."""
    found = []
    for root, directories, files in os.walk(package_dir):
        directories[:] = sorted(d for d in directories if not d.endswith((".libs", ".dist-info", ".data")))
        for name in sorted(files):
            if name.endswith(".so") or ".so." in name:
                found.append(os.path.join(root, name))
    return found


def load_libraries(package_dir):
    """Loads what the import did not: an extension's op library is often loaded lazily, and a
    missing symbol in it shows only then."""
    already = mapped_paths()
    libraries = []
    for path in native_libraries(package_dir):
        if os.path.realpath(path) in already:
            libraries.append({"path": path, "loaded": True, "error": "", "by": "import"})
            continue
        try:
            ctypes.CDLL(path)
            libraries.append({"path": path, "loaded": True, "error": "", "by": "dlopen"})
        except OSError as error:
            libraries.append({"path": path, "loaded": False, "error": str(error), "by": "dlopen"})
    return libraries


def observe(cell, torch, before):
    """One cell, in a forked child: import, load, list operators, smoke."""
    sys.path.insert(0, cell["package_dir"])
    if cell.get("dependencies"):
        sys.path.append(cell["dependencies"])
    result = {"torch": torch.__version__, "stage": "", "error": "", "libraries": [], "operators": {},
              "smoke": "none", "gpu": bool(torch.cuda.is_available())}
    started = time.monotonic()
    try:
        for module in cell["modules"]:
            importlib.import_module(module)
    except BaseException as error:  # noqa: BLE001  (a package may raise anything at import, SystemExit too)
        result.update(stage="import", error=describe(error))
    # Also after a failed import: the library behind it says why (an undefined symbol under an
    # "operator does not exist" that the package's Python raised).
    result["libraries"] = load_libraries(cell["package_dir"])
    for name in sorted(operator_names(torch) - before):
        if registered_by_torch(torch, name):
            continue
        namespace, _, operator = name.partition("::")
        result["operators"].setdefault(namespace, []).append(operator)
    if not result["stage"] and cell.get("smoke"):
        if cell.get("smoke_needs_gpu") and not result["gpu"]:
            result["smoke"] = "skipped"
        else:
            try:
                exec(compile(cell["smoke"], "<smoke>", "exec"), {"torch": torch, "__name__": "canary_smoke"})  # noqa: S102
                result["smoke"] = "ran"
            except BaseException as error:  # noqa: BLE001
                result.update(smoke="failed", stage="smoke", error=describe(error),
                              traceback=traceback.format_exc(limit=4))
    result["seconds"] = round(time.monotonic() - started, 3)
    return result


def run_isolated(cells, torch, before):
    """Forks a child per cell (forked_cells.py) so that a crash or hang ends that cell only; the
    child inherits the imported torch, which is what makes a cell cost its package's import and not
    torch's."""
    def body(cell):
        def run():
            write_result(cell["result"], observe(cell, torch, before))
            return 0
        return run

    for index, ended in run_forked([Cell(body(cell), cell["timeout_s"]) for cell in cells]):
        early = ended_early(cells[index]["timeout_s"], cells[index]["result"], ended)
        if early is not None:
            write_result(cells[index]["result"], early)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cells", required=True, help="JSON list of cells, all for this release")
    arguments = parser.parse_args()
    with open(arguments.cells, encoding="utf-8") as stream:
        cells = json.load(stream)

    import torch  # noqa: E402  (once: every cell forks from here)

    before = operator_names(torch)
    for cell in cells:
        if os.path.exists(cell["result"]):
            os.remove(cell["result"])
    run_isolated(cells, torch, before)
    return 0


if __name__ == "__main__":
    sys.exit(main())
