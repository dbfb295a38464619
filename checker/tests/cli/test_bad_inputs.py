#!/usr/bin/env python3
"""Every operand of every command given every kind of bad input (issue 46).

The cases are generated, not picked: the commands and their operands come from the CLI's own --help,
where each operand's type says what it names (FILE, DIR, PATH, RELEASE, VERSION, OUT, WORKDIR:
cli/command.h, `Operand`), and each kind has its list of bad values. The rest of each command line is
a valid one (VALID below), so that only the operand under test is wrong. Expected of each case: exit 2,
one line that names the value, within 2 s (no torch process starts in that time), and no report file
left behind. A value of a bad kind that is a valid input of its operand (an empty file of suppressions)
runs as a valid line does (VALID_AS_IT_IS), or is listed as not run with why (NOT_RUN). Prints the table
of commands x kinds, then every miss.

Usage: test_bad_inputs.py CLI [--jobs N]
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "fixtures"
SECONDS = 2.0  # the goal: refused at once
KILL_AFTER = 30.0  # a refusal still running then has started the long work
VALID_RUN_SECONDS = 240.0  # a valid input's run (VALID_AS_IT_IS), two at a time on a 2-core machine

# A valid value of each required operand, and the options that keep a command that wrongly accepts
# its bad operand from doing harm or long work (its own store, caches and outputs in the case's folder).
# "{tmp}" is the case's own folder; "{report}" a valid report document written by `diff`; "{library}" a
# shared object compiled by g++.
VALID = {
    "audit": ({"paths": "{library}"}, []),
    "inventory": ({}, ["--torch", "2.15"]),
    "baseline": ({}, ["--torch", "2.15", "--out", "{tmp}/baseline"]),
    "diff": ({"old": "2.14", "new": "2.15"}, []),
    "timeline": ({}, []),
    "matrix": ({}, ["--cache-dir", "{tmp}/cache", "--sample"]),
    "canary": ({}, ["--cache-dir", "{tmp}/cache", "--torch", "2.15"]),
    "aoti": ({}, ["--cache-dir", "{tmp}/cache", "--torch", "2.15"]),
    "report": ({"inputs": "{report}"}, []),
    "release-gate": ({}, ["--candidate", "2.15", "--cache-dir", "{tmp}/cache", "--sample", "--no-canary", "--no-aoti"]),
    "check": ({"dir": "{fixtures}/check/cmake_ok"}, ["--work-dir", "{tmp}/work"]),
    "ci": ({}, ["--cache-dir", "{tmp}/cache", "--out", "{tmp}/out", "--sample", "--no-canary", "--no-aoti"]),
    "lint extension": ({"path": "{fixtures}/check/cmake_ok"}, []),
    "lint headers": ({}, ["--torch", "2.15"]),
    "store list": ({}, []),
    "store path": ({"version": "2.15"}, []),
    "store remove": ({"version": "9.9"}, ["--store", "{tmp}/store"]),
    "store adopt": ({"python": sys.executable}, ["--store", "{tmp}/store"]),
    "store install": ({}, ["--store", "{tmp}/store", "--dry-run", "--index-url", "file://{tmp}/no-index"]),
}


# Kinds of bad value of each operand kind (KINDS below): name -> how to make it in the case's folder.
def missing(tmp):
    return str(tmp / "missing" / "input")


def write(tmp, name, data):
    path = tmp / name
    path.write_bytes(data)
    return str(path)


def empty_file(tmp):
    return write(tmp, "empty", b"")


def wrong_format(tmp):
    return write(tmp, "garbage", bytes(range(256)) * 4)


def huge_file(tmp):
    path = tmp / "huge"
    with open(path, "wb") as stream:
        stream.truncate(6 << 30)  # sparse: 6 GiB that take no disk
    return str(path)


def directory(tmp):
    (tmp / "a_directory").mkdir()
    return str(tmp / "a_directory")


def link_loop(tmp):
    os.symlink(tmp / "loop_b", tmp / "loop_a")
    os.symlink(tmp / "loop_a", tmp / "loop_b")
    return str(tmp / "loop_a")


def no_permission_file(tmp):
    path = write(tmp, "unreadable", b"x = 1\n")
    os.chmod(path, 0)
    return path


def no_permission_directory(tmp):
    (tmp / "unreadable_dir").mkdir(mode=0)
    return str(tmp / "unreadable_dir")


def not_utf8_name(tmp):
    return os.fsdecode(os.fsencode(str(tmp)) + b"/\xff\xfe.name")


def file_for_directory(tmp):
    return write(tmp, "a_file", b"x\n")


def under_a_file(tmp):
    return str(Path(file_for_directory(tmp)) / "below")


def read_only_directory(tmp):
    (tmp / "read_only").mkdir(mode=0o555)
    return str(tmp / "read_only" / "out")


KINDS = {
    "FILE": {
        "missing": missing,
        "empty": empty_file,
        "wrong format": wrong_format,
        "huge": huge_file,
        "directory for a file": directory,
        "link loop": link_loop,
        "no read permission": no_permission_file,
        "name not UTF-8": not_utf8_name,
    },
    "PATH": {
        "missing": missing,
        "empty": empty_file,
        "wrong format": wrong_format,
        "empty directory": directory,
        "link loop": link_loop,
        "no read permission": no_permission_file,
        "name not UTF-8": not_utf8_name,
    },
    "DIR": {
        "missing": missing,
        "empty directory": directory,
        "file for a directory": file_for_directory,
        "link loop": link_loop,
        "no read permission": no_permission_directory,
        "name not UTF-8": not_utf8_name,
    },
    "RELEASE": {
        "not in the store": lambda tmp: "9.99",
        "not a version": lambda tmp: "two.ten",
        "missing": missing,
        "file for a directory": file_for_directory,
        "empty directory": directory,
        "link loop": link_loop,
    },
    "VERSION": {
        "not a version": lambda tmp: "two.ten",
        "empty": lambda tmp: "",
        "bad hex": lambda tmp: "0xZZ",
    },
    "OUT": {
        "folder missing": missing,
        "directory for a file": directory,
        "under a file": under_a_file,
        "folder not writable": read_only_directory,
    },
    "WORKDIR": {
        "file for a directory": file_for_directory,
        "under a file": under_a_file,
        "folder not writable": read_only_directory,
    },
}

# Values of a bad kind that are valid inputs of that operand: the command runs as with its valid line.
# (command, operand, kind) -> (exit code, words of the output)
VALID_AS_IT_IS = {
    # An empty TOML file of findings or symbols to accept accepts nothing.
    ("lint extension", "--suppressions", "empty"): (0, "0 error(s)"),
    ("lint headers", "--suppressions", "empty"): (1, "[H001]"),
    ("diff", "--suppressions", "empty"): (1, "breaking"),
    ("audit", "--allowlist", "empty"): (0, "valid.so"),
    # An empty directory of baselines is release day: what it lacks is computed from the store.
    ("lint extension", "--baselines", "empty directory"): (0, "no baseline of 2.15"),
}
# Refusals that need the project's build configured first (its sources are known then), not at once.
LATE = {
    ("lint extension", "--root", "empty directory"): "which sources the project has is known once CMake configured it",
    ("release-gate", "--candidate", "not in the store"): "a version not in the store is looked up on PyPI to install",
}
# Valid inputs whose run takes minutes, so not run here: each with why it is valid.
NOT_RUN = {
    ("check", "--config", "empty"): "an empty [tool.torch-abi-check] is the defaults",
    ("check", "--baselines", "empty directory"): "release day (the drill runs it)",
    ("ci", "--baselines", "empty directory"): "release day (the drill runs it)",
    ("diff", "--baselines", "empty directory"): "release day: both baselines computed from the store",
    ("lint headers", "--baselines", "empty directory"): "release day: the earlier baselines computed from the store",
    ("release-gate", "--baselines", "empty directory"): "release day (the drill runs it)",
}

# Flags that contradict each other: each refused at once, like a bad value.
CONTRADICTIONS = [
    ("baseline", ["--torch", "2.15", "--platform-wheel", "{fixtures}/audit/bad/no_objects.whl"]),
    ("store install", ["--store", "{tmp}/store", "2.10", "--from", "2.9"]),
    ("ci", ["--no-canary", "--canary-spec", "{root}/matrix/canary.toml", "--cache-dir", "{tmp}/cache"]),
    ("ci", ["--no-aoti", "--aoti-torch", "2.15", "--cache-dir", "{tmp}/cache"]),
    ("release-gate", VALID["release-gate"][1] + ["--canary-spec", "{root}/matrix/canary.toml"]),
    ("release-gate", VALID["release-gate"][1] + ["--aoti-torch", "2.14"]),
    ("release-gate", ["--candidate", "2.14", "--last", "2.15", "--cache-dir", "{tmp}/cache"]),
    ("matrix", ["{root}/matrix/default.toml", "--spec", "{root}/matrix/default.toml", "--cache-dir", "{tmp}/cache"]),
    ("diff", ["2.14", "2.15", "--json", "-", "--markdown", "-"]),
]

PERMISSION_KINDS = ("no read permission", "folder not writable")

OPERAND_LINE = re.compile(r"^  (\S+?)(?:,\S+)? (FILE|DIR|PATH|RELEASE|VERSION|OUT|WORKDIR)\b(?:.*Excludes: (\S+))?")


def help_of(cli, words):
    return subprocess.run([cli, *words, "--help"], capture_output=True, text=True, check=True).stdout


def commands(cli, words=()):
    """Every runnable command: its words (`lint extension`) and its help text."""
    text = help_of(cli, list(words))
    names = re.findall(r"^  ([a-z][a-z-]*)  ", text.split("Subcommands:")[1], re.M) if "Subcommands:" in text else []
    if not names:
        yield " ".join(words), text
    for name in names:
        yield from commands(cli, [*words, name])


def operands(help_text):
    """(name, kind, positional) of each operand the help lists; the type name says the kind."""
    found = []
    section = None
    for line in help_text.splitlines():
        if line.endswith(":") and not line.startswith(" "):
            section = line
        match = OPERAND_LINE.match(line)
        if match:
            found.append((match.group(1), match.group(2), section == "Positionals:"))
            if match.group(3):
                EXCLUDED.setdefault(match.group(1), set()).add(match.group(3))
    return found


def expand(words, tmp, report):
    return [w.format(tmp=tmp, fixtures=FIXTURES, root=ROOT, report=report, library=report.parent / "valid.so")
            for w in words]


EXCLUDED = {}  # option -> the options that exclude it, from the help's "Excludes:"


def with_operand(command, name, positional, value, tmp, report):
    """The valid command line of `command` with operand `name` given `value` instead of its valid one."""
    positionals, options = VALID[command]
    words = [value if key == name else expand([given], tmp, report)[0] for key, given in positionals.items()]
    if positional and name not in positionals:
        words.append(value)
    options = expand(options, tmp, report)
    for other in EXCLUDED.get(name, ()):  # the valid line's option that the operand excludes goes
        if other in options:
            at = options.index(other)
            takes_value = at + 1 < len(options) and not options[at + 1].startswith("-")
            del options[at : at + 1 + takes_value]
    if not positional:
        if name in options:
            at = options.index(name)
            del options[at : at + 2]
        options += [name, value]
    program = []  # --store is the program's own option: it goes before the command
    if "--store" in options:
        at = options.index("--store")
        program = options[at : at + 2]
        del options[at : at + 2]
    return [*program, *command.split(), *words, *options]


class Case:
    def __init__(self, command, operand, kind, argv, value, tmp, report_file, expected_exit=2, words=None):
        self.command, self.operand, self.kind = command, operand, kind
        self.argv, self.value, self.tmp = argv, value, tmp
        self.report_file, self.expected_exit, self.words = report_file, expected_exit, words
        self.problem = None
        self.seconds = 0.0
        self.output = ""


def shown(value):
    """The value as the tool prints it (bytes that are not UTF-8 as \\xNN)."""
    raw = os.fsencode(value)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return "".join(chr(b) if b < 0x80 else f"\\x{b:02X}" for b in raw)


def run_case(cli, case, drop_privileges):
    argv = [cli, *case.argv]
    if drop_privileges:
        argv = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *argv]
    started = time.monotonic()
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True, cwd=case.tmp)
    try:
        output, _ = process.communicate(timeout=KILL_AFTER if case.expected_exit == 2 else VALID_RUN_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, 9)
        output, _ = process.communicate()
        case.problem = f"still running after {time.monotonic() - started:.0f} s (the work started)"
    case.seconds = time.monotonic() - started
    case.output = output.decode("utf-8", "replace")
    if case.problem:
        return case
    lines = [line for line in case.output.splitlines() if line.strip()]
    if process.returncode < 0:
        case.problem = f"killed by signal {-process.returncode}"
    elif process.returncode != case.expected_exit:
        case.problem = f"exit {process.returncode}, not {case.expected_exit}"
    elif case.expected_exit == 2 and len(lines) != 1:
        case.problem = f"{len(lines)} lines, not one"
    elif case.expected_exit == 2 and "internal error" in case.output:
        case.problem = "an internal error"
    elif case.expected_exit == 2 and case.value is not None and shown(case.value) not in case.output \
            and os.path.basename(shown(case.value)) not in case.output:
        case.problem = "the line does not name the input"
    elif case.words and case.words not in case.output:
        case.problem = f"no '{case.words}'"
    elif case.expected_exit == 2 and case.seconds > SECONDS and (case.command, case.operand, case.kind) not in LATE:
        case.problem = f"took {case.seconds:.1f} s"
    elif case.expected_exit == 2 and case.report_file and os.path.exists(case.report_file):
        case.problem = "left a report file"
    return case


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("cli")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    cli = str(Path(args.cli).resolve())
    # Root reads every file; permission cases run as nobody, who can read the checkout and the CLI.
    drop_for_permissions = os.geteuid() == 0 and shutil.which("setpriv") is not None

    work = Path(tempfile.mkdtemp(prefix="bad-inputs-"))
    os.chmod(work, 0o755)
    report = work / "valid-report.json"
    made = subprocess.run([cli, "diff", "2.14", "2.15", "--json", str(report)], capture_output=True, text=True)
    if made.returncode not in (0, 1) or not report.exists():
        print(f"cannot write a valid report to start from: {made.stdout}{made.stderr}")
        return 1

    library = work / "valid.so"
    subprocess.run(["g++", "-shared", "-fPIC", "-o", str(library), "-x", "c++", "-"],
                   input=b'extern "C" int answer() { return 42; }\n', check=True)
    cases = []
    not_run = []
    not_run_permission = []  # as root without setpriv: root reads and writes everything
    table = {}
    for command, text in commands(cli):
        if command == "store list":
            text += "\n".join(line for line in help_of(cli, []).splitlines() if OPERAND_LINE.match(line))
        if command not in VALID:
            print(f"{command}: no valid command line in VALID: add one so that its operands are tested")
            return 1
        has_json = any(name == "--json" for name, _, _ in operands(text))
        for name, kind, positional in operands(text):
            for kind_name, make in KINDS[kind].items():
                tmp = Path(tempfile.mkdtemp(dir=work))
                os.chmod(tmp, 0o777)
                (tmp / "headers").mkdir()
                value = make(tmp)
                argv = with_operand(command, name, positional, value, tmp, report)
                report_file = None
                if has_json and name != "--json":
                    report_file = str(tmp / "partial.json")
                    argv += ["--json", report_file]
                if kind_name in PERMISSION_KINDS and os.geteuid() == 0 and not drop_for_permissions:
                    not_run_permission.append((command, name, kind_name))
                    continue
                if (command, name, kind_name) in NOT_RUN:
                    not_run.append((command, name, kind_name))
                    continue
                expected = VALID_AS_IT_IS.get((command, name, kind_name), (2, None))
                cases.append(Case(command, name, kind_name, argv, value, tmp, report_file, *expected))
    for command, words in CONTRADICTIONS:
        tmp = Path(tempfile.mkdtemp(dir=work))
        argv = expand(words, tmp, report)
        argv = argv[:2] + command.split() + argv[2:] if argv[0] == "--store" else [*command.split(), *argv]
        cases.append(Case(command, "flags", "contradictory flags", argv, None, tmp, None))

    def run(case):
        drop = drop_for_permissions and case.kind in PERMISSION_KINDS
        if drop:
            subprocess.run(["chmod", "-R", "a+rwX", "--", str(case.tmp)], check=False)
            for path in case.tmp.iterdir():
                if path.name in ("unreadable", "unreadable_dir"):
                    os.chmod(path, 0)
                if path.name == "read_only":
                    os.chmod(path, 0o555)
        return run_case(cli, case, drop)

    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        done = list(pool.map(run, cases))
    elapsed = time.monotonic() - started

    for case in done:
        cell = table.setdefault(case.kind, {}).setdefault(case.command, [0, 0])
        cell[1] += 1
        cell[0] += case.problem is None
    names = sorted({case.command for case in done})
    kinds = list(table)
    width = max(len(n) for n in names)
    print("cases refused as expected, of the cases run: a command (rows) x a kind of bad input (columns)")
    for number, kind in enumerate(kinds, 1):
        print(f"  k{number}: {kind}")
    print(f"{'':{width}} " + " ".join(f"{'k' + str(n):>6}" for n in range(1, len(kinds) + 1)))
    for name in names:
        cells = [f"{table[k][name][0]}/{table[k][name][1]}" if name in table[k] else "-" for k in kinds]
        print(f"{name:{width}} " + " ".join(f"{c:>6}" for c in cells))
    for (command, operand, kind), why in LATE.items():
        print(f"late (not under {SECONDS:.0f} s): {command} {operand} [{kind}]: {why}")
    for command, operand, kind in not_run_permission:
        print(f"not run: {command} {operand} [{kind}]: as root, and no setpriv to run as nobody")
    for command, operand, kind in not_run:
        print(f"not run: {command} {operand} [{kind}]: valid input, {NOT_RUN[(command, operand, kind)]}")
    misses = [case for case in done if case.problem]
    print(f"\n{len(done) - len(misses)} of {len(done)} cases refused as expected "
          f"({len(table)} kinds, {len(names)} commands) in {elapsed:.1f} s; slowest {max(c.seconds for c in done):.2f} s")
    for case in misses:
        first = case.output.strip().splitlines()[:3]
        print(f"MISS {case.command} {case.operand} [{case.kind}]: {case.problem}\n  argv: {' '.join(case.argv)}\n  "
              + "\n  ".join(first))
    subprocess.run(["chmod", "-R", "u+rwX", "--", str(work)], check=False)
    shutil.rmtree(work, ignore_errors=True)
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
