"""Mutation score of the reference matrix: of the C shims a reference library imports, how many
would the matrix notice if libtorch broke them?

One cell (the library loaded and tested under one torch release, exactly as matrix/run_cell.py
does) runs first as is, with matrix/shim_counter.c as LD_AUDIT library, to learn which shims the
library imports and which it calls. Then, for every imported shim and every mutation, the cell runs
again with that one shim replaced when the loader binds it:
  error  the shim returns 1 (AOTI_TORCH_FAILURE) without doing anything
  zero   the shim returns 0 (success) without doing anything: its outputs stay unset
A mutant is detected ("killed") when the cell does not pass: a test fails, the load fails, the
process dies on a signal or hangs. The score is killed / mutants; the survivors are printed.

To keep it affordable: the torch release's Python imports torch once and forks one child per mutant
(each child loads the library and runs the tests, as a cell does; a crash or hang ends only that
child; the counter counts per child and reads each child's mutation from a file); a mutant's tests
stop at the first failing case; and a shim the unmutated cell never calls is not mutated: no test
can notice it, so it is counted a survivor without running.

Usage: python3 bench/mutation_score.py --python TORCH_PY --library LIB.so --counter shim_counter.so
                                        --target 2.15 [--modes error,zero] [--jobs N] [--timeout S]
(bench/mutation_score.sh builds the library and the counter and finds these.)
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "matrix"))
import shim_counts  # noqa: E402  (matrix/: the counter's per-child files)


def describe(ended):
    """A mutant's outcome from how its child ended (forked_cells.ending)."""
    if ended["timed_out"]:
        return "timeout"
    if ended["signal"] is not None:
        return f"signal {ended['signal']}"
    return {0: "passed", 1: "tests failed", 3: "load failed"}.get(ended["exit_code"], f"exit {ended['exit_code']}")


def stop_at_first_failure(tests):
    """A mutant is killed by its first failing case: run the cases one at a time, stop there."""
    sys.path.insert(0, tests)
    import harness

    run_cases = harness.run_cases

    def until_a_failure(groups, backend, device_available):
        results = []
        registered = list(harness.CASES)
        for one in registered:
            harness.CASES[:] = [one]
            results += run_cases(groups, backend, device_available)
            if results and results[-1]["outcome"] == "failed":
                break
        harness.CASES[:] = registered
        return results

    harness.run_cases = until_a_failure


def serve(arguments):
    """Runs inside the torch release's Python: import torch once, fork a cell per mutant."""
    import torch  # noqa: F401  (imported once; every child inherits it)

    import run_cell
    from forked_cells import Cell, run_forked

    tests = os.path.join(ROOT, "kernels", "tests")
    sys.path.insert(0, tests)
    mutants = [""] + [f"{name}={mode}" for mode in arguments.modes.split(",") for name in arguments.shims]
    if arguments.shims:
        mutants = mutants[1:]

    def body(mutation):
        def run():
            shim_counts.configure_child(mutation=mutation)
            if mutation:
                stop_at_first_failure(tests)
            return run_cell.run_cell(arguments.library, arguments.target, "cpu", [tests],
                                     os.path.join(arguments.work, f"result.{os.getpid()}.json"))
        return run

    pids = {}
    results = {}
    cells = [Cell(body(mutation), arguments.timeout, log=os.devnull) for mutation in mutants]
    for index, ended in run_forked(cells, arguments.jobs, on_start=pids.__setitem__):
        counts_file = shim_counts.collect_child(pids[index])
        results[mutants[index]] = {"outcome": describe(ended), "seconds": ended["seconds"],
                                   "counts": shim_counts.read_counts(counts_file)}
        if counts_file:
            os.remove(counts_file)
    json.dump(results, sys.stdout)
    return 0


def run_server(arguments, shims, work):
    counts_base = os.path.join(work, "counts")
    environment = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", LD_AUDIT=arguments.counter,
                       TORCH_ABI_CHECK_AUDITED_LIBRARY=arguments.library, TORCH_ABI_CHECK_SHIM_COUNTS=counts_base,
                       TORCH_ABI_CHECK_SHIM_PER_PROCESS="1")
    command = [arguments.python, os.path.abspath(__file__), "--serve", "--work", work, "--python", arguments.python,
               "--library", arguments.library, "--counter", arguments.counter, "--target", arguments.target,
               "--modes", arguments.modes, "--jobs", str(arguments.jobs), "--timeout", str(arguments.timeout)]
    command += [argument for shim in shims for argument in ("--shim", shim)]
    process = subprocess.run(command, env=environment, capture_output=True, text=True, cwd=work)
    if process.returncode != 0:
        sys.stderr.write(process.stderr[-3000:])
        raise SystemExit(2)
    return json.loads(process.stdout.splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--python", required=True)
    parser.add_argument("--library", required=True)
    parser.add_argument("--counter", required=True)
    parser.add_argument("--target", required=True)
    parser.add_argument("--modes", default="error,zero")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=int, default=120)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--work", help=argparse.SUPPRESS)
    parser.add_argument("--shim", dest="shims", action="append", default=[], help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    arguments.library = os.path.realpath(arguments.library)
    if arguments.serve:
        return serve(arguments)

    with tempfile.TemporaryDirectory(prefix="mutation-") as work:
        started = time.monotonic()
        unmutated = run_server(arguments, [], work)[""]
        if unmutated["outcome"] != "passed":
            print(f"the unmutated cell does not pass ({unmutated['outcome']}); no score", file=sys.stderr)
            return 2
        counts = unmutated["counts"]
        imported = sorted(counts)
        called = {name for name, calls in counts.items() if calls > 0}
        print(f"library: {arguments.library}\nruntime: {arguments.python} (target {arguments.target})")
        print(f"unmutated cell: passed in {unmutated['seconds']:.1f} s after fork "
              f"({time.monotonic() - started:.0f} s with the import of torch); "
              f"{len(imported)} shims imported, {len(called)} called")
        started = time.monotonic()
        results = run_server(arguments, sorted(called), work)
        wall = time.monotonic() - started

    modes = arguments.modes.split(",")
    print(f"{len(called) * len(modes)} mutants run in {wall:.0f} s ({arguments.jobs} jobs, one import of torch); "
          f"the {len(imported) - len(called)} imported shims never called survive every mutation unrun")
    for mode in modes:
        outcome = {name: results[f"{name}={mode}"]["outcome"] if name in called else "passed" for name in imported}
        killed = [name for name in imported if outcome[name] != "passed"]
        survivors = [name for name in imported if outcome[name] == "passed"]
        killed_called = [name for name in killed if name in called]
        print(f"mode {mode}: {len(killed)}/{len(imported)} imported shims detected "
              f"({100 * len(killed) / max(1, len(imported)):.0f}%); of the {len(called)} called: "
              f"{len(killed_called)} ({100 * len(killed_called) / max(1, len(called)):.0f}%)")
        called_survivors = [name for name in survivors if name in called]
        idle_survivors = [name for name in survivors if name not in called]
        print(f"  survivors called by the tests ({len(called_survivors)}): {' '.join(called_survivors)}")
        print(f"  survivors never called ({len(idle_survivors)}): {' '.join(idle_survivors)}")
        kinds = {}
        for name in killed:
            kinds[outcome[name]] = kinds.get(outcome[name], 0) + 1
        print("  detected as: " + ", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
