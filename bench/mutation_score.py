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
child; the counter counts per child and reads each child's mutation from a file); a mutant runs only
the cases that call its shim (learnt first from one child per case against one that only loads the
library; a shim called only while loading runs every case; --all-cases turns this off), and stops
at the first failing one; and a shim the unmutated cell never calls is not mutated: no test can
notice it, so it is counted a survivor without running.

Usage: python3 bench/mutation_score.py --python TORCH_PY --library LIB.so --counter shim_counter.so
                                        --target 2.15 [--modes error,zero] [--jobs N] [--timeout S]
                                        [--all-cases] [--only SHIM,SHIM...]
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


def select_cases(tests, selected, stop_at_failure):
    """Runs only the cases named in `selected` ((group, name) pairs; None: every case), one at a time,
    stopping at the first failure when asked: a mutant is killed by its first failing case."""
    sys.path.insert(0, tests)
    import harness

    run_cases = harness.run_cases
    wanted = None if selected is None else {tuple(key) for key in selected}

    def selected_cases(groups, backend, device_available):
        results = []
        registered = list(harness.CASES)
        for one in registered:
            if wanted is not None and (one["group"], one["name"]) not in wanted:
                continue
            harness.CASES[:] = [one]
            results += run_cases(groups, backend, device_available)
            if stop_at_failure and results and results[-1]["outcome"] == "failed":
                break
        harness.CASES[:] = registered
        return results

    harness.run_cases = selected_cases


def serve(arguments):
    """Runs inside the torch release's Python: import torch once, fork a cell per job of the plan
    (a JSON list of {"mutation": "shim=mode" or "", "cases": [[group, name], ...] or null for all})."""
    import torch  # noqa: F401  (imported once; every child inherits it)

    import run_cell
    from forked_cells import Cell, run_forked

    tests = os.path.join(ROOT, "kernels", "tests")
    sys.path.insert(0, tests)
    with open(arguments.plan, encoding="utf-8") as stream:
        jobs = json.load(stream)

    def body(job):
        def run():
            shim_counts.configure_child(mutation=job["mutation"])
            if job["mutation"] or job["cases"] is not None:
                select_cases(tests, job["cases"], stop_at_failure=bool(job["mutation"]))
            result_path = os.path.join(arguments.work, f"result.{os.getpid()}.json")
            return run_cell.run_cell(arguments.library, arguments.target, "cpu", [tests], result_path)
        return run

    pids = {}
    results = []
    cells = [Cell(body(job), arguments.timeout, log=os.devnull) for job in jobs]
    for index, ended in run_forked(cells, arguments.jobs, on_start=pids.__setitem__):
        counts_file = shim_counts.collect_child(pids[index])
        result_file = os.path.join(arguments.work, f"result.{pids[index]}.json")
        ran = []
        if os.path.exists(result_file):
            with open(result_file, encoding="utf-8") as stream:
                ran = [[case["group"], case["name"]] for case in json.load(stream).get("cases", [])]
            os.remove(result_file)
        results.append({"job": index, "outcome": describe(ended), "seconds": ended["seconds"], "cases": ran,
                        "counts": shim_counts.read_counts(counts_file)})
        if counts_file:
            os.remove(counts_file)
    results.sort(key=lambda result: result["job"])
    json.dump(results, sys.stdout)
    return 0


def run_server(arguments, jobs, work):
    """Runs the jobs in one server (one import of torch); returns one result per job, in order."""
    counts_base = os.path.join(work, "counts")
    plan = os.path.join(work, "plan.json")
    with open(plan, "w", encoding="utf-8") as stream:
        json.dump(jobs, stream)
    environment = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", LD_AUDIT=arguments.counter,
                       TORCH_ABI_CHECK_AUDITED_LIBRARY=arguments.library, TORCH_ABI_CHECK_SHIM_COUNTS=counts_base,
                       TORCH_ABI_CHECK_SHIM_PER_PROCESS="1")
    command = [arguments.python, os.path.abspath(__file__), "--serve", "--work", work, "--plan", plan,
               "--python", arguments.python, "--library", arguments.library, "--counter", arguments.counter,
               "--target", arguments.target, "--jobs", str(arguments.jobs), "--timeout", str(arguments.timeout)]
    process = subprocess.run(command, env=environment, capture_output=True, text=True, cwd=work)
    if process.returncode != 0:
        sys.stderr.write(process.stderr[-3000:])
        raise SystemExit(2)
    return json.loads(process.stdout.splitlines()[-1])


def cases_calling(unmutated, per_case, load_only):
    """Which cases call each shim: a case calls it when its child (load, then that case alone) called
    it more often than a child that only loads. A shim called only while loading maps to every case,
    since what it did wrong at load can show in any of them."""
    every_case = unmutated["cases"]
    calling = {name: [] for name in unmutated["counts"]}
    for case, result in zip(every_case, per_case):
        for name, calls in result["counts"].items():
            if calls > load_only["counts"].get(name, 0):
                calling.setdefault(name, []).append(case)
    for name, cases in calling.items():
        if not cases:
            calling[name] = every_case
    return calling


# Value getters with no parameter (`int32_t aoti_torch_dtype_int8()`): a mutant that returns 1 or 0
# where the real getter returns that same value behaves exactly as the real one (an equivalent
# mutant, which no test can detect); such mutants are left out of the score and listed.
GETTER_RESULT_TYPES = {"int ()": "c_int32", "unsigned int ()": "c_uint32", "long ()": "c_int64",
                       "unsigned long ()": "c_uint64", "bool ()": "c_bool"}
