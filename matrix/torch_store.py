#!/usr/bin/env python3
"""The store of real torch releases, installed side by side from PyPI.

Layout under the store root:

    lock                        flock(2) held by every command that changes the store
    releases/<version>/venv     one virtual environment per release, torch installed without deps
    releases/<version>/release.json
                                written last, atomically: a release without it is an interrupted
                                install, never listed, and redone by the next `install`
    cuda/cu<major>/site         the NVIDIA libraries of one CUDA major, shared by every release
                                built for it; cuda.json names the release whose pins it holds
    python/<tag>/<name>-<version>
                                one Python dependency of torch (sympy, networkx, jinja2...) at one
                                version, for one interpreter (tag: cpython-311), its bytecode compiled
                                once; every release that depends on it links its top-level entries
    pip-cache/                  pip's cache for the small pure-Python dependencies

Each release's site-packages holds its Python bytecode, compiled once at install, in parallel,
after pip has installed everything (with --no-compile). Every process the
tool starts imports torch, and without bytecode each import compiles about 1,700 modules from
source: under 2.12.1, `import torch` took 5.8 s of CPU instead of 2.7 s, a package load 26 s instead of 11.
The processes run with PYTHONDONTWRITEBYTECODE, so they only read it.

A release can also be adopted: `adopt PYTHON` records the torch that an existing environment
imports (a GPU machine's own, say) with a release.json that points into that environment. Nothing
is copied, and removing it removes only the record.

Why the CUDA libraries are shared: each torch wheel pins its own NVIDIA wheels (3-4 GB per
CUDA major). NVIDIA keeps those libraries backward compatible within a major (same sonames),
so one set, pinned by the newest release of that major, serves every release built for it.
Each venv links the shared top-level packages into its site-packages, so torch finds them
where its RPATH and its Python preloading look.

Why the Python dependencies are shared: every release from 2.9 to 2.15 installs the same sympy,
networkx, mpmath, jinja2, fsspec... (2,600 of a release's 4,900 modules). pip installs them into the
release's site-packages as usual (it resolves the versions), then each distribution whose files are
its own moves to python/ once, or gives way to the copy already there, and is linked back: the
bytecode of those modules is compiled once for the store, not once a release.

Why triton is left out: nothing here compiles Triton kernels, and importing torch does not
need it; it would add 0.3-0.7 GB per release.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from pip._vendor.packaging.requirements import Requirement
from pip._vendor.packaging.utils import canonicalize_name

from program_loader import program_loader

OLDEST_SUPPORTED = (2, 9)
STORE_ENV = "TORCH_ABI_CHECK_STORE"
RELEASE_MANIFEST = "release.json"
CUDA_MANIFEST = "cuda.json"
SHARED_CUDA_PREFIXES = ("nvidia-", "cuda-toolkit", "cuda-bindings", "cuda-pathfinder")
SKIPPED_REQUIREMENTS = ("triton",)


# What `adopt` asks the environment's own Python: one JSON line.
ADOPT_PROBE = (
    "import json, os, torch; print(json.dumps({'version': torch.__version__, "
    "'torch_dir': os.path.dirname(torch.__file__), 'cuda': torch.version.cuda}))"
)


class StoreError(Exception):
    """The store could not do what was asked; the message is one line for the user."""


def default_store_root() -> Path:
    if os.environ.get(STORE_ENV):
        return Path(os.environ[STORE_ENV])
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "torch-abi-check"


def parse_version(text: str) -> tuple[int, ...]:
    """'2.10' -> (2, 10); '2.10.1' -> (2, 10, 1); '0x020A000000000000' -> (2, 10)."""
    text = text.strip()
    if text.lower().startswith("0x"):
        value = int(text, 16)
        return ((value >> 56) & 0xFF, (value >> 48) & 0xFF)
    if not re.fullmatch(r"\d+\.\d+(\.\d+)?", text):
        raise StoreError(f"'{text}' is not a torch version (expected 2.10, 2.10.0 or 0x020A000000000000)")
    return tuple(int(part) for part in text.split("."))


def version_text(version: tuple[int, ...]) -> str:
    return ".".join(str(part) for part in version)


def is_tty() -> bool:
    return sys.stderr.isatty()


# When the last line was printed: the heartbeat below counts from it, not from the start of a step, since
# several quiet steps of 20 s each in a row left a CI log 40 s without a line (bench/log_gaps.py on the
# main job, 2026-12-02).
_last_line_at = time.monotonic()


def say(message: str) -> None:
    global _last_line_at
    print(message, file=sys.stderr, flush=True)
    _last_line_at = time.monotonic()


# A log that is no terminal gets a line at least every 30 s while a quiet step (a download of several
# GB, say) runs, so a CI log shows the job is alive and what it is doing: 25 s after the last line, with
# room for a loaded machine's late wake-up. (The environment variable is for the test that sees it.)
HEARTBEAT_S = float(os.environ.get("TORCH_ABI_CHECK_HEARTBEAT_S", "25"))


def run(command: list[str], *, what: str, env: dict | None = None, capture: bool = False) -> str:
    """Runs a command; on failure raises StoreError with the last line it printed. In a terminal its
    output shows there (stdout is returned where `capture`); otherwise it is kept and returned, and a
    heartbeat is printed while it runs."""
    if is_tty():
        result = subprocess.run(command, env=env, text=True, stdout=subprocess.PIPE if capture else None)
        if result.returncode != 0:
            raise StoreError(f"{what} failed (exit {result.returncode})")
        return result.stdout or ""
    started = time.monotonic()
    with tempfile.TemporaryFile(mode="w+") as output:
        process = subprocess.Popen(command, env=env, stdout=output, stderr=subprocess.STDOUT, text=True)
        while True:
            try:
                returncode = process.wait(timeout=max(0.05, HEARTBEAT_S - (time.monotonic() - _last_line_at)))
                break
            except subprocess.TimeoutExpired:
                say(f"store: {what}: still running, {time.monotonic() - started:.0f} s so far")
        output.seek(0)
        text = output.read()
    if returncode != 0:
        tail = text.strip().splitlines()[-1:]
        raise StoreError(f"{what} failed (exit {returncode})" + (f": {tail[0]}" if tail else ""))
    return text


def pip_command(subcommand: str, *args: str, python: Path | None = None) -> list[str]:
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    if python is not None:
        command += ["--python", str(python)]  # pip wants this before the subcommand
    command.append(subcommand)
    if not is_tty():
        command.append("-q")
    return command + list(args)


class TorchSource:
    """Where torch's own wheels come from: PyPI by default, or the user's package index (a URL,
    file:// included) or directories / pages of wheels (pip's --find-links), for example an index
    of CPU-only builds. Torch's dependencies always come from pip's default index."""

    def __init__(self, index_url: str | None = None, find_links: list[str] | None = None):
        self.index_url = index_url
        self.find_links = find_links or []

    def pip_options(self) -> list[str]:
        options = ["--index-url", self.index_url] if self.index_url else []
        for location in self.find_links:
            options += ["--find-links", location]
        return options

    def describe(self) -> str:
        places = ([self.index_url] if self.index_url else []) + self.find_links
        return " and ".join(places) if places else "PyPI"


def parse_available_versions(pip_index_output: str) -> dict[tuple[int, ...], str]:
    """`pip index versions torch` output -> {(2, 10, 0): '2.10.0+cpu', ...}; local labels kept for
    the download pin, pre-releases and other shapes left out."""
    found: dict[tuple[int, ...], str] = {}
    for line in pip_index_output.splitlines():
        if not line.startswith("Available versions:"):
            continue
        for text in line.split(":", 1)[1].split(","):
            text = text.strip()
            match = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)(\+[A-Za-z0-9.]+)?", text)
            if match:
                found.setdefault(tuple(int(part) for part in match.groups()[:3]), text)
    return dict(sorted(found.items()))


def available_versions(source: TorchSource) -> dict[tuple[int, ...], str]:
    """Every torch release the source offers for this Python and platform, oldest first.

    pip's own finder answers, so an index, a file:// index and a directory of wheels are read the
    way the download will read them, and a release without a wheel for this machine is not offered."""
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", "index", "versions", "torch",
               *source.pip_options()]
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    versions = parse_available_versions(result.stdout) if result.returncode == 0 else {}
    if not versions:
        last = (result.stdout or "").strip().splitlines()[-1:]
        raise StoreError(f"no torch release found on {source.describe()}" + (f": {last[0]}" if last else ""))
    return versions


def resolve_requested(requested: list[str], source: TorchSource, from_version: str | None = None) -> list[str]:
    """Turns the user's versions into exact releases as the source spells them ('2.10.0',
    '2.10.0+cpu'): the newest patch of a minor, or an exact one; with from_version, the newest patch
    of every minor from that one to the newest; with neither, of every minor from 2.9."""
    offered = available_versions(source)
    oldest = parse_version(from_version)[:2] if from_version else OLDEST_SUPPORTED
    if oldest < OLDEST_SUPPORTED:
        raise StoreError(f"torch {version_text(oldest)} is older than 2.9, the first release with the stable ABI headers this tool checks")
    if not requested:
        newest_patch = {}
        for version, spelled in offered.items():
            if version[:2] >= oldest:
                newest_patch[version[:2]] = spelled
        if not newest_patch:
            raise StoreError(f"no torch release from {version_text(oldest)} on is on {source.describe()}")
        return list(newest_patch.values())
    resolved = {}
    for text in requested:
        wanted = release_of(text)  # "2.10.0+cpu", as a dry run prints it, is 2.10.0
        if wanted[:2] < OLDEST_SUPPORTED:
            raise StoreError(f"torch {version_text(wanted)} is older than 2.9, the first release with the stable ABI headers this tool checks")
        matches = [v for v in offered if v[: len(wanted)] == wanted]
        if not matches:
            raise StoreError(f"torch {text} is not on {source.describe()}")
        resolved[matches[-1]] = offered[matches[-1]]
    return [resolved[version] for version in sorted(resolved)]


def release_of(spelled: str) -> tuple[int, ...]:
    """'2.10.0+cpu' -> (2, 10, 0): the release a wheel's version names."""
    return parse_version(spelled.split("+")[0])


