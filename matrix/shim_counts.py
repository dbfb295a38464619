"""The Python side of the shim call counter (matrix/shim_counter.c) in a process that forks cells
after `import torch` (TORCH_ABI_CHECK_SHIM_PER_PROCESS=1): the counter is the LD_AUDIT library of
the whole process, each child tells it which extension to count and which shim to mutate, and its
counts land in a file of its own. This module owns those per-child file names.
"""

import os
import struct

NAME_SIZE = 120  # one record of the counts file: char name[120]; uint64 calls
RECORD = NAME_SIZE + 8


def counting():
    """Whether this process runs under the counter in per-process mode."""
    return os.environ.get("TORCH_ABI_CHECK_SHIM_PER_PROCESS") == "1" and "TORCH_ABI_CHECK_SHIM_COUNTS" in os.environ


def _child_file(pid, suffix=""):
    return f"{os.environ['TORCH_ABI_CHECK_SHIM_COUNTS']}.{pid}{suffix}"


def configure_child(library=None, mutation=None):
    """In a forked child, before it loads anything: count the calls of `library` (else the one the
    environment names), replacing the shim of `mutation` ("name=error", "name=zero")."""
    if not counting():
        return
    for suffix, value in ((".library", library), (".mutation", mutation)):
        if value:
            with open(_child_file(os.getpid(), suffix), "w", encoding="utf-8") as stream:
                stream.write(value)


def collect_child(pid, destination=None):
    """In the parent once the child has ended: moves its counts to `destination` (where the caller
    reads them; nothing when it counted nothing) and removes its other files. Returns the counts
    file's path, or None."""
    if not counting():
        return None
    for suffix in (".library", ".mutation"):
        if os.path.exists(_child_file(pid, suffix)):
            os.remove(_child_file(pid, suffix))
    counts = _child_file(pid)
    if not os.path.exists(counts):
        return None
    if destination:
        os.replace(counts, destination)
        return destination
    return counts


def read_counts(path):
    """{shim: calls} from a counts file; {} when there is none."""
    counts = {}
    if not path or not os.path.exists(path):
        return counts
    with open(path, "rb") as stream:
        data = stream.read()
    for offset in range(0, len(data) - RECORD + 1, RECORD):
        name = data[offset:offset + NAME_SIZE].split(b"\0")[0].decode()
        if not name:
            break
        counts[name] = counts.get(name, 0) + struct.unpack_from("<Q", data, offset + NAME_SIZE)[0]
    return counts
