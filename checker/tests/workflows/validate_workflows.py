#!/usr/bin/env python3
"""Validates CI workflow files and composite actions: each parses as YAML with steps, and every
`torch-abi-check ...` command line in their `run:` scripts names subcommands and flags that the
built CLI really has (read from its `--help`). Prints one line per problem; exit 1 if any."""

import argparse
import re
import shlex
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import yaml

SEPARATORS = {";", "&&", "||", "|", "&", "(", ")", "do", "then", "else", "{", "}", "!"}
ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


def parse_help(text):
    """The option names and subcommand names listed in a CLI11 help text."""
    options, subcommands, section = set(), set(), None
    for line in text.splitlines():
        if re.match(r"^\S.*:$", line):
            section = line.rstrip(":").strip().lower()
            continue
        match = re.match(r"^\s+(\S+)", line)
        if not match:
            continue
        if section == "options":
            options.update(name for name in match.group(1).split(",") if name.startswith("-"))
        elif section == "subcommands":
            subcommands.add(match.group(1))
    return options, subcommands


def command_lines(script):
    """The script's logical lines: backslash-newline continuations joined."""
    return script.replace("\\\n", " ").splitlines()


def tokenize(line):
    lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|()")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        return list(lexer)
    except ValueError as error:  # unbalanced quotes in a line that is part of a longer construct
        raise ValueError(f"cannot split '{line}': {error}") from error


def invocations(script):
    """Argument lists of every torch-abi-check command in a shell script (the tokens after it,
    up to the next shell separator)."""
    for line in command_lines(script):
        tokens = tokenize(line)
        at_command_start = True
        for index, token in enumerate(tokens):
            if token in SEPARATORS:
                at_command_start = True
                continue
            if at_command_start and ASSIGNMENT.match(token):
                continue
            if at_command_start and Path(token).name == "torch-abi-check":
                arguments = []
                for argument in tokens[index + 1:]:
                    if argument in SEPARATORS or argument.startswith((">", "<", "2>")):
                        break
                    arguments.append(argument)
                yield line.strip(), arguments
            at_command_start = False


class Cli:
    def __init__(self, executable):
        self.executable = executable

    @lru_cache(maxsize=None)
    def help(self, path):
        result = subprocess.run([self.executable, *path, "--help"], capture_output=True, text=True, timeout=60)
        return parse_help(result.stdout)

    def check(self, arguments):
        """Problems with one invocation: an unknown subcommand or a flag that no level of it has
        (a flag of a parent level counts: the CLI lets options fall through to the parent)."""
        path, known_options = (), set()
        options, subcommands = self.help(path)
        known_options |= options
        previous_was_option = False
        for argument in arguments:
            if argument.startswith("-") and argument != "-":
                flag = argument.split("=", 1)[0]
                if flag not in known_options:
                    yield f"'{' '.join(['torch-abi-check', *path])}' has no option {flag}"
                previous_was_option = "=" not in argument
                continue
            if argument in subcommands:
                path += (argument,)
                options, subcommands = self.help(path)
                known_options |= options
            elif subcommands and not previous_was_option:
                # A level with subcommands takes one before any positional argument.
                yield f"'{' '.join(['torch-abi-check', *path])}' has no subcommand '{argument}'"
                return
            previous_was_option = False
        if not path:
            yield "torch-abi-check is called without a subcommand"


# A workflow step that uses torch-abi-check's own action (ci/action.yml, validated on its own).
OWN_ACTION = re.compile(r"(^|/)torch-abi-check/ci@|^\./ci$")


def steps_of(document):
    """(job, steps) of a workflow's jobs, or ("action", steps) of a composite action."""
    runs = document.get("runs")
    if isinstance(runs, dict):
        if runs.get("using") != "composite":
            raise ValueError("an action that is not composite")
        yield "action", runs.get("steps")
        return
    if "on" not in document and True not in document:  # PyYAML (YAML 1.1) reads the bare key `on` as True
        raise ValueError("no 'on' trigger")
    jobs = document.get("jobs")
    if not isinstance(jobs, dict) or not jobs:
        raise ValueError("no jobs")
    for job_name, job in jobs.items():
        yield job_name, job.get("steps") if isinstance(job, dict) else None


def run_scripts(document):
    """(job, step name, script) of every `run:` step; a step using the project's action is
    (job, name, None)."""
    for job_name, steps in steps_of(document):
        if not isinstance(steps, list) or not steps:
            raise ValueError(f"job '{job_name}' has no steps")
        for step in steps:
            if not isinstance(step, dict) or not ("run" in step or "uses" in step):
                raise ValueError(f"job '{job_name}': a step has neither 'run' nor 'uses'")
            if "run" in step:
                yield job_name, step.get("name", step["run"].splitlines()[0]), step["run"]
            elif OWN_ACTION.search(step["uses"]):
                yield job_name, step.get("name", step["uses"]), None


def validate(path, cli):
    problems, calls = [], 0
    try:
        workflow = yaml.safe_load(Path(path).read_text())
        if not isinstance(workflow, dict):
            raise ValueError("not a mapping")
        for job, step, script in run_scripts(workflow):
            if script is None:
                calls += 1  # through the action, whose own calls are validated in ci/action.yml
                continue
            for line, arguments in invocations(script):
                calls += 1
                problems += [f"{path}: job {job}, step '{step}': {problem} (in: {line})"
                             for problem in cli.check(arguments)]
    except (yaml.YAMLError, ValueError) as error:
        problems.append(f"{path}: {error}")
    return problems, calls


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", required=True, help="the built torch-abi-check")
    parser.add_argument("workflows", nargs="+")
    args = parser.parse_args()
    cli = Cli(args.cli)
    failed = False
    for path in args.workflows:
        problems, calls = validate(path, cli)
        for problem in problems:
            print(problem)
        if calls == 0:
            print(f"{path}: calls torch-abi-check nowhere")
        failed |= bool(problems) or calls == 0
        print(f"{path}: {calls} torch-abi-check calls, {len(problems)} problems")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