class Store:
    def __init__(self, root: Path):
        self.root = root

    @property
    def releases_dir(self) -> Path:
        return self.root / "releases"

    def release_dir(self, version: tuple[int, ...]) -> Path:
        return self.releases_dir / version_text(version)

    def cuda_dir(self, major: int) -> Path:
        return self.root / "cuda" / f"cu{major}"

    @property
    def python_packages_dir(self) -> Path:
        return self.root / "python" / sys.implementation.cache_tag

    @contextlib.contextmanager
    def locked(self):
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / "lock", "w") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                say(f"store: waiting for another torch-abi-check using {self.root}")
                fcntl.flock(lock, fcntl.LOCK_EX)
            yield

    def installed(self) -> dict[tuple[int, ...], dict]:
        found = {}
        if self.releases_dir.is_dir():
            for entry in self.releases_dir.iterdir():
                manifest = entry / RELEASE_MANIFEST
                if manifest.is_file():
                    data = json.loads(manifest.read_text())
                    found[parse_version(data["version"])] = data
        return dict(sorted(found.items()))

    def install(self, spelled_versions: list[str], source: TorchSource) -> None:
        """Installs each release ('2.10.0', or '2.10.0+cpu' as an index spells it) from the source."""
        spelled = {release_of(text): text for text in spelled_versions}
        versions = sorted(spelled)
        with self.locked():
            for leftover in self.root.glob("download-*"):
                shutil.rmtree(leftover, ignore_errors=True)
            # Newest first: the first release of each CUDA major then pins its shared libraries,
            # and the older ones reuse them instead of reinstalling the set once per release.
            todo = [v for v in sorted(versions, reverse=True) if not (self.release_dir(v) / RELEASE_MANIFEST).is_file()]
            for version in versions:
                if version not in todo:
                    say(f"store: torch {version_text(version)} already installed")
                    self._ensure_bytecode(version)
            # Every wheel first, so that each CUDA major's shared set is installed once for all the
            # releases of the run: installed for the newest alone, it was installed again for each older
            # release that names a package the set lacked (the CUDA 13 set three times in a new
            # machine's run, 2.14.1 and 2.12.1 about 100 s each: bench/HISTORY.md, issue 29).
            with tempfile.TemporaryDirectory(dir=self.root, prefix="download-") as download_dir:
                downloads = {}
                for version in todo:
                    started = time.monotonic()
                    wheel = self._download_torch(spelled[version], source, Path(download_dir))
                    downloads[version] = (wheel, time.monotonic() - started)
                for major, (newest, requirements) in shared_cuda_sets(
                        (version, *read_wheel_facts(wheel)) for version, (wheel, _) in downloads.items()).items():
                    self._ensure_cuda_set(major, newest, requirements)
                for position, version in enumerate(todo, 1):
                    say(f"store: [{position}/{len(todo)}] torch {version_text(version)}")
                    wheel, download_seconds = downloads[version]
                    self._install_release(version, wheel, source, time.monotonic() - download_seconds)
            self._repair_cuda_sets()

    def adopt(self, python: Path) -> None:
        """Records the torch that `python` imports as a release of the store, where it is."""
        started = time.monotonic()
        if not python.is_file():
            raise StoreError(f"{python}: no such Python")
        try:
            probe = subprocess.run([str(python), "-c", ADOPT_PROBE], capture_output=True, text=True)
        except OSError as error:  # not a program: empty, another format, no execute permission
            raise StoreError(f"{python}: cannot be run as a Python: {error.strerror}") from None
        if probe.returncode != 0:
            last = (probe.stderr.strip().splitlines() or ["no output"])[-1]
            raise StoreError(f"{python}: cannot import torch: {last}")
        facts = json.loads(probe.stdout.strip().splitlines()[-1])
        version = release_of(facts["version"])
        if version[:2] < OLDEST_SUPPORTED:
            raise StoreError(f"{python}: torch {facts['version']} is older than "
                             f"{version_text(OLDEST_SUPPORTED)}, the first release with the stable ABI")
        torch_dir = Path(facts["torch_dir"])
        cuda_version = facts["cuda"]
        with self.locked():
            release_dir = self.release_dir(version)
            if (release_dir / RELEASE_MANIFEST).is_file():
                raise StoreError(f"torch {version_text(version)} is already in the store {self.root}")
            release_dir.mkdir(parents=True, exist_ok=True)
            manifest = release_manifest(
                version, python, torch_dir, cuda_version,
                shared_cuda_dir=None,
                disk_bytes=0,  # the files are the environment's, not the store's
                adopted_from=str(python),
                install_seconds=round(time.monotonic() - started, 1),
            )
            write_json_atomically(release_dir / RELEASE_MANIFEST, manifest)
        say(f"store: adopted torch {facts['version']} of {python}")

    def remove(self, version: tuple[int, ...]) -> None:
        with self.locked():
            matches = [v for v in self.installed() if v[: len(version)] == version]
            if not matches:
                raise StoreError(f"torch {version_text(version)} is not installed in {self.root}")
            for match in matches:
                shutil.rmtree(self.release_dir(match))
                say(f"store: removed torch {version_text(match)}")
            self._drop_unused_cuda_sets()
            self._drop_unused_python_packages()

    def _download_torch(self, spelled: str, source: TorchSource, into: Path) -> Path:
        say(f"store: downloading torch {spelled} from {source.describe()}")
        target = into / spelled
        run(
            pip_command("download", "--no-deps", "--no-cache-dir", "--only-binary=:all:", *source.pip_options(),
                        "-d", str(target), f"torch=={spelled}"),
            what=f"downloading torch {spelled}",
        )
        (wheel,) = target.glob("torch-*.whl")
        return wheel

    def _install_release(self, version: tuple[int, ...], wheel: Path, source: TorchSource, started: float) -> None:
        """Installs one release; install_seconds counts from `started` (the download included)."""
        requirements, cuda_version = read_wheel_facts(wheel)
        release_dir = self.release_dir(version)
        if release_dir.exists():
            say(f"store: torch {version_text(version)} was interrupted earlier; installing it again")
            shutil.rmtree(release_dir)
        venv = release_dir / "venv"
        run([sys.executable, "-m", "venv", "--without-pip", str(venv)], what="creating a venv")
        python = venv / "bin" / "python"
        site = next((venv / "lib").glob("python3*/site-packages"))

        pure, shared = split_requirements(requirements)
        cuda_major = int(cuda_version.split(".")[0]) if cuda_version else None
        if cuda_major is not None:
            self._ensure_cuda_set(cuda_major, version, shared)
            link_shared_packages(self.cuda_dir(cuda_major) / "site", site)

        run(pip_command("install", "--no-deps", "--no-compile", str(wheel), python=python),
            what=f"installing the torch {version_text(version)} wheel")
        if pure:
            run(pip_command("install", "--no-compile", "--cache-dir", str(self.root / "pip-cache"), *pure,
                            python=python),
                what=f"installing torch {version_text(version)}'s Python dependencies")
            share_dependencies(python, site, self.python_packages_dir)

        compile_bytecode(python, site, version)
        imported = run(user_machine_argv(python) + ["-c", "import torch; print(torch.__version__)"],
                       what=f"importing torch {version_text(version)}", capture=True,
                       env={**os.environ, "LD_LIBRARY_PATH": "", "LD_PRELOAD": ""}).strip().splitlines()
        reported = imported[-1].split("+")[0] if imported else ""
        if reported != version_text(version):
            raise StoreError(f"torch {version_text(version)} imports as '{reported}'")

        torch_dir = site / "torch"
        manifest = release_manifest(
            version, python, torch_dir, cuda_version,
            shared_cuda_dir=str(self.cuda_dir(cuda_major)) if cuda_major is not None else None,
            disk_bytes=disk_usage(release_dir),
            wheel=wheel.name,
            source=source.describe(),
            install_seconds=round(time.monotonic() - started, 1),
            bytecode=True,
        )
        write_json_atomically(release_dir / RELEASE_MANIFEST, manifest)
        say(f"store: torch {version_text(version)} installed in {manifest['install_seconds']} s")

    def _ensure_bytecode(self, version: tuple[int, ...]) -> None:
        """Gives a release installed before the store compiled bytecode its bytecode. An adopted
        release's files belong to its environment and are left as they are."""
        manifest_file = self.release_dir(version) / RELEASE_MANIFEST
        manifest = json.loads(manifest_file.read_text())
        if manifest.get("bytecode") or manifest.get("adopted_from"):
            return
        compile_bytecode(Path(manifest["python"]), Path(manifest["torch_dir"]).parent, version)
        write_json_atomically(manifest_file, {**manifest, "bytecode": True})

    def _ensure_cuda_set(self, major: int, version: tuple[int, ...], requirements: list[str]) -> None:
        """Makes sure cu<major> holds what every release sharing it asks for: each package any of them
        names, with the extras of all of them, pinned as the newest of them pins it. (Pinning to the
        newest release alone lost a library: torch 2.15's cuda-toolkit extras drop curand, which 2.11
        to 2.14 load.)"""
        cuda_dir = self.cuda_dir(major)
        manifest = cuda_dir / CUDA_MANIFEST
        if manifest.is_file():
            data = json.loads(manifest.read_text())
            pinned_by = parse_version(data["pinned_by"])
            held = merge_shared_requirements(data["requirements"], pinned_by, data["requirements"], pinned_by)
            wanted = merge_shared_requirements(data["requirements"], pinned_by, requirements, version)
            if wanted == held:
                return
            say(f"store: updating the shared CUDA {major} libraries for torch {version_text(version)}")
            pinned_by = max(pinned_by, version)
        else:
            say(f"store: installing the shared CUDA {major} libraries")
            wanted = merge_shared_requirements([], version, requirements, version)
            pinned_by = version
        staging = cuda_dir.with_name(cuda_dir.name + ".new")
        shutil.rmtree(staging, ignore_errors=True)
        # pip's cache (the store's own): a set that grows by one release's extras is reinstalled
        # from the wheels already downloaded, not downloaded again (several GB).
        run(pip_command("install", "--no-compile", "--cache-dir", str(self.root / "pip-cache"), "--target",
                        str(staging / "site"), *wanted),
            what=f"installing the CUDA {major} libraries")
        write_json_atomically(staging / CUDA_MANIFEST, {
            "cuda_major": major,
            "pinned_by": version_text(pinned_by),
            "requirements": wanted,
            "disk_bytes": disk_usage(staging),
        })
        # Swap in one rename each way, so the links of installed releases never point at a half set.
        retired = cuda_dir.with_name(cuda_dir.name + ".old")
        shutil.rmtree(retired, ignore_errors=True)
        if cuda_dir.exists():
            cuda_dir.rename(retired)
        staging.rename(cuda_dir)
        shutil.rmtree(retired, ignore_errors=True)
        # A package new to the set gets its link in every release of the major already installed.
        for data in self.installed().values():
            if data.get("cuda_major") == major and data.get("shared_cuda_dir"):
                link_shared_packages(cuda_dir / "site", Path(data["torch_dir"]).parent)

    def _repair_cuda_sets(self) -> None:
        """Brings the shared sets of a store written before they kept every release's extras up to
        what the installed releases ask for (their Requires-Dist, read from their installed
        metadata), all releases of a CUDA major at once: one reinstall at most."""
        releases = []
        for version, data in self.installed().items():
            if data.get("cuda_major") is None or not data.get("shared_cuda_dir"):
                continue
            metadata = next(Path(data["torch_dir"]).parent.glob("torch-*.dist-info/METADATA"), None)
            if metadata is None:
                continue
            releases.append((version, requirements_of(metadata.read_text()), str(data["cuda_major"])))
        for major, (newest, requirements) in shared_cuda_sets(releases).items():
            self._ensure_cuda_set(major, newest, requirements)

    def _drop_unused_cuda_sets(self) -> None:
        used = {data.get("cuda_major") for data in self.installed().values()}
        cuda_root = self.root / "cuda"
        if cuda_root.is_dir():
            for entry in cuda_root.iterdir():
                if not entry.name.startswith("cu") or entry.name[2:] not in {str(m) for m in used}:
                    shutil.rmtree(entry)
                    say(f"store: removed the unused shared libraries {entry.name}")

    def _drop_unused_python_packages(self) -> None:
        linked = set()
        for data in self.installed().values():
            site = Path(data["torch_dir"]).parent
            if site.is_dir() and not data.get("adopted_from"):
                linked.update(entry.resolve().parent for entry in site.iterdir() if entry.is_symlink())
        shared_root = self.root / "python"
        for package in sorted(shared_root.glob("*/*")):
            if package.resolve() not in linked:
                shutil.rmtree(package)
                say(f"store: removed the unused {package.name}")


