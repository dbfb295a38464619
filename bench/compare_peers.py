#!/usr/bin/env python3
"""Runs torch-abi-check audit and its two peers on the same real binaries and prints a table.

The peers (torch-abi-audit 0.3.0, kernel-abi-check 0.14.1) are pip-installed into a venv under the
cache directory; the wheels come from PyPI with `pip download`. Extra binaries (the project's own
kernels, say) can be named on the command line. Per binary: each tool's verdict, minimum torch and
wall time (best of --repeat runs).

    python3 bench/compare_peers.py [--cli build/checker/torch-abi-check] [--cache build/bench-cache] [PATH ...]
"""
import argparse
import json
import pathlib
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
    best, result = None, None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run(argv)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return result, best


def prepare(cache: pathlib.Path):
    venv = cache / "peers"
    if not (venv / "bin" / "torch-abi-audit").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", *PEERS], check=True)
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


def ours(cli, target, repeat):
    result, seconds = timed([cli, "audit", str(target), "--json", "-"], repeat)
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError:
        return "error", "-", seconds
    if report["wheels"]:
        entry = report["wheels"][0]
    else:
        entry = report["binaries"][0] if report["binaries"] else {"verdict": "error", "min_torch": None}
    return entry["verdict"], entry["min_torch"] or "-", seconds


def torch_abi_audit(venv, directory, repeat):
    result, seconds = timed([str(venv / "bin" / "torch-abi-audit"), "--json", str(directory)], repeat)
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError:
        return f"error (exit {result.returncode})", "-", seconds
    objects = report.get("extensions", []) + report.get("bundled_libs", [])
    torch_objects = [o["torch"] for o in objects if o.get("torch", {}).get("uses_torch")]
    if not torch_objects:
        return "no torch", "-", seconds
    verdict = "stable" if all(o["stable"] for o in torch_objects) else "unstable"
    versions = [o["min_torch_version"] for o in torch_objects if o.get("min_torch_version")]
    newest = max(versions, key=lambda v: tuple(int(p) for p in v.split(".")[:3])) if versions else None
    return verdict, ".".join(newest.split(".")[:2]) if newest else "-", seconds


def kernel_abi_check(venv, directory, repeat):
    objects = [str(p) for p in elf_files(directory)]
    result, seconds = timed([str(venv / "bin" / "python"), "-c", KERNEL_ABI_CHECK, *objects], repeat)
    if result.returncode != 0:
        return f"error (exit {result.returncode})", "n/a", seconds
    violations = json.loads(result.stdout)
    return ("abi3 ok" if not violations else f"{len(violations)} non-abi3"), "n/a", seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", default=str(ROOT / "build" / "checker" / "torch-abi-check"))
    parser.add_argument("--cache", default=str(ROOT / "build" / "bench-cache"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("paths", nargs="*", help="more binaries or directories to compare on")
    args = parser.parse_args()
    venv, wheels = prepare(pathlib.Path(args.cache))
    rows = []
    with tempfile.TemporaryDirectory() as temp:
        for target in [*wheels, *map(pathlib.Path, args.paths)]:
            directory = target
            if target.suffix == ".whl":
                directory = pathlib.Path(temp) / target.stem
                with zipfile.ZipFile(target) as archive:
                    archive.extractall(directory)
            rows.append((target.name, ours(args.cli, target, args.repeat), torch_abi_audit(venv, directory, args.repeat),
                         kernel_abi_check(venv, directory, args.repeat)))
    header = f"| binary | torch-abi-check | torch-abi-audit 0.3.0 | kernel-abi-check 0.14.1 |"
    print(header)
    print("|---|---|---|---|")
    for name, *tools in rows:
        cells = [f"{verdict}, min {minimum}, {seconds * 1000:.0f} ms" for verdict, minimum, seconds in tools]
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
