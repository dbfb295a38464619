"""The dynamic loader run as a program (`ld.so --inhibit-cache ...`): how this project sees a
library or a Python as a user's machine does, without the folders this machine's ld.so.conf adds
(/usr/local/cuda-*/lib64). Shared by the store (matrix/torch_store.py) and the canary
(matrix/canary_cells.py); checker/src/canary/canary_run.cpp has the C++ side."""

import os

PROGRAM_LOADERS = ("/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1")


def program_loader():
    """This machine's dynamic loader, or None where it is none of the known ones."""
    return next((path for path in PROGRAM_LOADERS if os.path.exists(path)), None)