def distribution_top_levels(dist_info: Path) -> set[str]:
    """The site-packages entries a distribution installed, by its RECORD (scripts in bin/, its
    metadata and bytecode left out); empty when it has no RECORD."""
    record = dist_info / "RECORD"
    if not record.is_file():
        return set()
    with record.open(newline="") as lines:
        paths = [row[0] for row in csv.reader(lines) if row]
    return {path.split("/", 1)[0] for path in paths
            if not path.startswith("../") and path.split("/", 1)[0] not in (dist_info.name, "__pycache__")}


def share_dependencies(python: Path, site: Path, shared_root: Path) -> None:
    """Replaces each dependency pip installed into `site` (every distribution but torch) by links to
    one copy in `shared_root`/<name>-<version>, which the first release to install that version
    moves there and compiles. A distribution that shares a top-level entry with another (a namespace
    package) stays where pip put it."""
    owners: dict[str, list[Path]] = {}
    entries: dict[Path, set[str]] = {}
    for dist_info in sorted(site.glob("*.dist-info")):
        entries[dist_info] = distribution_top_levels(dist_info)
        for entry in entries[dist_info]:
            owners.setdefault(entry, []).append(dist_info)
    new = []
    for dist_info, tops in entries.items():
        if (dist_info.name.startswith("torch-") or not tops or any(len(owners[top]) > 1 for top in tops)
                or any((site / top).is_symlink() or not (site / top).exists() for top in tops)):
            continue
        shared = shared_root / dist_info.name.removesuffix(".dist-info")
        if shared.is_dir():
            for top in tops:
                if (site / top).is_dir():
                    shutil.rmtree(site / top)
                else:
                    (site / top).unlink()
        else:
            staging = shared.with_name(shared.name + ".new")
            shutil.rmtree(staging, ignore_errors=True)
            staging.mkdir(parents=True)
            for top in tops:
                (site / top).rename(staging / top)
            new.append((staging, shared))
        for top in sorted(tops):
            (site / top).symlink_to(shared / top)
    if new:
        # Compiled where they will be read from (ddir), then moved in whole: a copy in python/ is complete.
        run([str(python), "-c", "import compileall, sys\n"
             "for staging, final in zip(sys.argv[1::2], sys.argv[2::2]):\n"
             "    compileall.compile_dir(staging, ddir=final, quiet=2, workers=0)"]
            + [str(path) for pair in new for path in pair],
            what="compiling the shared Python dependencies' bytecode")
        for staging, shared in new:
            staging.rename(shared)


