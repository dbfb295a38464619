"""Writes, as JSON, the compiled extensions a setup.py declares: what `setup.py build_ext` would compile.

    python3 setup_py_extensions.py PROJECT_DIR OUTPUT_JSON

setup.py runs as the build runs it (from its own directory, `build_ext` in sys.argv, torch importable
from the release on PYTHONPATH) up to its setup() call, which is replaced by a recorder: nothing is
compiled or written. The recorded Extension objects are the build's own data (CppExtension and
CUDAExtension have already filled in torch's include dirs), so nothing here is guessed from text;
what torch's BuildExtension and setuptools' build_ext add when they compile (BuildExtension's
macros, the Python include dir) is added as they add it.

Exit status 0 with the JSON written; otherwise 1 with one line on stderr saying why.
"""

import json
import os
import runpy
import sys
import sysconfig


class SetupCalled(Exception):
    """Raised by the recorder so that nothing after setup() runs (it may build or install)."""


def recording_setup(recorded):
    def setup(*args, **kwargs):
        recorded.update(kwargs)
        raise SetupCalled()

    return setup


def replace_setup(recorded):
    import setuptools

    setuptools.setup = recording_setup(recorded)
    try:
        import distutils.core

        distutils.core.setup = setuptools.setup
    except ImportError:
        pass


def allow_cuda_extensions_without_cuda():
    """CUDAExtension() asks for CUDA_HOME while it is constructed; a CPU-only torch has none. Only
    its include dirs come from there, and the lint supplies CUDA's headers itself."""
    try:
        from torch.utils import cpp_extension
    except ImportError:
        return
    if getattr(cpp_extension, "CUDA_HOME", "") is None:
        cpp_extension.CUDA_HOME = os.environ.get("CUDA_HOME", "/usr/local/cuda")


def builds_with_torch(cmdclass):
    """Whether build_ext is torch's BuildExtension (or a subclass), which adds macros of its own."""
    build_ext = (cmdclass or {}).get("build_ext")
    try:
        from torch.utils.cpp_extension import BuildExtension
    except ImportError:
        return False
    return isinstance(build_ext, type) and issubclass(build_ext, BuildExtension)


def torch_build_defines(extension):
    """The macros BuildExtension.build_extensions adds to every extension it builds."""
    from torch.utils import cpp_extension

    defines = ["TORCH_API_INCLUDE_EXTENSION_H"]
    if getattr(extension, "py_limited_api", False):
        defines.append("Py_LIMITED_API=" + cpp_extension.min_supported_cpython)
    defines.append("TORCH_EXTENSION_NAME=" + extension.name.split(".")[-1])
    return defines


def compile_arguments(extension):
    """extra_compile_args is a list, or for torch's extensions a dict by compiler ("cxx", "nvcc")."""
    arguments = extension.extra_compile_args or []
    if isinstance(arguments, dict):
        return list(arguments.get("cxx", [])), list(arguments.get("nvcc", []))
    return list(arguments), list(arguments)


def describe(extension, torch_build):
    defines = [name if value is None else f"{name}={value}" for name, value in extension.define_macros or []]
    cxx, nvcc = compile_arguments(extension)
    # BuildExtension passes its macros after the extension's own arguments, as -D flags.
    added = ["-D" + define for define in torch_build_defines(extension)] if torch_build else []
    return {
        "name": extension.name,
        "sources": [os.path.abspath(source) for source in extension.sources],
        "include_dirs": [os.path.abspath(directory) for directory in extension.include_dirs or []]
        + [sysconfig.get_paths()["include"]],
        "defines": defines,
        "undefines": list(extension.undef_macros or []),
        "cxx_arguments": [str(argument) for argument in cxx] + added,
        "nvcc_arguments": [str(argument) for argument in nvcc] + added,
    }


def main():
    project, output = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    os.chdir(project)
    sys.path.insert(0, project)
    sys.argv = [os.path.join(project, "setup.py"), "build_ext"]
    sys.dont_write_bytecode = True
    recorded = {}
    replace_setup(recorded)
    allow_cuda_extensions_without_cuda()
    try:
        runpy.run_path("setup.py", run_name="__main__")
    except SetupCalled:
        pass
    except SystemExit as exit:
        if exit.code not in (None, 0):
            raise
    if not recorded:
        sys.exit("setup.py: it never called setup()")
    torch_build = builds_with_torch(recorded.get("cmdclass"))
    extensions = [describe(extension, torch_build) for extension in recorded.get("ext_modules") or []]
    with open(output, "w", encoding="utf-8") as stream:
        json.dump({"extensions": extensions}, stream, indent=1)


if __name__ == "__main__":
    try:
        main()
    except SystemExit:
        raise
    except BaseException as error:  # the build's own error, whatever it is, in one line
        sys.exit(f"setup.py: {type(error).__name__}: {error}".splitlines()[0])
