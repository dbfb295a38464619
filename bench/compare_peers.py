#!/usr/bin/env python3
"""Runs torch-abi-check audit and its two peers on the same real binaries and prints a table.

The peers (torch-abi-audit 0.3.0, kernel-abi-check 0.14.1) are pip-installed into a venv under the
cache directory; the wheels come from PyPI with `pip download`. The project's reference kernels and
the negative control are taken from a matrix build cache (--kernels: every build against the newest
release there, labelled from its build.log); more binaries can be named on the command line. Per
binary: each tool's verdict, minimum torch and wall time (best of --repeat runs), all three on the
same input (the peers need an unpacked wheel, so ours is timed on it too; its time on the .whl itself
is printed beside), and how many times faster ours is than each peer.

    python3 bench/compare_peers.py [--cli build/checker/torch-abi-check] [--cache build/bench-cache]
        [--kernels build/checker/matrix-test-cache] [PATH ...]
"""
import argparse
import json
import pathlib
import re
import resource
import subprocess
import sys
import tempfile
import time
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
PEERS = ["torch-abi-audit==0.3.0", "kernel-abi-check==0.14.1"]
# Wheels that claim stable-ABI builds for torch 2.9+/2.10+, one release before the switch, and a
# library that never made it (the negative control).
WHEELS = ["torchaudio==2.10.0", "torchaudio==2.9.1", "torchcodec==0.17.0", "xformers==0.0.35", "torchvision==0.24.1"]
PLATFORM = ["--only-binary=:all:", "--python-version", "3.11", "--platform", "manylinux_2_28_x86_64"]
KERNEL_ABI_CHECK = """
import json, pathlib, sys
from kernel_abi_check import ObjectFile
found = []
for path in sys.argv[1:]:
    violations = ObjectFile(path).check_python_abi("3.9")
    found += [v.name for v in violations]
print(json.dumps(found))
"""


def run(argv, **kwargs):
    return subprocess.run(argv, capture_output=True, text=True, **kwargs)


def timed(argv, repeat):
    """Runs argv `repeat` times; returns the last result and the best (CPU seconds, wall seconds).
    CPU time (user + system of the tool's process tree) is the figure to compare on a shared
    machine: wall time there also measures the other jobs."""
    best_cpu, best_wall, result = None, None, None
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        result = run(argv)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best_cpu = cpu if best_cpu is None else min(best_cpu, cpu)
        best_wall = wall if best_wall is None else min(best_wall, wall)
    return result, (best_cpu, best_wall)


def prepare_peers(cache: pathlib.Path):
    """The venv holding the peers (bench_wheel_audit.sh uses it too)."""
    venv = cache / "peers"
    if not (venv / "bin" / "torch-abi-audit").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", *PEERS], check=True)
    return venv


def prepare(cache: pathlib.Path):
    venv = prepare_peers(cache)
    wheels = cache / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    for requirement in WHEELS:
        name, version = requirement.split("==")
        if not list(wheels.glob(f"{name}-{version}-*.whl")):
            subprocess.run([str(venv / "bin" / "pip"), "download", "--no-deps", "-q", "-d", str(wheels), *PLATFORM,
                            requirement], check=True)
    return venv, sorted(wheels.glob("*.whl"))


def elf_files(directory: pathlib.Path):
    found = []
    for path in sorted(directory.rglob("*")):
        if path.is_file() and not path.is_symlink():
            with open(path, "rb") as stream:
                if stream.read(4) == b"\x7fELF":
                    found.append(path)
    return found


def reference_kernels(cache: pathlib.Path):
    """(label, library) of each reference-kernel build against the newest release in a matrix build
    cache, and of the negative control. Builds from older kernel sources (no target marker) are left out."""
    builds = []
    for log in sorted(cache.glob("builds/*/build.log")):
        library = log.parent / "libabiref_matrix.so"
        commands = log.read_text(errors="replace")
        release = re.search(r"releases/([0-9.]+)/venv", commands)
        if not library.exists() or not release:
            continue
        build = ".".join(release.group(1).split(".")[:2])
        if "negative_control" in commands:
            builds.append(((), f"negative control (B {build})", library))
            continue
        if b"torch-abi-check:target=" not in library.read_bytes():
            continue
        hex_target = re.search(r"-DTORCH_TARGET_VERSION=0x([0-9A-Fa-f]{4})", commands)
        target = f"{int(hex_target.group(1)[:2], 16)}.{int(hex_target.group(1)[2:], 16)}" if hex_target else build
        backend = "cuda" if "nvcc" in commands else "rocm" if "hipcc" in commands else "cpu"
        key = (tuple(int(p) for p in build.split(".")), backend, tuple(int(p) for p in target.split(".")))
        builds.append((key, f"abiref {backend} B {build} T {target}", library))
    newest = max((key[0] for key, _, _ in builds if key), default=None)
    chosen = sorted((key, label, library) for key, label, library in builds if not key or key[0] == newest)
    seen, result = set(), []
    for key, label, library in chosen:
        if label not in seen:
            seen.add(label)
            result.append((label, library))
    return result