def read_wheel_facts(wheel: Path) -> tuple[list[str], str | None]:
    """The wheel's Requires-Dist lines and the CUDA version it was built for (None for CPU)."""
    with zipfile.ZipFile(wheel) as archive:
        metadata_name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = archive.read(metadata_name).decode()
        version_py = archive.read("torch/version.py").decode()
    requirements = requirements_of(metadata)
    cuda = re.search(r"^cuda\s*(?::\s*\S+)?\s*=\s*['\"]([\d.]+)['\"]", version_py, re.M)
    return requirements, cuda.group(1) if cuda else None


def user_machine_argv(python: Path) -> list[str]:
    """How to run a release's Python as on a user's machine: through the loader with its cache off,
    so that a CUDA library the release's own wheels fail to bring is not found in this machine's
    toolkit (ld.so.conf's /usr/local/cuda-*) and the install fails here rather than there."""
    loader = program_loader()
    return ([loader, "--inhibit-cache"] if loader else []) + [str(python)]


def requirement_name(requirement: str) -> str:
    return re.match(r"[A-Za-z0-9._-]+", requirement).group(0).lower().replace("_", "-")


def requirements_of(metadata: str) -> list[str]:
    """The Requires-Dist lines of a METADATA file."""
    return [line.split(":", 1)[1].strip() for line in metadata.splitlines() if line.startswith("Requires-Dist:")]


