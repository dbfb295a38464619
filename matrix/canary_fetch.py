"""Gets the packages of a canary spec ready to load: each wheel downloaded (or taken from a path),
checked, hashed and unpacked once into the cache, and their non-torch dependencies installed once
into one shared directory. torch-abi-check canary runs it with the host Python (it needs pip).

Usage: python canary_fetch.py --cache DIR --request FILE.json --result FILE.json

The request: {"packages": [{"key": "xformers", "source": "index"|"wheel"|"directory",
"spec": "xformers==0.0.35" | PATH, "sha256": HEX or absent}], "index_url": URL or null,
"find_links": DIR or null}. The result lists, per key, either the package's facts (name, version,
wheel, sha256, unpacked, requires_torch, modules, dependencies) or its problem (one line). Exit
status 0 unless the script itself failed; a package that could not be got is a problem in the
result, not an error.

A user's fresh environment: each package's declared dependencies (Requires-Dist, markers evaluated;
never torch, triton or nvidia-*, which come with the release) are really installed, level by level
with --no-deps, into a directory of that package's own, cached by the content of what it asks for
(`dependencies/<hash>/`): a warm run installs nothing. Where there is no wheel, pip builds the
source distribution, as a user's pip does; a dependency that still cannot be installed is left out
and named (`missing`): the cells then show what its absence does. The cells put it on the path
after the release's own site-packages, so a distribution the release already has is the release's,
as pip would leave it.
"""

import argparse
import email.parser
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from pip._vendor.packaging.requirements import InvalidRequirement, Requirement
from pip._vendor.packaging.tags import sys_tags
from pip._vendor.packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename

# Never installed into the shared directory: torch comes from the release under test, and these
# come with it (its CUDA libraries, its compiler).
PROVIDED_BY_THE_RELEASE = ("torch", "triton", "pytorch-triton")
PROVIDED_PREFIXES = ("nvidia-",)
CHUNK = 1 << 20


class Problem(Exception):
    """A package that cannot be got ready: the message is the one line the report shows."""


def sha256_of(path: Path) -> str:
    """The wheel's hash, remembered beside it by size and mtime so a warm run reads no wheel."""
    stat = path.stat()
    memo = path.with_name(path.name + ".sha256.json")
    try:
        recorded = json.loads(memo.read_text())
        if recorded["size"] == stat.st_size and recorded["mtime_ns"] == stat.st_mtime_ns:
            return recorded["sha256"]
    except (OSError, ValueError, KeyError):
        pass
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while block := stream.read(CHUNK):
            digest.update(block)
    try:
        write_json_atomically(memo, {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "sha256": digest.hexdigest()})
    except OSError:
        pass  # a read-only directory of the user's wheels: hash again next time
    return digest.hexdigest()


def write_json_atomically(path: Path, data) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(data, indent=1, sort_keys=True))
    os.replace(temporary, path)


def check_platform(wheel: Path) -> None:
    try:
        _, _, _, tags = parse_wheel_filename(wheel.name)
    except InvalidWheelFilename as error:
        raise Problem(f"{wheel}: not a wheel file name ({error})")
    supported = set(sys_tags())
    if not any(tag in supported for tag in tags):
        shown = ", ".join(sorted(str(tag) for tag in tags))
        raise Problem(f"{wheel}: built for {shown}, which this Python ({sys.version.split()[0]}, Linux) cannot load")


def pip_sources(index_url: str | None, find_links: str | None) -> list[str]:
    """The package index and a local folder of wheels, as the spec gives them, for pip."""
    options = ["--index-url", index_url] if index_url else []
    return options + (["--find-links", find_links] if find_links else [])


