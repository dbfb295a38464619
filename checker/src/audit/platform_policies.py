"""Writes platform_policies.json, the facts the audit judges a wheel's manylinux/musllinux tags by,
from the policy files of an installed auditwheel (the reference tool, PyPI `auditwheel`):

    python3 checker/src/audit/platform_policies.py [PYTHON_WITH_AUDITWHEEL]

Only facts are kept: per policy, its tag and aliases, the libraries a system of the tag has, the
symbol versions of each library family it defines on x86_64 and aarch64 (the machines the audit
reads), and the symbols of a whitelisted library that the tag's systems may lack."""

import json
import pathlib
import subprocess
import sys

MACHINES = ("x86_64", "aarch64")


def version_key(version):
    return [int(part) if part.isdigit() else -1 for part in version.replace("_", ".").split(".")]


def policies(python):
    found = subprocess.run(
        [python, "-c", "import auditwheel, pathlib, importlib.metadata as m; print(m.version('auditwheel')); "
                       "print(pathlib.Path(auditwheel.__file__).parent / 'policy')"],
        check=True, capture_output=True, text=True).stdout.split("\n")
    version, folder = found[0], pathlib.Path(found[1])
    kept = []
    for libc, file_name in (("glibc", "manylinux-policy.json"), ("musl", "musllinux-policy.json")):
        for policy in json.loads((folder / file_name).read_text()):
            if policy["priority"] == 0:
                continue  # plain linux_<arch>: no promise to check
            kept.append({
                "name": policy["name"],
                "aliases": policy["aliases"],
                "libc": libc,
                # musl's libc is named per machine: "libc.so" stands for libc.musl-<machine>.so.1.
                "libraries": sorted({musl_libc for name in policy["lib_whitelist"]
                                     for musl_libc in ([f"libc.musl-{m}.so.1" for m in MACHINES]
                                                       if libc == "musl" and name == "libc.so" else [name])}),
                "symbol_versions": {
                    machine: {family: sorted(versions, key=version_key)
                              for family, versions in sorted(policy["symbol_versions"].get(machine, {}).items())}
                    for machine in MACHINES},
                "missing_symbols": {library: sorted(symbols) for library, symbols in sorted(policy["blacklist"].items())},
            })
    return version, kept


def main():
    python = sys.argv[1] if len(sys.argv) > 1 else sys.executable
    version, kept = policies(python)
    document = {
        "source": f"auditwheel {version}: src/auditwheel/policy/manylinux-policy.json and musllinux-policy.json "
                  "(https://github.com/pypa/auditwheel), rewritten by checker/src/audit/platform_policies.py",
        "policies": kept,
    }
    out = pathlib.Path(__file__).with_name("platform_policies.json")
    out.write_text(json.dumps(document, indent=1) + "\n")


if __name__ == "__main__":
    main()