def merge_shared_requirements(kept: list[str], kept_by: tuple[int, ...], added: list[str],
                              added_by: tuple[int, ...]) -> list[str]:
    """The requirements of a shared CUDA set serving the releases behind `kept` and `added`: every
    package either names, with the extras of both, versioned as the newer release versions it. A
    package only the older release names keeps its marker but not its version (torch 2.12 pins
    nvidia-cublas below what 2.15's cuda-toolkit pins: both pins could not be installed together).
    Sorted by name, so that two sets that ask for the same compare equal."""
    older, newer = (kept, added) if kept_by <= added_by else (added, kept)
    newer_names = {canonicalize_name(Requirement(line).name) for line in newer}
    merged: dict[str, tuple[set[str], str, str]] = {}  # name -> (extras, version, marker)
    for lines, from_newer in ((older, False), (newer, True)):
        for line in lines:
            requirement = Requirement(line)
            name = canonicalize_name(requirement.name)
            version = str(requirement.specifier) if from_newer or name in newer_names else ""
            extras = merged.get(name, (set(), "", ""))[0] | requirement.extras
            merged[name] = (extras, version, str(requirement.marker) if requirement.marker else "")
    return [f"{name}{'[' + ','.join(sorted(extras)) + ']' if extras else ''}{version}{'; ' + marker if marker else ''}"
            for name, (extras, version, marker) in sorted(merged.items())]


