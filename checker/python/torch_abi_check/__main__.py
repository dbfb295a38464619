"""The `torch-abi-check` command of the Python package.

It runs the C++ CLI installed beside it (bin/torch-abi-check), pointing it at the project files
the package carries (data/: the store installer and cell runner in matrix/, the reference kernels,
the committed baselines in shim_decls/) and at this Python, whose pip installs the torch store.
A variable the user already set wins.
"""

import os
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def main() -> None:
    binary = PACKAGE / "bin" / "torch-abi-check"
    environment = dict(os.environ)
    environment.setdefault("TORCH_ABI_CHECK_HOME", str(PACKAGE / "data"))
    environment.setdefault("TORCH_ABI_CHECK_PYTHON", sys.executable)
    os.execve(binary, [str(binary), *sys.argv[1:]], environment)


if __name__ == "__main__":
    main()
