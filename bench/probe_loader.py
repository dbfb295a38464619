"""Loads finding probes into one torch release: run by bench/probe_findings.py in the release's own Python.

Imports torch once, then forks a child per probe (matrix/forked_cells.py) that does what an extension's
user does: dlopen the probe's shared object (RTLD_NOW, so every undefined symbol shows at load, as in the
loader's own words), and, where the probe has one, call its `probe_run`, which exercises what the finding
claims and returns 0 when the call worked, else 1 with the error in its message buffer.

Usage: python probe_loader.py PROBES.json RESULTS.json JOBS
  PROBES.json: [{"id", "library", "call": bool}]
  RESULTS.json: {id: {"stage": "loaded"|"load-failed"|"call-failed"|"called"|"crash"|"timeout", "error"}}
"""
import ctypes
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "matrix"))
import forked_cells  # noqa: E402

TIMEOUT_S = 60


def probe_body(probe, result_path, log_path):
    def body():
        result = {"stage": "loaded", "error": ""}
        try:
            library = ctypes.CDLL(probe["library"], mode=os.RTLD_NOW | os.RTLD_GLOBAL)
        except OSError as error:
            result = {"stage": "load-failed", "error": str(error)}
        else:
            if probe.get("call"):
                message = ctypes.create_string_buffer(4096)
                run = library.probe_run
                run.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
                run.restype = ctypes.c_int
                failed = run(message, len(message))
                sys.stderr.flush()
                # libtorch writes why a shim failed to stderr, which is this child's log.
                logged = open(log_path, encoding="utf-8", errors="replace").read()[-2000:]
                text = (message.value.decode("utf-8", "replace") + "\n" + logged).strip()
                result = {"stage": "call-failed" if failed else "called", "error": text}
        forked_cells.write_json_atomically(result_path, result)
        return 0

    return body


def main():
    probes_path, results_path, jobs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    probes = json.load(open(probes_path, encoding="utf-8"))
    import torch  # noqa: F401  (the release's libraries loaded once, inherited by every child)

    work = os.path.dirname(os.path.abspath(results_path))
    cells, paths = [], []
    for index, probe in enumerate(probes):
        paths.append(os.path.join(work, f"probe-{index}.json"))
        cells.append(forked_cells.Cell(probe_body(probe, paths[-1], paths[-1] + ".log"), TIMEOUT_S,
                                       log=paths[-1] + ".log"))
    results = {}
    for index, ended in forked_cells.run_forked(cells, jobs):
        early = forked_cells.ended_early(TIMEOUT_S, paths[index], ended)
        if early:
            log = open(paths[index] + ".log", encoding="utf-8", errors="replace").read()[-2000:]
            results[probes[index]["id"]] = {"stage": early["stage"], "error": f"{early['error']}: {log}".strip()}
        else:
            results[probes[index]["id"]] = json.load(open(paths[index], encoding="utf-8"))
    forked_cells.write_json_atomically(results_path, results)


if __name__ == "__main__":
    main()