def shared_cuda_sets(releases) -> dict[int, tuple[tuple[int, ...], list[str]]]:
    """What each CUDA major's shared set must hold to serve all of `releases` ((version, its
    Requires-Dist, its CUDA version or None) each): CUDA major -> (the newest release of it, the
    requirements merged as merge_shared_requirements merges two). A set that holds this serves each of
    those releases as it is: merging any one of them into it changes nothing."""
    wanted: dict[int, tuple[tuple[int, ...], list[str]]] = {}
    for version, requirements, cuda_version in sorted(releases, key=lambda release: release[0]):
        if not cuda_version:
            continue
        major = int(cuda_version.split(".")[0])
        _, shared = split_requirements(requirements)
        newest, folded = wanted.get(major, (version, []))
        wanted[major] = (max(newest, version), merge_shared_requirements(folded, newest, shared, version))
    return wanted


def split_requirements(requirements: list[str]) -> tuple[list[str], list[str]]:
    """(per-release pure-Python requirements, shared CUDA requirements); extras and triton dropped."""
    pure, shared = [], []
    for requirement in requirements:
        if "extra ==" in requirement:
            continue
        name = requirement_name(requirement)
        if name in SKIPPED_REQUIREMENTS:
            continue
        (shared if name.startswith(SHARED_CUDA_PREFIXES) else pure).append(requirement)
    return pure, shared


