#!/usr/bin/env python3
"""Throughput of the tool on the corpus of real projects (fixtures/corpus/), 2 cores.

    bench/bench_corpus.py [--cli build/checker/torch-abi-check] [--only NAME ...] [--check NAME ...]

For every source project of fixtures/corpus/sources.toml (fetched and unpacked into the cache as the
corpus tests do): `lint extension` wall time, CPU time (user + system of the CLI and its children),
peak RSS (the largest of the process tree, as GNU time reports it), translation units, and files per
second. `--check NAME` also runs `check` on those projects (it builds them against two releases
and smoke-tests them: minutes each). For every wheel of wheels.toml: the `audit` wall, CPU and RSS.
The slowest project is named. Figures are printed, one line a project, then the totals; nothing is
asserted: the corpus tests (ctest -L corpus) check the verdicts.
"""

import argparse
import json
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fixtures" / "corpus"


def timed(command: list[str]) -> dict:
    """Runs `command` under GNU time: wall, CPU and peak RSS, and its exit code."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        result = subprocess.run(["/usr/bin/time", "-v", "-o", report.name, *command], capture_output=True, text=True)
        text = Path(report.name).read_text()
    def field(name: str) -> str:
        match = re.search(rf"{re.escape(name)}: (.+)", text)
        return match.group(1).strip() if match else "0"
    wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss)")
    seconds = sum(float(part) * 60 ** i for i, part in enumerate(reversed(wall.split(":"))))
    return {"exit": result.returncode, "wall": seconds,
            "cpu": float(field("User time (seconds)")) + float(field("System time (seconds)")),
            "rss_mb": int(field("Maximum resident set size (kbytes)")) / 1024,
            "stderr": result.stderr}


def fetch(name: str) -> Path:
    out = subprocess.run([sys.executable, str(CORPUS / "fetch_corpus.py"), "--manifest", str(CORPUS / "sources.toml"),
                          "--project", name], capture_output=True, text=True, check=True)
    return Path(out.stdout.strip().splitlines()[-1].split("\t")[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", default=str(ROOT / "build" / "checker" / "torch-abi-check"))
    parser.add_argument("--only", nargs="*", help="source projects to lint (default: all)")
    parser.add_argument("--check", nargs="*", default=[], help="source projects to run `check` on too")
    args = parser.parse_args()
    projects = tomllib.loads((CORPUS / "sources.toml").read_text())["project"]
    if args.only:
        projects = [p for p in projects if p["name"] in args.only]

    print(f"{'project':<28} {'files':>5} {'units':>5} {'wall s':>7} {'cpu s':>7} {'RSS MB':>7} {'units/s':>7} exit")
    rows = []
    for project in projects:
        root = fetch(project["name"])
        run = timed([args.cli, "lint", "extension", str(root)])
        units = re.search(r"in (\d+) translation unit", run["stderr"])
        run["units"] = int(units.group(1)) if units else 0
        run["name"] = project["name"]
        rows.append(run)
        print(f"{project['name']:<28} {project.get('source_files', 0):>5} {run['units']:>5} {run['wall']:>7.1f} "
              f"{run['cpu']:>7.1f} {run['rss_mb']:>7.0f} {run['units'] / max(run['wall'], 1e-9):>7.2f} {run['exit']}",
              flush=True)
    if rows:
        wall = sum(r["wall"] for r in rows)
        units = sum(r["units"] for r in rows)
        slowest = max(rows, key=lambda r: r["wall"])
        print(f"lint: {len(rows)} projects, {units} units in {wall:.0f} s wall, "
              f"{sum(r['cpu'] for r in rows):.0f} s CPU: {units / max(wall, 1e-9):.2f} units/s; "
              f"peak RSS {max(r['rss_mb'] for r in rows):.0f} MB; slowest {slowest['name']} ({slowest['wall']:.0f} s)")

    for name in args.check:
        root = fetch(name)
        with tempfile.TemporaryDirectory() as work:
            run = timed([args.cli, "check", str(root), "--work-dir", work])
        print(f"check {name}: {run['wall']:.0f} s wall, {run['cpu']:.0f} s CPU, peak RSS {run['rss_mb']:.0f} MB, "
              f"exit {run['exit']}", flush=True)

    wheels = tomllib.loads((CORPUS / "wheels.toml").read_text())["wheel"]
    sys.path.insert(0, str(CORPUS))
    from run_corpus_wheel import fetch_wheel  # the corpus test's own download and sha256 check
    audits = []
    for wheel in wheels:
        path = fetch_wheel(wheel)
        with tempfile.TemporaryDirectory() as work:
            run = timed([args.cli, "audit", str(path), "--json", str(Path(work) / "a.json")])
        run["name"] = f"{wheel['name']}-{wheel['version']}"
        audits.append(run)
    if audits:
        slowest = max(audits, key=lambda r: r["wall"])
        print(f"audit: {len(audits)} wheels in {sum(r['wall'] for r in audits):.1f} s wall, "
              f"peak RSS {max(r['rss_mb'] for r in audits):.0f} MB; slowest {slowest['name']} ({slowest['wall']:.1f} s); "
              f"exit 2 on {sum(r['exit'] == 2 for r in audits)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