MODE_RESULT = {"error": 1, "zero": 0}


def getter_values(arguments, names):
    """The real results of the no-parameter value getters among `names`, called in the release's
    own libtorch (ctypes), by the inventory of the target's committed baseline."""
    inventory_path = os.path.join(ROOT, "shim_decls", arguments.target, "inventory.json")
    if not os.path.exists(inventory_path):
        return {}
    with open(inventory_path, encoding="utf-8") as stream:
        declarations = json.load(stream)["declarations"]
    getters = {d["name"]: GETTER_RESULT_TYPES[d["abi_type"]] for d in declarations
               if d.get("kind") == "function" and d["name"] in names and d.get("abi_type") in GETTER_RESULT_TYPES}
    probe = """
import ctypes, json, os, sys
import torch
lib = ctypes.CDLL(os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_cpu.so"))
values = {}
for name, kind in json.loads(sys.argv[1]).items():
    function = getattr(lib, name, None)
    if function is None:
        continue
    function.restype = getattr(ctypes, kind)
    function.argtypes = []
    values[name] = int(function())
print(json.dumps(values))
"""
    process = subprocess.run([arguments.python, "-c", probe, json.dumps(getters)], capture_output=True, text=True)
    if process.returncode != 0:
        sys.stderr.write(process.stderr[-2000:])
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
    parser.add_argument("--plan", help=argparse.SUPPRESS)
    parser.add_argument("--only", default="",
                        help="comma-separated shims: mutate only these (the others count as not run)")
    parser.add_argument("--all-cases", action="store_true",
                        help="run every case for every mutant (slower) instead of only the cases that call its shim")
    arguments = parser.parse_args()
    arguments.library = os.path.realpath(arguments.library)
    if arguments.serve:
        return serve(arguments)

    modes = arguments.modes.split(",")
    with tempfile.TemporaryDirectory(prefix="mutation-") as work:
        started = time.monotonic()
        unmutated = run_server(arguments, [{"mutation": "", "cases": None}], work)[0]
        if unmutated["outcome"] != "passed":
            print(f"the unmutated cell does not pass ({unmutated['outcome']}); no score", file=sys.stderr)
            return 2
        counts = unmutated["counts"]
        imported = sorted(counts)
        called = {name for name, calls in counts.items() if calls > 0}
        print(f"library: {arguments.library}\nruntime: {arguments.python} (target {arguments.target})")
        print(f"unmutated cell: passed in {unmutated['seconds']:.1f} s after fork "
              f"({time.monotonic() - started:.0f} s with the import of torch); "
              f"{len(imported)} shims imported, {len(called)} called; {len(unmutated['cases'])} cases")

        # Which cases call which shim: one child per case, and one that only loads the library.
        calling = {name: None for name in called}
        if not arguments.all_cases:
            started = time.monotonic()
            mapping = run_server(arguments, [{"mutation": "", "cases": []}] +
                                 [{"mutation": "", "cases": [case]} for case in unmutated["cases"]], work)
            if any(result["outcome"] != "passed" for result in mapping):
                print("a case does not pass alone; run with --all-cases", file=sys.stderr)
                return 2
            calling = cases_calling(unmutated, mapping[1:], mapping[0])
            print(f"case map: {len(mapping)} children in {time.monotonic() - started:.0f} s; a mutant runs only "
                  f"the cases that call its shim")

        if arguments.only:
            wanted = set(arguments.only.split(","))
            imported = [name for name in imported if name in wanted]
            called = {name for name in called if name in wanted}
        mutants = [(name, mode) for mode in modes for name in sorted(called)]
        started = time.monotonic()
        finished = run_server(arguments, [{"mutation": f"{name}={mode}", "cases": calling[name]}
                                          for name, mode in mutants], work)
        results = {f"{name}={mode}": result for (name, mode), result in zip(mutants, finished)}
        wall = time.monotonic() - started

    print(f"{len(called) * len(modes)} mutants run in {wall:.0f} s ({arguments.jobs} jobs, one import of torch); "
          f"the {len(imported) - len(called)} imported shims never called survive every mutation unrun")
    values = getter_values(arguments, called)
    for mode in modes:
        outcome = {name: results[f"{name}={mode}"]["outcome"] if name in called else "passed" for name in imported}
        equivalent = [name for name in imported if name in values and values[name] == MODE_RESULT.get(mode)]
        scored = [name for name in imported if name not in equivalent]
        killed = [name for name in scored if outcome[name] != "passed"]
        survivors = [name for name in scored if outcome[name] == "passed"]
        called_scored = [name for name in scored if name in called]
        killed_called = [name for name in killed if name in called]
        print(f"mode {mode}: {len(killed)}/{len(scored)} imported shims detected "
              f"({100 * len(killed) / max(1, len(scored)):.0f}%; {len(equivalent)} equivalent mutants left out); "
              f"of the {len(called_scored)} called: {len(killed_called)} "
              f"({100 * len(killed_called) / max(1, len(called_scored)):.0f}%)")
        print(f"  equivalent (the getter returns {MODE_RESULT.get(mode)} itself) ({len(equivalent)}): "
              f"{' '.join(equivalent)}")
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