def link_shared_packages(shared_site: Path, site: Path) -> None:
    for entry in sorted(shared_site.iterdir()):
        if entry.name in ("bin", "__pycache__"):
            continue
        link = site / entry.name
        if not link.exists():
            link.symlink_to(entry)


def disk_usage(path: Path) -> int:
    """Bytes used on disk by the files under path, not following links (shared sets count once)."""
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            file = Path(root) / name
            if not file.is_symlink():
                total += file.lstat().st_blocks * 512
    return total


def compile_bytecode(python: Path, site: Path, version: tuple[int, ...]) -> None:
    """Compiles every module of a release's site-packages with the release's own Python. Linked
    folders (the shared CUDA packages, the shared dependencies: share_dependencies compiles those) are
    skipped, and so are files that do not compile (some packages ship Python 2 examples): nothing
    imports those."""
    say(f"store: compiling torch {version_text(version)}'s Python bytecode")
    run([str(python), "-c", "import compileall, sys; compileall.compile_dir(sys.argv[1], quiet=2, workers=0)",
         str(site)], what=f"compiling torch {version_text(version)}'s bytecode")


def release_manifest(version: tuple[int, ...], python: Path, torch_dir: Path, cuda_version: str | None,
                     **facts) -> dict:
    """A release.json: where the release's files are (what the CLI reads), plus how it came."""
    return {
        "version": version_text(version),
        "python": str(python),
        "torch_dir": str(torch_dir),
        "include_dir": str(torch_dir / "include"),
        "lib_dir": str(torch_dir / "lib"),
        "cuda_major": int(cuda_version.split(".")[0]) if cuda_version else None,
        "cuda_version": cuda_version,
        **facts,
    }


