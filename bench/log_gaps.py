"""Runs a command as a CI job does, its output going to a log that is no terminal, and says how long
the log stayed quiet: the longest gap between two lines (and from the start to the first line, and
from the last line to the end), with the lines around it. Issue 29 asks for a line at least every
30 s from the long commands (`bash ci/main.sh`, `matrix`, `check`, `canary`).

Usage: python3 bench/log_gaps.py [--log FILE] [--limit S] -- COMMAND [ARG...]
  --log FILE   also keep the stamped log (seconds since the start, then the line)
  --limit S    exit 1 when a gap is longer than S seconds (default 30)
Exit: the command's own failure is reported, not inherited: 0 when no gap is over the limit.
"""

import argparse
import subprocess
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log")
    parser.add_argument("--limit", type=float, default=30.0)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    command = options.command[1:] if options.command[:1] == ["--"] else options.command
    if not command:
        parser.error("no command given")

    started = time.monotonic()
    stamped: list[tuple[float, str]] = []
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT) as process:
        for raw in process.stdout:
            stamped.append((time.monotonic() - started, raw.decode(errors="replace").rstrip("\n")))
    ended = time.monotonic() - started

    if options.log:
        with open(options.log, "w", encoding="utf-8") as log:
            for seconds, line in stamped:
                log.write(f"{seconds:9.1f}  {line}\n")

    moments = [0.0] + [seconds for seconds, _ in stamped] + [ended]
    gaps = [(moments[i + 1] - moments[i], i) for i in range(len(moments) - 1)]
    longest, where = max(gaps)
    before = stamped[where - 1][1] if where >= 1 else "(start)"
    after = stamped[where][1] if where < len(stamped) else "(end)"
    over = sum(1 for gap, _ in gaps if gap > options.limit)
    print(f"command exit {process.returncode}; {len(stamped)} lines in {ended:.0f} s; "
          f"longest quiet stretch {longest:.1f} s; {over} over {options.limit:.0f} s")
    print(f"  after:  {before[:160]}")
    print(f"  before: {after[:160]}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
