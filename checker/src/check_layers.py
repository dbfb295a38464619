#!/usr/bin/env python3
"""Refuses an include that points up or sideways in the layers of checker/src.

    check_layers.py LAYERS_TABLE SOURCE_DIR

LAYERS_TABLE ranks the folders of SOURCE_DIR (one rank per line, lowest first; layers.txt). A source
in a folder may include headers of folders of lower rank only. Prints one line per offending include
(file:line, the include, the rule) and exits 1; exits 2 when the table or the tree cannot be read
(a folder that the table does not rank is such an error: every folder has a place); 0 when clean.
The build runs it at configure and at build time; the ArchitectureLayers tests run it on this tree
and on fixtures/architecture/.
"""

import os
import re
import sys
from pathlib import Path

SOURCE_SUFFIXES = {".h", ".hpp", ".cpp", ".cc", ".inc"}
INCLUDE_LINE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


class LayerError(Exception):
    pass


def shown(path):
    """The path relative to the working directory when it lies inside it (as a user would type it)."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def read_ranks(table):
    ranks = {}
    try:
        lines = table.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise LayerError(f"{shown(table)}: cannot read: {error.strerror}")
    rank = 0
    for number, line in enumerate(lines, start=1):
        folders = line.split("#", 1)[0].split()
        if not folders:
            continue
        for folder in folders:
            if folder in ranks:
                raise LayerError(f"{shown(table)}:{number}: {folder} is ranked twice")
            ranks[folder] = rank
        rank += 1
    if not ranks:
        raise LayerError(f"{shown(table)}: ranks no folder")
    return ranks


def included_folder(include, including_file, source_dir, ranks):
    """The folder of SOURCE_DIR that `include` names (by its first component or by a relative path)."""
    first = include.split("/", 1)[0]
    if first in ranks and "/" in include:
        return first
    target = Path(os.path.normpath(including_file.parent / include))
    try:
        return target.relative_to(source_dir).parts[0]
    except (ValueError, IndexError):
        return None


def violations(ranks, source_dir, table):
    by_rank = {}
    for folder, rank in ranks.items():
        by_rank.setdefault(rank, []).append(folder)
    found = []
    folders = sorted(entry for entry in source_dir.iterdir() if entry.is_dir() and not entry.name.startswith((".", "__")))
    for folder in folders:
        if folder.name not in ranks:
            raise LayerError(f"{shown(folder)}: not ranked in {shown(table)}; give the folder its layer there")
    for folder in folders:
        own_rank = ranks[folder.name]
        lower = [name for rank in sorted(by_rank) if rank < own_rank for name in by_rank[rank]]
        for source in sorted(folder.rglob("*")):
            if source.suffix not in SOURCE_SUFFIXES or not source.is_file():
                continue
            for number, line in enumerate(source.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                match = INCLUDE_LINE.match(line)
                if not match:
                    continue
                target = included_folder(match.group(1), source, source_dir, ranks)
                if target is None or target == folder.name or target not in ranks or ranks[target] < own_rank:
                    continue
                direction = "up" if ranks[target] > own_rank else "sideways"
                rule = (f"{folder.name} may include only {', '.join(lower)}" if lower
                        else f"{folder.name} is the lowest layer and includes no other folder")
                found.append(f'{shown(source)}:{number}: #include "{match.group(1)}" points {direction} '
                             f"({folder.name} -> {target}): {rule} (layers: {shown(table)})")
    return found


def main(argv):
    if len(argv) != 3:
        print("usage: check_layers.py LAYERS_TABLE SOURCE_DIR", file=sys.stderr)
        return 2
    table, source_dir = Path(argv[1]), Path(argv[2])
    try:
        if not source_dir.is_dir():
            raise LayerError(f"{shown(source_dir)}: not a directory")
        found = violations(read_ranks(table), source_dir.resolve(), table)
    except LayerError as error:
        print(f"check_layers: {error}", file=sys.stderr)
        return 2
    for line in found:
        print(line, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