def version_key(version):
    return tuple(int(part) for part in version.split("."))


def ours(cli, target, repeat):
    """Verdict over every object audited (the worst one), the newest min torch, and the newest min
    torch to load when it differs (shims looked up with dlsym are not needed to load)."""
    result, times = timed([cli, "audit", str(target), "--json", "-"], repeat)
    try:
        binaries = json.loads(result.stdout)["binaries"]
    except (json.JSONDecodeError, KeyError):
        return f"error (exit {result.returncode})", "-", times
    verdicts = {binary["verdict"] for binary in binaries}
    verdict = next((v for v in ("unstable", "needs-newer-torch") if v in verdicts), "stable")
    newest = {}
    for field in ("min_torch", "min_torch_to_load"):
        versions = [binary[field] for binary in binaries if binary[field]]
        newest[field] = max(versions, key=version_key) if versions else "-"
    minimum = newest["min_torch"]
    if newest["min_torch_to_load"] != minimum:
        minimum += f" (to load {newest['min_torch_to_load']})"
    return verdict, minimum, times


def torch_abi_audit(venv, directory, repeat):
    result, times = timed([str(venv / "bin" / "torch-abi-audit"), "--json", str(directory)], repeat)
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError:
        return f"error (exit {result.returncode})", "-", times
    objects = report.get("extensions", []) + report.get("bundled_libs", [])
    torch_objects = [o["torch"] for o in objects if o.get("torch", {}).get("uses_torch")]
    if not torch_objects:
        return "no torch", "-", times
    verdict = "stable" if all(o["stable"] for o in torch_objects) else "unstable"
    versions = [o["min_torch_version"] for o in torch_objects if o.get("min_torch_version")]
    newest = max(versions, key=lambda v: version_key(".".join(v.split(".")[:3]))) if versions else None
    return verdict, ".".join(newest.split(".")[:2]) if newest else "-", times


def kernel_abi_check(venv, directory, repeat):
    objects = [str(p) for p in elf_files(directory)]
    result, times = timed([str(venv / "bin" / "python"), "-c", KERNEL_ABI_CHECK, *objects], repeat)
    if result.returncode != 0:
        return f"error (exit {result.returncode})", "n/a", times
    violations = json.loads(result.stdout)
    return ("abi3 ok" if not violations else f"{len(violations)} non-abi3"), "n/a", times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", default=str(ROOT / "build" / "checker" / "torch-abi-check"))
    parser.add_argument("--cache", default=str(ROOT / "build" / "bench-cache"))
    parser.add_argument("--kernels", default=str(ROOT / "build" / "checker" / "matrix-test-cache"),
                        help="a matrix build cache holding the reference kernels and the negative control")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("paths", nargs="*", help="more binaries or directories to compare on")
    args = parser.parse_args()
    venv, wheels = prepare(pathlib.Path(args.cache))
    inputs = [(wheel.name, wheel) for wheel in wheels]
    inputs += reference_kernels(pathlib.Path(args.kernels))
    inputs += [(pathlib.Path(path).name, pathlib.Path(path)) for path in args.paths]
    rows = []
    with tempfile.TemporaryDirectory() as temp:
        for name, target in inputs:
            directory = target
            wheel_times = None
            if target.suffix == ".whl":
                directory = pathlib.Path(temp) / target.stem
                with zipfile.ZipFile(target) as archive:
                    archive.extractall(directory)
                wheel_times = ours(args.cli, target, args.repeat)[2]
            rows.append((name, ours(args.cli, directory, args.repeat), wheel_times,
                         torch_abi_audit(venv, directory, args.repeat), kernel_abi_check(venv, directory, args.repeat)))
    print("CPU ms (user + system) and wall ms, best of", args.repeat, "runs each; x: how many times more CPU time the peer used")
    print()
    print("| binary | torch-abi-check | torch-abi-audit 0.3.0 | kernel-abi-check 0.14.1 |")
    print("|---|---|---|---|")
    for name, mine, wheel_times, audit, kernel in rows:
        def cell(tool):
            verdict, minimum, (cpu, wall) = tool
            return f"{verdict}, min {minimum}, {cpu * 1000:.0f} / {wall * 1000:.0f} ms"
        ours_cell = cell(mine)
        if wheel_times is not None:
            ours_cell += f" (.whl {wheel_times[0] * 1000:.0f} / {wheel_times[1] * 1000:.0f} ms)"
        peers = [f"{cell(peer)} ({peer[2][0] / mine[2][0]:.1f}x)" for peer in (audit, kernel)]
        print(f"| {name} | {ours_cell} | " + " | ".join(peers) + " |")

if __name__ == "__main__":
    main()
