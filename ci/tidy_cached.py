#!/usr/bin/env python3
"""Runs clang-tidy on the files whose result is not cached yet, and prints every file's output.

A file's result (clang-tidy's whole output for it) is kept in CACHE_DIR under a key that hashes
everything the result depends on: the file's content, its compile command (compile_commands.json),
the content of every header it includes (ninja's dependency log, `ninja -t deps`, written by the
build), the .clang-tidy file and clang-tidy's version. An unchanged file costs one hash; a changed
header re-checks exactly the files that include it. A file whose headers ninja does not know (not
built yet, or built before its last change) is always checked. --full checks every file. Paths of
the checkout and the build folder are kept as placeholders, so a clone elsewhere reuses the results.

The ledger (--ledger, committed as ci/tidy-results.json) is the same cache carried by the repository:
each file's key and output as of the last `--record`. A new machine, whose cache is empty, checks only
the files whose key differs from the ledger's: what changed since it was recorded, not all of them.
The keys hash the system headers too, so a machine with other compilers' headers checks everything.
--record rewrites the ledger with every file's key and output after the run.

Prints the outputs, cached and new, one after the other (ci/check_style.sh judges them) and, on
stderr, how many files were checked and how many came from the cache.

Usage: tidy_cached.py --clang-tidy EXE --build-dir DIR --cache-dir DIR [--ledger FILE [--record]]
                      [--jobs N] [--full] FILE...
Exit: 0 (findings are in the output), 2 when a file has no compile command, clang-tidy is killed or the
ledger cannot be read.
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# A cached result that no run has used for this long is removed.
STALE_SECONDS = 30 * 24 * 3600


def sha256_of_file(path: Path, memo: dict[Path, str]) -> str:
    if path not in memo:
        try:
            memo[path] = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            memo[path] = "missing"
    return memo[path]


class LedgerError(Exception):
    pass


def read_ledger(path: Path | None) -> dict[str, tuple[str, str]]:
    """The ledger's entries: a file's path (relative to the checkout) to its key and portable output."""
    if path is None or not path.is_file():
        return {}
    try:
        entries = json.loads(path.read_text())
        return {str(file): (str(key), str(output)) for file, (key, output) in entries.items()}
    except (ValueError, TypeError, AttributeError) as error:
        raise LedgerError(f"tidy: {path}: not a ledger of clang-tidy results ({error}); `ci/check_style.sh tidy "
                          "--record` writes it again") from error


def write_ledger(path: Path, entries: dict[str, tuple[str, str]]) -> None:
    """One line per file, sorted, so that two branches touching other files merge without a conflict."""
    lines = [f"{json.dumps(file)}: {json.dumps([key, output])}" for file, (key, output) in sorted(entries.items())]
    partial = path.with_suffix(f".{os.getpid()}.tmp")
    partial.write_text("{\n" + ",\n".join(lines) + "\n}\n")
    partial.replace(path)


def compile_commands(build_dir: Path) -> dict[Path, dict]:
    entries = json.loads((build_dir / "compile_commands.json").read_text())
    return {Path(entry["directory"], entry["file"]).resolve(): without_precompiled_header(entry) for entry in entries}


def without_precompiled_header(entry: dict) -> dict:
    """The command without CMake's precompiled header (checker/CMakeLists.txt): it is GCC's, which clang
    refuses ("not a valid precompiled PCH file"), so clang-tidy reads the headers as the file includes them."""
    arguments = entry.get("arguments") or shlex.split(entry.get("command", ""))
    kept: list[str] = []
    i = 0
    while i < len(arguments):
        if arguments[i] == "-Winvalid-pch":
            i += 1
        elif arguments[i] == "-include" and i + 1 < len(arguments) and Path(arguments[i + 1]).name == "cmake_pch.hxx":
            i += 2
        else:
            kept.append(arguments[i])
            i += 1
    stripped = {key: value for key, value in entry.items() if key != "arguments"}
    stripped["command"] = shlex.join(kept)
    return stripped


def object_file(entry: dict) -> Path | None:
    """The object a compile command writes: its "output" (CMake 3.20 on), else its -o argument."""
    output = entry.get("output")
    if output is None:
        arguments = entry.get("arguments") or shlex.split(entry.get("command", ""))
        output = next((after for before, after in zip(arguments, arguments[1:]) if before == "-o"), None)
    return Path(entry["directory"], output).resolve() if output else None


def ninja_deps(build_dir: Path) -> dict[Path, list[Path]]:
    """Each object's dependencies (its source and every header), absolute; objects whose recorded
    dependencies are older than the object (STALE) are left out."""
    try:
        listed = subprocess.run(["ninja", "-C", str(build_dir), "-t", "deps"], capture_output=True, text=True,
                                check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return {}
    deps: dict[Path, list[Path]] = {}
    current = None
    for line in listed.splitlines():
        if not line.strip():
            current = None
        elif not line.startswith(" "):
            target, _, status = line.partition(": #deps")
            current = (build_dir / target).resolve() if status.rstrip().endswith("(VALID)") else None
            if current is not None:
                deps[current] = []
        elif current is not None:
            deps[current].append((build_dir / line.strip()).resolve())
    return deps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clang-tidy", required=True)
    parser.add_argument("--build-dir", type=Path, required=True)
    parser.add_argument("--cache-dir", type=Path, required=True)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--full", action="store_true", help="check every file, cached or not")
    parser.add_argument("--ledger", type=Path, help="the results carried by the repository (read; --record writes)")
    parser.add_argument("--record", action="store_true", help="write every file's key and output to --ledger")
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()

    build_dir = args.build_dir.resolve()
    root = Path(__file__).resolve().parent.parent

    # Keys and kept outputs name the checkout and the build folder by placeholders, so that a clone
    # elsewhere (CI's) finds the results of an identical tree.
    def portable(text: str) -> str:
        return text.replace(str(build_dir), "@BUILD@").replace(str(root), "@ROOT@")

    def local(text: str) -> str:
        return text.replace("@BUILD@", str(build_dir)).replace("@ROOT@", str(root))

    if args.record and args.ledger is None:
        parser.error("--record needs --ledger")
    try:
        ledger = read_ledger(args.ledger)
    except LedgerError as error:
        print(error, file=sys.stderr)
        return 2

    commands = compile_commands(build_dir)
    deps = ninja_deps(build_dir)
    memo: dict[Path, str] = {}

    def portable_sha256(path: Path) -> str:
        """A generated header of the build folder may name the checkout (a configured path): hashed with
        the placeholders, so that another clone's build gives the same key."""
        if not path.is_relative_to(build_dir):
            return sha256_of_file(path, memo)
        if path not in memo:
            try:
                memo[path] = hashlib.sha256(portable(path.read_text(errors="surrogateescape")).encode(
                    errors="surrogateescape")).hexdigest()
            except OSError:
                memo[path] = "missing"
        return memo[path]

    version = subprocess.run([args.clang_tidy, "--version"], capture_output=True, text=True, check=True).stdout
    config = Path(".clang-tidy").read_bytes() if Path(".clang-tidy").is_file() else b""
    common = hashlib.sha256(version.encode() + b"\0" + config).hexdigest()

    keys: dict[Path, str | None] = {}
    for file in args.files:
        entry = commands.get(file.resolve())
        if entry is None:
            print(f"tidy: {file}: not in {build_dir}/compile_commands.json; configure the build again", file=sys.stderr)
            return 2
        obj = object_file(entry)
        headers = deps.get(obj) if obj is not None else None
        if headers is None:
            keys[file] = None  # what it includes is not known: check it, keep nothing
            continue
        key = hashlib.sha256()
        key.update(common.encode())
        key.update(portable(json.dumps({k: entry[k] for k in sorted(entry) if k != "output"})).encode())
        key.update(sha256_of_file(file, memo).encode())
        # In the order of the portable names: where the checkout sorts among /usr's must not matter.
        for name, header in sorted({portable(str(header)): header for header in headers}.items()):
            key.update(f"\0{name}\0{portable_sha256(header)}".encode())
        keys[file] = key.hexdigest()

    args.cache_dir.mkdir(parents=True, exist_ok=True)
    cached = {file: args.cache_dir / f"{key}.log" for file, key in keys.items() if key is not None}

    def relative(file: Path) -> str:
        return str(file.resolve().relative_to(root)) if file.resolve().is_relative_to(root) else str(file)

    # A result the ledger carries for the same key is as good as one of the local cache: copied into it.
    from_ledger = 0
    for file, key in keys.items():
        entry = ledger.get(relative(file))
        if key is not None and not args.full and not cached[file].is_file() and entry is not None and entry[0] == key:
            partial = cached[file].with_suffix(f".{os.getpid()}.tmp")
            partial.write_text(entry[1])
            partial.replace(cached[file])
            from_ledger += 1
    to_check = [file for file in args.files if args.full or keys[file] is None or not cached[file].is_file()]

    # clang-tidy reads the commands as keyed: without the precompiled header.
    database = tempfile.TemporaryDirectory(prefix="tidy-commands-")
    (Path(database.name) / "compile_commands.json").write_text(json.dumps(list(commands.values())))

    def check(file: Path) -> tuple[Path, str, int]:
        run = subprocess.run([args.clang_tidy, "-p", database.name, "--quiet", str(file)], capture_output=True,
                             text=True, check=False)
        return file, run.stdout + run.stderr, run.returncode

    outputs: dict[Path, str] = {}
    killed = []
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for file, output, code in pool.map(check, to_check):
            outputs[file] = output
            if code < 0:
                killed.append(f"tidy: clang-tidy on {file} was killed by signal {-code}")
            elif file in cached:
                # Written whole, then renamed: a run that stops half-way leaves no partial entry.
                partial = cached[file].with_suffix(f".{os.getpid()}.tmp")
                partial.write_text(portable(output))
                partial.replace(cached[file])
    for file in args.files:
        if file not in outputs:
            outputs[file] = local(cached[file].read_text())
            cached[file].touch()
        sys.stdout.write(outputs[file])
    if args.record and not killed:
        if any(key is None for key in keys.values()):
            print(f"tidy: not recording {args.ledger}: ninja does not know what some files include (build first)",
                  file=sys.stderr)
            return 2
        write_ledger(args.ledger, {relative(file): (keys[file], portable(outputs[file])) for file in args.files})

    now = time.time()
    for entry in args.cache_dir.glob("*.log"):
        if now - entry.stat().st_mtime > STALE_SECONDS:
            entry.unlink(missing_ok=True)
    print(f"tidy: {len(to_check)} of {len(args.files)} files checked ({time.monotonic() - started:.0f} s), "
          f"{len(args.files) - len(to_check)} unchanged from the cache {args.cache_dir} ({from_ledger} of them "
          f"from the ledger {args.ledger})", file=sys.stderr)
    if to_check and args.ledger is not None and not args.record:
        print(f"tidy: `ci/check_style.sh tidy --record` keeps these results in {args.ledger}, so that a new machine "
              "does not check the files again", file=sys.stderr)
    for line in killed:
        print(line, file=sys.stderr)
    return 2 if killed else 0


if __name__ == "__main__":
    sys.exit(main())