def download(spec: str, downloads: Path, sources: list[str]) -> Path:
    """`name==version` from the index, once: a wheel already downloaded for it is reused."""
    try:
        requirement = Requirement(spec)
    except InvalidRequirement as error:
        raise Problem(f"{spec}: not a requirement ({error})")
    pinned = [s.version for s in requirement.specifier if s.operator == "=="]
    name = canonicalize_name(requirement.name).replace("-", "_")
    if pinned:
        supported = set(sys_tags())
        for existing in sorted(downloads.glob("*.whl")):
            wheel_name, wheel_version, _, tags = parse_wheel_filename(existing.name)
            if (canonicalize_name(wheel_name).replace("-", "_") == name and str(wheel_version) == pinned[0]
                    and any(tag in supported for tag in tags)):
                return existing
    staging = Path(tempfile.mkdtemp(prefix="download-", dir=downloads))
    try:
        command = [sys.executable, "-m", "pip", "--disable-pip-version-check", "download", "--no-deps",
                   "--only-binary=:all:", "--progress-bar", "off", "--quiet", "-d", str(staging), spec, *sources]
        completed = subprocess.run(command, capture_output=True, text=True)
        if completed.returncode != 0:
            lines = [line for line in completed.stderr.splitlines() if line.startswith("ERROR")]
            raise Problem(f"{spec}: could not download: {lines[-1] if lines else completed.stderr.strip()[-300:]}")
        wheels = list(staging.glob("*.whl"))
        if len(wheels) != 1:
            raise Problem(f"{spec}: pip gave no wheel for this platform and Python")
        target = downloads / wheels[0].name
        os.replace(wheels[0], target)
        return target
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def read_metadata(archive: zipfile.ZipFile, wheel: Path):
    metadata = [n for n in archive.namelist() if n.count("/") == 1 and n.endswith(".dist-info/METADATA")]
    if len(metadata) != 1:
        raise Problem(f"{wheel}: not a wheel (no single .dist-info/METADATA)")
    message = email.parser.Parser().parsestr(archive.read(metadata[0]).decode("utf-8", "replace"))
    return message, metadata[0].split("/")[0]


def portion_package(name: str, distribution: str, entries: list[str]) -> str:
    """A top folder without __init__.py is a portion of a package another distribution owns
    (featomic-torch ships featomic/torch/ into featomic's `featomic`): importing the folder's name
    imports the owner's package, not this wheel's code. Where the distribution's own name, dotted,
    is a package of the wheel (featomic-torch: featomic/torch/__init__.py), that is what a user
    imports; otherwise the name stays."""
    if f"{name}/__init__.py" in entries:
        return name
    dotted = re.sub(r"[-_.]+", ".", distribution).lower()
    if dotted.startswith(f"{name}.") and f"{dotted.replace('.', '/')}/__init__.py" in entries:
        return dotted
    return name


def top_level_modules(archive: zipfile.ZipFile, dist_info: str, distribution: str = "") -> list[str]:
    """The import names the wheel provides: top_level.txt where present (only the names the wheel
    really ships: torchcodec 0.17.0 lists a FAKE_NAME), else its top folders; a folder that is a
    portion of another distribution's package by the package it names (portion_package)."""
    entries = archive.namelist()
    try:
        names = archive.read(f"{dist_info}/top_level.txt").decode().split()
        shipped = sorted({name for name in names if any(
            entry.startswith(f"{name}/") or entry == f"{name}.py" or
            (entry.startswith(f"{name}.") and entry.endswith(".so")) for entry in entries)})
        if shipped:
            return sorted({portion_package(name, distribution, entries) for name in shipped})
    except KeyError:
        pass
    modules = set()
    for name in archive.namelist():
        head = name.split("/")[0]
        if "/" in name and not head.endswith((".dist-info", ".data", ".libs")):
            if name.split("/")[1] == "__init__.py":
                modules.add(head)
    return sorted(modules)


