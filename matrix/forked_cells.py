"""Runs cells in forked children of a process that has already imported torch: the one owner of the
fork, the wait, the timeout and the reading of how a child ended, for the matrix (run_cell.py
--cells), the canary (canary_cells.py) and the mutation benchmark (bench/mutation_score.py).

Why a fork: `import torch` costs seconds; a child forked after it inherits the imported torch, so a
cell costs only its own work. Each child leads a process group of its own, so a crash ends only its
cell, and a cell past its timeout is killed with everything it started. Runs in the torch release's
own Python (any version the store has), so the standard library only.
"""

import json
import os
import signal
import sys
import time
import traceback

POLL_S = 0.005  # how often a running child is looked at; a finished cell waits at most this long


def write_json_atomically(path, value):
    temporary = f"{path}.{os.getpid()}.tmp"
    with open(temporary, "w", encoding="utf-8") as stream:
        json.dump(value, stream, indent=1, sort_keys=True)
    os.replace(temporary, path)


class Cell:
    """One unit of work for a child: `body()` runs in the child and returns its exit status; `log`
    (a path, optional) receives the child's stdout and stderr, the C++ runtime's abort message too."""

    def __init__(self, body, timeout_s, log=None):
        self.body = body
        self.timeout_s = timeout_s
        self.log = log


def ending(status, seconds, timed_out=False):
    """How a child ended, as plain data: {"exit_code" (None after a signal), "signal" (SIGKILL after a
    timeout), "timed_out", "seconds"}; the C++ side words it as for any process (ProcessResult)."""
    result = {"exit_code": None, "signal": None, "timed_out": timed_out, "seconds": round(seconds, 3)}
    if timed_out:
        result["signal"] = int(signal.SIGKILL)
    elif os.WIFSIGNALED(status):
        result["signal"] = os.WTERMSIG(status)
    else:
        result["exit_code"] = os.WEXITSTATUS(status)
    return result


def ended_early(timeout_s, result_path, ended):
    """The result of a cell whose child ended without writing one at `result_path`: a timeout or a
    crash (with its signal), as {"stage", "error", "signal" (after a signal), "seconds"}; None when
    the child wrote its result and exited 0."""
    if ended["timed_out"]:
        return {"stage": "timeout", "error": f"timed out after {timeout_s} s", "seconds": ended["seconds"]}
    if ended["signal"] is not None:
        number = ended["signal"]
        return {"stage": "crash", "signal": number, "error": f"signal {number} ({signal.strsignal(number)})",
                "seconds": ended["seconds"]}
    if ended["exit_code"] != 0 or not os.path.exists(result_path):
        return {"stage": "crash", "error": f"the cell exited with {ended['exit_code']} before writing its result",
                "seconds": ended["seconds"]}
    return None


def _child(cell):
    """In the forked child: never returns into the parent's loop."""
    code = 70
    try:
        os.setpgid(0, 0)
        if cell.log:
            sys.stdout.flush()
            sys.stderr.flush()
            log = os.open(cell.log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(log, 1)
            os.dup2(log, 2)
            os.close(log)
        code = cell.body()
    except BaseException:  # noqa: BLE001  (whatever the cell raised, the child ends here)
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code if isinstance(code, int) else 70)


def run_forked(cells, jobs=1, on_start=None):
    """Runs every cell in a forked child, at most `jobs` at a time; yields (index, ending) as each
    ends, in the order they end. `on_start(index, pid)` is called in the parent after each fork."""
    pending = list(enumerate(cells))
    pending.reverse()
    running = {}  # pid -> (index, started)
    while pending or running:
        while pending and len(running) < max(1, jobs):
            index, cell = pending.pop()
            started = time.monotonic()
            pid = os.fork()
            if pid == 0:
                _child(cell)
            try:
                os.setpgid(pid, pid)  # here too, so that a timeout never finds it still in ours
            except OSError:
                pass  # it already has its group, or has already ended
            if on_start:
                on_start(index, pid)
            running[pid] = (index, started)
        for pid, (index, started) in list(running.items()):
            finished, status = os.waitpid(pid, os.WNOHANG)
            timeout_s = cells[index].timeout_s
            if finished:
                del running[pid]
                yield index, ending(status, time.monotonic() - started)
            elif time.monotonic() - started > timeout_s:
                os.killpg(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                del running[pid]
                yield index, ending(0, time.monotonic() - started, timed_out=True)
        if running:
            time.sleep(POLL_S)
