#!/usr/bin/env python3
"""The audit's per-release load prediction against the established loads of the wheel corpus.

Usage: bench/corpus_prediction.py --cli build/checker/torch-abi-check [--manifest fixtures/corpus/wheels.toml]

For every [[wheel]] of the manifest and every stored release it was established on, one cell: the
audit predicts a load (every binary of the wheel but those of `not_loadable_here` has `loads`)
and the manifest says whether it loads (`loads_on`, from real loading: establish_wheels.py).
`known_misprediction` is ignored here: a cell agrees or it does not. Prints one line per
disagreement and the agreement; the wheels are fetched like the corpus tests fetch them.
"""

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fixtures" / "corpus"))
from run_corpus_wheel import entry_of, excluded, fetch_wheel, load_manifest, short_release  # noqa: E402


def cells(entry: dict, document: dict) -> list[tuple[str, bool, bool]]:
    """(release, predicted, established) for each release judged and established on."""
    skip = list(entry.get("not_loadable_here", {}).keys())
    binaries = [b for b in document["audit"]["binaries"] if not excluded(entry_of(b["path"]), skip)]
    predicted: dict[str, bool] = {}
    for binary in binaries:
        for release in binary.get("releases") or []:
            short = short_release(release["release"])
            predicted[short] = predicted.get(short, True) and bool(release.get("loads"))
    tried = entry.get("established_on")
    expected = set(entry.get("loads_on", []))
    return [(r, p, r in expected) for r, p in sorted(predicted.items(), key=lambda i: tuple(map(int, i[0].split("."))))
            if tried is None or r in tried]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", required=True, type=Path)
    parser.add_argument("--manifest", type=Path,
                        default=Path(__file__).resolve().parent.parent / "fixtures" / "corpus" / "wheels.toml")
    args = parser.parse_args()
    agree = total = 0
    for entry in load_manifest(args.manifest):
        wheel = fetch_wheel(entry)
        with tempfile.TemporaryDirectory() as work:
            out = Path(work) / "a.json"
            subprocess.run([str(args.cli), "audit", str(wheel), "--json", str(out)], capture_output=True)
            document = json.loads(out.read_text())
        for release, predicted, established in cells(entry, document):
            total += 1
            agree += predicted == established
            if predicted != established:
                print(f"{entry['name']}-{entry['version']} on {release}: predicted "
                      f"{'loads' if predicted else 'no load'}, established {'loads' if established else 'no load'}")
    print(f"agreement: {agree} of {total} cells ({100.0 * agree / max(total, 1):.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
