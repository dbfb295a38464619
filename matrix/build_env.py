#!/usr/bin/env python3
"""The environment a project's setup.py runs in, as pip's isolated build sets it up.

pip builds a project in a fresh environment that holds only what its pyproject.toml's
[build-system] requires (setuptools>=40.8.0 where it names nothing, as pip does for a project without
one), fetched from the package index; `check` builds against a stored release, so torch is not fetched:
a requirement of torch is left out and the release's own site-packages is appended to the
environment's path (a .pth file, after the environment's own packages: the build's setuptools wins over
one the release's site-packages may hold).

One environment per (release, requirements), cached under the store root:

    build-envs/<key>/           a virtual environment of the release's Python; <key> hashes the release's
                                site-packages, the Python and the sorted requirements
    build-envs/<key>/ready      written last: an environment without it is unfinished and made again

usage: build_env.py --store ROOT --python RELEASE_PYTHON --site SITE_PACKAGES PROJECT
Prints the environment's python on the last line of stdout; exit 2 with one line on stderr when the
project's pyproject.toml cannot be read or pip cannot install what it requires.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from pip._vendor.packaging.requirements import InvalidRequirement, Requirement
from pip._vendor.packaging.utils import canonicalize_name

from torch_store import StoreError, pip_command, run

# What pip requires for a project that declares no build system (pip's own fallback for setup.py projects).
DEFAULT_REQUIRES = ["setuptools>=40.8.0"]


def build_requires(project: Path) -> list[str]:
    """The project's [build-system] requires, without torch; pip's default where it names none."""
    pyproject = project / "pyproject.toml"
    if not pyproject.is_file():
        return list(DEFAULT_REQUIRES)
    try:
        document = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise StoreError(f"{pyproject}: not a readable pyproject.toml: {error}") from None
    build_system = document.get("build-system", {})
    requires = build_system.get("requires") if isinstance(build_system, dict) else None
    if requires is None:
        return list(DEFAULT_REQUIRES)
    if not isinstance(requires, list) or not all(isinstance(r, str) for r in requires):
        raise StoreError(f"{pyproject}: [build-system] requires is not a list of strings")
    kept = []
    for text in requires:
        try:
            requirement = Requirement(text)
        except InvalidRequirement as error:
            raise StoreError(f"{pyproject}: [build-system] requires {text!r}: {error}") from None
        if canonicalize_name(requirement.name) != "torch":
            kept.append(str(requirement))
    return sorted(kept)


def environment_python(root: Path, release_python: Path, site: Path, requires: list[str]) -> Path:
    key = hashlib.sha256("\n".join([str(release_python), str(site), *requires]).encode()).hexdigest()[:20]
    home = root / "build-envs" / key
    python = home / "bin" / "python"
    if (home / "ready").is_file():
        return python
    home.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f"{key}.", dir=home.parent))
    try:
        run([str(release_python), "-m", "venv", "--without-pip", str(scratch)], what="creating the build environment")
        if requires:
            run(pip_command("install", "--no-warn-script-location", *requires, python=scratch / "bin" / "python"),
                what=f"installing the build requirements ({', '.join(requires)})")
        purelib = subprocess.run([str(scratch / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                                 capture_output=True, text=True, check=True).stdout.strip()
        # Named to sort last: the environment's own packages come first on the path.
        (Path(purelib) / "zz-torch-release.pth").write_text(f"{site}\n")
        (scratch / "ready").write_text(" ".join(requires) + "\n")
        try:
            scratch.rename(home)
        except OSError:  # another check made it first
            if not (home / "ready").is_file():
                raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return python


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--python", type=Path, required=True, help="the release's Python")
    parser.add_argument("--site", type=Path, required=True, help="the release's site-packages (where torch is)")
    parser.add_argument("project", type=Path)
    args = parser.parse_args(argv)
    try:
        requires = build_requires(args.project)
        print(environment_python(args.store, args.python, args.site, requires))
    except StoreError as error:
        print(f"torch-abi-check: error: {error}", file=sys.stderr)
        return 2
    except subprocess.CalledProcessError as error:
        print(f"torch-abi-check: error: the build environment's Python failed: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
