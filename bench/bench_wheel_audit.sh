#!/usr/bin/env bash
# The audit of a published wheel as the .whl itself against the same audit of the unpacked tree and
# against unzip + torch-abi-audit 0.3.0 (the peer cannot read a .whl; its venv comes from
# compare_peers.py). Per wheel: CPU (user + system), wall and peak RSS from /usr/bin/time -v, and the
# ratios the issue's goals are about (issue 19: .whl >= 10x less CPU than unzip + peer, within 2x of
# the tree, peak RSS <= 200 MB). Wheels: those named, else /tmp/wheels and /tmp/wheels/probe when
# present, else the set below downloaded into the cache. --baseline CLI adds that build's .whl audit
# (e.g. the build before a change) as a column. CPU comes from getrusage of the children (best of
# --repeat runs for wheels under 100 MB, one run above), peak RSS from /usr/bin/time -v.
#   bash bench/bench_wheel_audit.sh [--cli build/checker/torch-abi-check] [--baseline CLI] [--cache DIR]
#                                   [--repeat 3] [WHEEL...]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cli="$root/build/checker/torch-abi-check"
cache="$HOME/.cache/torch-abi-check/bench-wheels"
baseline=""
repeat=3
while [[ $# -gt 0 && "$1" == --* ]]; do
  case "$1" in
    --cli) cli="$2"; shift 2 ;;
    --cache) cache="$2"; shift 2 ;;
    --baseline) baseline="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    *) echo "bench_wheel_audit: unknown option $1" >&2; exit 2 ;;
  esac
done
exec python3 - "$root" "$cli" "$cache" "$baseline" "$repeat" "$@" <<'PY'
import pathlib, re, resource, shutil, subprocess, sys, tempfile, time
root, cli, cache = pathlib.Path(sys.argv[1]), sys.argv[2], pathlib.Path(sys.argv[3])
baseline, repeat = sys.argv[4], int(sys.argv[5])
sys.path.insert(0, str(root / "bench"))
import compare_peers  # noqa: E402  (the peer's venv)

DOWNLOAD = ["xformers==0.0.35", "torchvision==0.29.2", "torchaudio==2.9.1", "torchcodec==0.17.0",
            "fbgemm-gpu==1.9.0", "sgl-kernel==0.3.21"]
venv = compare_peers.prepare_peers(cache)
wheels = [pathlib.Path(w) for w in sys.argv[6:]]
if not wheels:
    local = [p for d in ("/tmp/wheels", "/tmp/wheels/probe") for p in sorted(pathlib.Path(d).glob("*linux*.whl"))]
    wheels = local
if not wheels:
    target = cache / "wheels"
    target.mkdir(parents=True, exist_ok=True)
    for requirement in DOWNLOAD:
        subprocess.run([str(venv / "bin" / "pip"), "download", "--no-deps", "-q", "-d", str(target),
                        *compare_peers.PLATFORM, requirement], check=True)
    wheels = sorted(target.glob("*.whl"))


def measured(argv, runs):
    """(CPU s, wall s, peak RSS MB) of argv, best of `runs`; the exit code is not judged."""
    best = None
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        run = subprocess.run(["/usr/bin/time", "-v", *argv], capture_output=True, text=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", run.stderr).group(1)) / 1024
        figures = (cpu, wall, rss)
        best = figures if best is None or cpu < best[0] else best
    return best


rows = []
with tempfile.TemporaryDirectory() as temp:
    for wheel in wheels:
        runs = repeat if wheel.stat().st_size < 100e6 else 1
        tree = pathlib.Path(temp) / wheel.stem
        whl = measured([cli, "audit", str(wheel), "--json", "/dev/null"], runs)
        before = measured([baseline, "audit", str(wheel), "--json", "/dev/null"], runs) if baseline else None
        unzip = measured(["unzip", "-q", "-o", str(wheel), "-d", str(tree)], 1)
        unpacked = measured([cli, "audit", str(tree), "--json", "/dev/null"], runs)
        peer = measured([str(venv / "bin" / "torch-abi-audit"), "--json", str(tree)], runs)
        shutil.rmtree(tree)
        rows.append((wheel.name, wheel.stat().st_size / 1e6, whl, before, unpacked, unzip, peer))
        print(f"{wheel.name}: done", file=sys.stderr)


def cell(figures):
    return f"{figures[0]:.3f} / {figures[1]:.2f} s, {figures[2]:.0f} MB"


print(f"CPU (user + system) / wall, peak RSS; best of {repeat} runs under 100 MB, one run above")
print()
print("| wheel | MB | .whl audit | " + ("baseline .whl audit | " if baseline else "") +
      "tree audit | unzip | torch-abi-audit on tree | (unzip + peer) / .whl CPU | .whl / tree CPU |")
print("|---|---|---|---|---|---|---|---|" + ("---|" if baseline else ""))
for name, size, whl, before, unpacked, unzip, peer in rows:
    versus_peer = (unzip[0] + peer[0]) / whl[0]
    versus_tree = whl[0] / unpacked[0]
    print(f"| {name} | {size:.0f} | {cell(whl)} | " + (f"{cell(before)} | " if before else "") +
          f"{cell(unpacked)} | {unzip[0]:.3f} / {unzip[1]:.2f} s | {cell(peer)} | {versus_peer:.1f}x | {versus_tree:.1f}x |")
PY