def write_json_atomically(path: Path, data: dict) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    os.replace(temporary, path)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="torch-abi-check store", description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, default=None, help=f"store root (default: ${STORE_ENV}, else $XDG_CACHE_HOME/torch-abi-check)")
    commands = parser.add_subparsers(dest="command", required=True)
    install = commands.add_parser("install", help="install releases (default: newest patch of 2.9 ... newest)")
    install.add_argument("versions", nargs="*")
    install.add_argument("--from", dest="from_version", metavar="VERSION",
                         help="the newest patch of every minor release from VERSION to the newest")
    install.add_argument("--index-url", help="take torch's wheels from this package index (pip's --index-url)")
    install.add_argument("--find-links", action="append", default=[], metavar="DIR_OR_URL",
                         help="take torch's wheels from this directory or page of wheels (pip's --find-links)")
    install.add_argument("--dry-run", action="store_true", help="print the exact releases it would install, one a line")
    adopt = commands.add_parser("adopt", help="record the torch an existing Python imports, where it is")
    adopt.add_argument("python", type=Path)
    remove = commands.add_parser("remove", help="remove an installed release")
    remove.add_argument("version")
    args = parser.parse_args(argv)
    store = Store(args.store or default_store_root())
    try:
        if args.command == "install":
            if args.from_version and args.versions:
                raise StoreError("give versions or --from, not both")
            source = TorchSource(args.index_url, args.find_links)
            wanted = resolve_requested(args.versions, source, args.from_version)
            if args.dry_run:
                print("\n".join(wanted))
            else:
                store.install(wanted, source)
        elif args.command == "adopt":
            store.adopt(args.python.absolute())
        elif args.command == "remove":
            store.remove(parse_version(args.version))
    except StoreError as error:
        say(f"torch-abi-check: error: {error}")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
