#!/usr/bin/env python3
"""Runs a composite GitHub action's steps on this machine, as a runner would, for tests.

Its `run:` steps run in order with bash, with their `env:` expressions evaluated and
GITHUB_OUTPUT, GITHUB_PATH and RUNNER_TEMP provided; the job stops at the first step that fails.
Its `uses:` steps need GitHub's services (cache, artifacts, code scanning): they are reported as
skipped. Only the expressions the action needs are understood (inputs.NAME, github.action_path,
steps.ID.outputs.NAME); any other is an error, so a test fails when the action outgrows this.

Prints one line per step ("step 'NAME': exit N" or "step 'NAME': skipped (uses X)") and the
outputs of each step ("output ID.NAME=VALUE"). Exit: the code of the failing step, else 0.

Usage: run_action_locally.py ACTION_YML [--input NAME=VALUE]... [--runner-temp DIR]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


class Context:
    def __init__(self, action_dir: Path, inputs: dict[str, str]):
        self.action_dir = action_dir
        self.inputs = inputs
        self.outputs: dict[str, dict[str, str]] = {}

    def value(self, expression: str) -> str:
        if expression == "github.action_path":
            return str(self.action_dir)
        if match := re.fullmatch(r"inputs\.([\w-]+)", expression):
            if match.group(1) not in self.inputs:
                raise ValueError(f"the action has no input '{match.group(1)}'")
            return self.inputs[match.group(1)]
        if match := re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expression):
            return self.outputs.get(match.group(1), {}).get(match.group(2), "")
        raise ValueError(f"expression '{expression}' is not understood here")

    def evaluate(self, text) -> str:
        return EXPRESSION.sub(lambda match: self.value(match.group(1)), str(text))


def read_outputs(path: Path) -> dict[str, str]:
    outputs = {}
    for line in path.read_text().splitlines():
        if "=" in line:
            name, value = line.split("=", 1)
            outputs[name] = value
    return outputs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", type=Path)
    parser.add_argument("--input", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--runner-temp", type=Path)
    args = parser.parse_args()

    action = yaml.safe_load(args.action.read_text())
    inputs = {name: str(spec.get("default", "")) for name, spec in (action.get("inputs") or {}).items()}
    for item in args.input:
        name, value = item.split("=", 1)
        if name not in inputs:
            print(f"{args.action}: no input '{name}'", file=sys.stderr)
            return 2
        inputs[name] = value
    context = Context(args.action.resolve().parent, inputs)
    runner_temp = args.runner_temp or Path(tempfile.mkdtemp(prefix="runner-temp-"))
    runner_temp.mkdir(parents=True, exist_ok=True)
    path_additions: list[str] = []

    for number, step in enumerate(action["runs"]["steps"]):
        name = step.get("name", f"step {number}")
        if "uses" in step:
            print(f"step '{name}': skipped (uses {step['uses']})", flush=True)
            continue
        output_file, path_file = runner_temp / f"output-{number}", runner_temp / f"path-{number}"
        output_file.write_text("")
        path_file.write_text("")
        env = dict(os.environ)
        env.update({name: context.evaluate(value) for name, value in (step.get("env") or {}).items()})
        env.update(GITHUB_OUTPUT=str(output_file), GITHUB_PATH=str(path_file), RUNNER_TEMP=str(runner_temp))
        env["PATH"] = os.pathsep.join(path_additions + [env.get("PATH", "")])
        code = subprocess.run(["bash", "-e", "-c", step["run"]], env=env).returncode
        print(f"step '{name}': exit {code}", flush=True)
        if "id" in step:
            context.outputs[step["id"]] = read_outputs(output_file)
            for key, value in context.outputs[step["id"]].items():
                print(f"output {step['id']}.{key}={value}", flush=True)
        path_additions = [line for line in path_file.read_text().splitlines() if line] + path_additions
        if code != 0:
            return code
    return 0


if __name__ == "__main__":
    sys.exit(main())