def unpack_once(wheel: Path, digest: str, unpacked_root: Path) -> Path:
    target = unpacked_root / digest[:24]
    if (target / ".complete").exists():
        return target
    staging = Path(tempfile.mkdtemp(prefix="unpack-", dir=unpacked_root))
    try:
        with zipfile.ZipFile(wheel) as archive:
            for member in archive.infolist():
                destination = (staging / member.filename).resolve()
                if not str(destination).startswith(str(staging.resolve()) + os.sep) and destination != staging:
                    raise Problem(f"{wheel}: unsafe entry name {member.filename!r}")
            archive.extractall(staging)
        for path in staging.rglob("*.so*"):
            path.chmod(path.stat().st_mode | 0o111)
        (staging / ".complete").write_text(digest)
        shutil.rmtree(target, ignore_errors=True)
        os.replace(staging, target)
    except (zipfile.BadZipFile, OSError) as error:
        raise Problem(f"{wheel}: cannot unpack ({error})")
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def prepare_directory(entry: dict) -> dict:
    """An unpacked package used in place: its hash is its listing (names, sizes, mtimes), so an
    edit invalidates its cached cells."""
    root = Path(entry["spec"])
    if not root.is_dir():
        raise Problem(f"{root}: no such directory")
    listing = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.is_file():
            stat = path.stat()
            listing.update(f"{path.relative_to(root)}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    metadata = sorted(root.glob("*.dist-info/METADATA"))
    message = email.parser.Parser().parsestr(metadata[0].read_text(errors="replace")) if metadata else {}
    modules = sorted(p.parent.name for p in root.glob("*/__init__.py"))
    if not modules:
        raise Problem(f"{root}: holds no importable package (no <name>/__init__.py)")
    requires = (message.get_all("Requires-Dist") or []) if metadata else []
    return {
        "key": entry["key"],
        "name": message.get("Name", root.name) if metadata else root.name,
        "version": message.get("Version", "") if metadata else "",
        "wheel": "",
        "sha256": listing.hexdigest(),
        "unpacked": str(root.resolve()),
        "modules": modules,
        "requires": requires,
        "requires_torch": [r for r in requires if canonicalize_name(Requirement(r).name) == "torch"],
    }


def prepare(entry: dict, cache: Path, sources: list[str]) -> dict:
    source, spec = entry["source"], entry["spec"]
    if source == "directory":
        return prepare_directory(entry)
    if source == "index":
        wheel = download(spec, cache / "downloads", sources)
    else:
        wheel = Path(spec)
        if not wheel.is_file():
            raise Problem(f"{wheel}: no such file")
        if not zipfile.is_zipfile(wheel):
            raise Problem(f"{wheel}: not a wheel (not a zip archive)")
    check_platform(wheel)
    digest = sha256_of(wheel)
    if entry.get("sha256") and entry["sha256"].lower() != digest:
        raise Problem(f"{wheel.name}: sha256 {digest} is not the pinned {entry['sha256'].lower()}")
    try:
        with zipfile.ZipFile(wheel) as archive:
            message, dist_info = read_metadata(archive, wheel)
            modules = top_level_modules(archive, dist_info, message["Name"])
    except zipfile.BadZipFile as error:
        raise Problem(f"{wheel}: not a wheel ({error})")
    if not modules:
        raise Problem(f"{wheel}: provides no importable package")
    requires = message.get_all("Requires-Dist") or []
    return {
        "key": entry["key"],
        "name": message["Name"],
        "version": message["Version"],
        "wheel": str(wheel),
        "sha256": digest,
        "unpacked": str(unpack_once(wheel, digest, cache / "unpacked")),
        "modules": modules,
        "requires": requires,
        "requires_torch": [r for r in requires if canonicalize_name(Requirement(r).name) == "torch"],
    }


def applies(requirement: Requirement) -> bool:
    return requirement.marker is None or requirement.marker.evaluate({"extra": ""})


def provided(name: str) -> bool:
    name = canonicalize_name(name)
    return name in PROVIDED_BY_THE_RELEASE or name.startswith(PROVIDED_PREFIXES)


def install_dependencies(package: dict, cache: Path, sources: list[str]) -> dict:
    """The package's own dependency directory: its non-torch dependencies, installed level by level
    with --no-deps so that nothing ever pulls torch or its CUDA libraries in again. Keyed by what it
    asks for and where from, so packages that ask for the same share one and a warm run installs
    nothing."""
    wanted = sorted({str(r) for r in map(Requirement, package["requires"])
                     if applies(r) and not provided(r.name)})
    if not wanted:
        return {"directory": "", "requirements": [], "missing": []}
    key = hashlib.sha256("\n".join([sys.version.split()[0], *sources, *wanted]).encode()).hexdigest()[:24]
    target = cache / "dependencies" / key
    if (target / ".complete").exists():
        missing = json.loads((target / ".missing.json").read_text()) if (target / ".missing.json").exists() else []
        return {"directory": str(target), "requirements": wanted, "missing": missing}
    staging = Path(tempfile.mkdtemp(prefix="deps-", dir=cache / "dependencies"))
    try:
        pending, seen, missing = wanted, set(), []
        while pending:
            seen.update(canonicalize_name(Requirement(r).name) for r in pending)
            if pip_install(staging, pending, sources, "--only-binary=:all:") is not None:
                # One at a time, as pip would: from a source distribution where there is no wheel
                # (a user's pip builds it); what still cannot be installed is left out and named.
                for requirement in pending:
                    error = pip_install(staging, [requirement], sources, "--prefer-binary")
                    if error is not None:
                        missing.append(f"{requirement}: {error}")
            following = set()
            for metadata in staging.glob("*.dist-info/METADATA"):
                message = email.parser.Parser().parsestr(metadata.read_text(errors="replace"))
                for text in message.get_all("Requires-Dist") or []:
                    requirement = Requirement(text)
                    name = canonicalize_name(requirement.name)
                    if applies(requirement) and name not in seen and not provided(name):
                        following.add(str(requirement))
            pending = sorted(following)
        write_json_atomically(staging / ".missing.json", missing)
        (staging / ".complete").write_text("\n".join(wanted))
        shutil.rmtree(target, ignore_errors=True)
        os.replace(staging, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return {"directory": str(target), "requirements": wanted, "missing": missing}


def pip_install(target: Path, requirements: list[str], sources: list[str], binary: str) -> str | None:
    """Installs into `target` without dependencies; None, or pip's last error line."""
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", "install", "--no-deps", "--no-compile",
               binary, "--quiet", "--target", str(target), *requirements, *sources]
    try:
        completed = subprocess.run(command, capture_output=True, text=True, timeout=900)
    except subprocess.TimeoutExpired:
        return "pip did not finish in 900 s"
    if completed.returncode == 0:
        return None
    lines = [line.strip() for line in completed.stderr.splitlines() if line.startswith(("ERROR", "error:"))]
    return lines[-1] if lines else " ".join(completed.stderr.split())[-300:]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", required=True, type=Path)
    parser.add_argument("--request", required=True, type=Path)
    parser.add_argument("--result", required=True, type=Path)
    arguments = parser.parse_args(argv)
    request = json.loads(arguments.request.read_text())
    for folder in ("downloads", "unpacked", "dependencies"):
        (arguments.cache / folder).mkdir(parents=True, exist_ok=True)
    sources = pip_sources(request.get("index_url"), request.get("find_links"))
    ready, problems = [], []
    for entry in request["packages"]:
        try:
            ready.append(prepare(entry, arguments.cache, sources))
        except Problem as problem:
            problems.append({"key": entry["key"], "problem": str(problem)})
    # Another package of the spec is installed as this one's dependency like any other (each row has
    # its own directory, behind the row's own unpacked wheel).
    packages = []
    for package in ready:
        try:
            package["dependencies"] = install_dependencies(package, arguments.cache, sources)
            packages.append(package)
        except Problem as problem:
            problems.append({"key": package["key"], "problem": f"{package['name']} {package['version']}: {problem}"})
    write_json_atomically(arguments.result, {"packages": packages, "problems": problems})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
