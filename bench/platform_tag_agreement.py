"""Whether the audit's verdict on each manylinux/musllinux tag of a wheel agrees with auditwheel's.

    python3 bench/platform_tag_agreement.py [--tool torch-abi-check] [--auditwheel auditwheel] [--json OUT] WHEEL...

For each wheel it runs `torch-abi-check audit WHEEL --json` (a tag is unmet where a
`platform-tag-unmet` finding names it) and `auditwheel show --json WHEEL`, the reference, whose
verdict on a tag is read from its own output:
  * symbol versions: the tag's glibc is newer than that of `sym_tag`, the oldest systems whose
    symbol versions the wheel fits (PEP 600: manylinux1 is 2_5, manylinux2010 2_12, manylinux2014 2_17);
  * `policy_upgrades[<tag's policy>]`: its `blacklisted_symbols`, and its `libs_to_eliminate` other
    than those something besides the system brings (torch's own libraries, the device runtime's,
    libpython), which auditwheel cannot tell from a library the system lacks.
Prints one line per (wheel, tag) and a summary; exits 1 when any disagrees, 2 when a tool fails."""

import argparse
import json
import pathlib
import re
import subprocess
import sys
import tempfile

LEGACY = {"manylinux1": (2, 5), "manylinux2010": (2, 12), "manylinux2014": (2, 17)}
MACHINES = ("x86_64", "aarch64")
DEVICE = re.compile(r"^lib(cuda|cudart|cublas|cublasLt|cufft|curand|cusolver|cusparse|cusparseLt|cudnn|nccl|nvrtc|"
                    r"nvJitLink|nvToolsExt|nvtx|cupti|cufile|amdhip64|hip|rocm|roc|MIOpen|rccl|hsa)")


def split_tag(tag):
    """'manylinux_2_28_x86_64' -> ('manylinux', (2, 28), 'x86_64'); None for another platform."""
    for machine in MACHINES:
        if not tag.endswith("_" + machine):
            continue
        name = tag[: -len(machine) - 1]
        if name in LEGACY:
            return "manylinux", LEGACY[name], machine
        found = re.fullmatch(r"(manylinux|musllinux)_(\d+)_(\d+)", name)
        if found:
            return found[1], (int(found[2]), int(found[3])), machine
    return None


def policy_name(family, version):
    return f"{family}_{version[0]}_{version[1]}"


def brought_by_other_than_the_system(library):
    return (library.startswith(("libtorch", "libc10", "libshm", "libcaffe2", "libpython", "ld-linux"))
            or bool(DEVICE.match(library)))


def auditwheel_unmet(report, family, version, machine):
    """The reasons auditwheel's report gives against the tag; empty when it fits."""
    reasons = []
    sym = split_tag(report["sym_tag"])
    if sym is None or (sym[0] == family and version < sym[1]):
        reasons.append(f"symbol versions fit {report['sym_tag']}")
    upgrade = report.get("policy_upgrades", {}).get(f"{policy_name(family, version)}_{machine}", {})
    libraries = [lib for lib in upgrade.get("libs_to_eliminate", []) if not brought_by_other_than_the_system(lib)]
    if libraries:
        reasons.append("libraries " + ", ".join(libraries))
    if upgrade.get("blacklisted_symbols"):
        reasons.append("blacklisted " + json.dumps(upgrade["blacklisted_symbols"]))
    return reasons


def audit_unmet(tool, wheel):
    with tempfile.TemporaryDirectory() as scratch:
        out = pathlib.Path(scratch) / "audit.json"
        run = subprocess.run([tool, "audit", str(wheel), "--json", str(out)], capture_output=True, text=True)
        if run.returncode not in (0, 1) or not out.exists():
            raise RuntimeError(f"{tool} audit {wheel}: exit {run.returncode}: {run.stderr.strip()[-400:]}")
        findings = json.loads(out.read_text())["verdict"]["findings"]
    unmet = {}
    for finding in findings:
        if finding["kind"] == "platform-tag-unmet":
            tag = finding["message"].split()[1].rstrip(",")
            unmet.setdefault(tag, []).append(finding["message"])
    return unmet


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", default="torch-abi-check")
    parser.add_argument("--auditwheel", default="auditwheel")
    parser.add_argument("--json", type=pathlib.Path)
    parser.add_argument("wheels", nargs="+", type=pathlib.Path)
    args = parser.parse_args()
    rows = []
    for wheel in args.wheels:
        tags = [t for t in wheel.name[: -len(".whl")].split("-")[-1].split(".") if split_tag(t)]
        if not tags:
            rows.append({"wheel": wheel.name, "tag": None, "skipped": "no manylinux or musllinux tag"})
            continue
        shown = subprocess.run([args.auditwheel, "show", "--json", str(wheel)], capture_output=True, text=True)
        try:
            report = json.loads(shown.stdout)
        except json.JSONDecodeError:
            report = {"error": shown.stderr.strip()[-300:]}
        if "error" in report:
            rows.append({"wheel": wheel.name, "tag": None, "skipped": f"auditwheel show: {report['error']}"})
            continue
        if report.get("pure"):
            rows.append({"wheel": wheel.name, "tag": None, "skipped": "auditwheel: pure"})
            continue
        try:
            ours = audit_unmet(args.tool, wheel)
        except RuntimeError as error:
            print(error, file=sys.stderr)
            return 2
        for tag in tags:
            reference = auditwheel_unmet(report, *split_tag(tag))
            rows.append({"wheel": wheel.name, "tag": tag, "auditwheel_unmet": reference,
                         "audit_unmet": ours.get(tag, []),
                         "agree": bool(reference) == bool(ours.get(tag))})
    judged = [row for row in rows if row.get("tag")]
    disagree = [row for row in judged if not row["agree"]]
    for row in rows:
        if not row.get("tag"):
            print(f"skip  {row['wheel']}: {row['skipped']}")
        else:
            state = "agree" if row["agree"] else "DISAGREE"
            print(f"{state:8} {row['wheel']} {row['tag']}: auditwheel {'unmet' if row['auditwheel_unmet'] else 'fits'}"
                  f"{' (' + '; '.join(row['auditwheel_unmet']) + ')' if row['auditwheel_unmet'] else ''}, "
                  f"audit {'unmet' if row['audit_unmet'] else 'fits'}"
                  f"{' (' + ' | '.join(row['audit_unmet']) + ')' if not row['agree'] and row['audit_unmet'] else ''}")
    print(f"{len(judged) - len(disagree)} of {len(judged)} (wheel, tag) verdicts agree; "
          f"{sum(bool(r['auditwheel_unmet']) for r in judged)} unmet by auditwheel; "
          f"{len(rows) - len(judged)} wheels skipped")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
