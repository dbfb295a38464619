"""Runs the canary cells of one torch release inside its Python: torch is imported once (once per
numpy the cells' dependencies bring, that numpy imported first), then each cell forks a child that
imports a published package, loads every native library it ships, lists the operators it
registered and runs its smoke snippet. torch-abi-check canary judges the results; this
script only observes.

Usage: python canary_cells.py --cells FILE.json

As a user's fresh environment sees it: torch-abi-check starts this script through the dynamic
loader with its cache of library paths switched off and LD_LIBRARY_PATH empty, so only torch's own
libraries, the package's and the system's default folders are found (none of this machine's CUDA
toolkits); each cell puts its package's own installed dependencies on the path after the release's
site-packages (a distribution the release has stays the release's, as pip leaves it).

The cells: [{"package_dir", "modules", "dependencies" (a directory or ""), "smoke" (code or ""),
"smoke_needs_gpu", "timeout_s", "skip_folders" (folders of the package whose libraries are not loaded: its
copies for other torch releases), "result" (a file)}]. Each result: {"torch", "stage" (the first step that failed: import, smoke,
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
from program_loader import program_loader


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


def native_libraries(package_dir, skip_folders=()):
    """Every shared object the package ships, vendored copies (<name>.libs/) left to the loader, and
    the folders the cell is told to skip (copies of its libraries for other torch releases)."""
    found = []
    skipped = set(skip_folders)
    for root, directories, files in os.walk(package_dir):
        directories[:] = sorted(d for d in directories if not d.endswith((".libs", ".dist-info", ".data"))
                                and os.path.join(root, d) not in skipped)
        for name in sorted(files):
            if name.endswith(".so") or ".so." in name:
                found.append(os.path.join(root, name))
    return found


def load_libraries(package_dir, skip_folders=()):
    """Loads what the import did not: an extension's op library is often loaded lazily, and a
    missing symbol in it shows only then."""
    already = mapped_paths()
    libraries = []
    for path in native_libraries(package_dir, skip_folders):
        if os.path.realpath(path) in already:
            libraries.append({"path": path, "loaded": True, "error": "", "by": "import"})
            continue
        try:
            ctypes.CDLL(path)
            libraries.append({"path": path, "loaded": True, "error": "", "by": "dlopen"})
        except OSError as error:
            libraries.append({"path": path, "loaded": False, "error": str(error), "by": "dlopen"})
    return libraries


def merge_portion(package_dir, module):
    """A wheel that ships a portion of another distribution's package (featomic-torch's
    featomic/torch/ inside featomic's `featomic`, a dependency): pip installs both into one
    site-packages folder, so the owner's package holds the portion. Here the package and its
    dependencies are two folders, so the owner's package is imported and the portion's folder added
    to its __path__, as one folder would have it."""
    top = module.split(".")[0]
    portion = os.path.join(package_dir, top)
    if "." not in module or not os.path.isdir(portion) or os.path.exists(os.path.join(portion, "__init__.py")):
        return
    owner = importlib.import_module(top)
    if portion not in list(getattr(owner, "__path__", [])):
        owner.__path__.append(portion)


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
            merge_portion(cell["package_dir"], module)
            importlib.import_module(module)
    except BaseException as error:  # noqa: BLE001  (a package may raise anything at import, SystemExit too)
        result.update(stage="import", error=describe(error))
    # Also after a failed import: the library behind it says why (an undefined symbol under an
    # "operator does not exist" that the package's Python raised).
    result["libraries"] = load_libraries(cell["package_dir"], cell.get("skip_folders", ()))
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


def run_isolated(cells, torch, before, from_machine):
    """Forks a child per cell (forked_cells.py) so that a crash or hang ends that cell only; the
    child inherits the imported torch, which is what makes a cell cost its package's import and not
    torch's."""
    def body(cell):
        def run():
            result = observe(cell, torch, before)
            result["torch_lacks"] = from_machine
            write_result(cell["result"], result)
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
    for cell in cells:
        if os.path.exists(cell["result"]):
            os.remove(cell["result"])
    from_machine = libraries_torch_lacks()
    groups, numpy_dirs = {}, {}
    for cell in cells:
        version, directory = numpy_of(cell.get("dependencies", ""))
        groups.setdefault(version, []).append(cell)
        numpy_dirs.setdefault(version, directory)
    if len(groups) == 1:
        version, group = next(iter(groups.items()))
        run_group(numpy_dirs[version], group, from_machine)
        return 0
    # One forked process per numpy version, each importing its torch once (none is imported here).
    for version, group in groups.items():
        pid = os.fork()
        if pid == 0:
            code = 70
            try:
                run_group(numpy_dirs[version], group, from_machine)
                code = 0
            except BaseException:  # noqa: BLE001
                traceback.print_exc()
            finally:
                os._exit(code)
        os.waitpid(pid, 0)
    return 0


def libraries_torch_lacks():
    """The libraries the release's own torch NEEDs that neither its RUNPATHs nor the system's
    default folders hold (a store that lacks one of torch's nvidia-* wheels), each from this
    machine's loader cache: {soname: path}. They are loaded by path before torch, so torch itself
    imports; nothing else of the machine's library paths becomes visible."""
    import importlib.util
    import subprocess

    spec = importlib.util.find_spec("torch")
    loader = program_loader()
    if spec is None or spec.origin is None or loader is None:
        return {}
    lib_dir = os.path.join(os.path.dirname(spec.origin), "lib")
    missing = set()
    for name in ("libtorch_python.so", "libtorch.so", "libtorch_cuda.so", "libtorch_hip.so"):
        path = os.path.join(lib_dir, name)
        if os.path.exists(path):
            listed = subprocess.run([loader, "--inhibit-cache", path], capture_output=True, text=True,
                                    env={"LD_TRACE_LOADED_OBJECTS": "1"}).stdout  # as ldd asks
            missing.update(line.split()[0] for line in listed.splitlines() if "=> not found" in line)
    if not missing:
        return {}
    cached = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout
    found = {}
    for line in cached.splitlines():
        fields = line.split()
        # "libcurand.so.10 (libc6,x86-64) => /usr/local/cuda-13.0/lib/libcurand.so.10": 64-bit only.
        if len(fields) >= 4 and fields[0] in missing and fields[-2] == "=>" and "64" in fields[1]:
            found.setdefault(fields[0], fields[-1])
    return found


def numpy_of(dependencies):
    """(version, directory) of the numpy a cell's dependencies bring; ("", "") for none."""
    if dependencies and os.path.isdir(dependencies):
        for name in sorted(os.listdir(dependencies)):
            if name.startswith("numpy-") and name.endswith(".dist-info"):
                return name[len("numpy-"):-len(".dist-info")], dependencies
    return "", ""


def run_group(numpy_dir, cells, from_machine):
    """Imports torch once for cells whose dependencies bring one numpy (or none): torch reads numpy
    once, as it imports, as it would in the user's environment where numpy was installed first."""
    if numpy_dir:
        sys.path.append(numpy_dir)
        import numpy as _  # noqa: F401  (only numpy: the rest of that directory is the cell's own)
        sys.path.remove(numpy_dir)
    for path in from_machine.values():
        ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)

    import torch  # noqa: E402  (once: every cell of the group forks from here)

    run_isolated(cells, torch, operator_names(torch), from_machine)


if __name__ == "__main__":
    sys.exit(main())
