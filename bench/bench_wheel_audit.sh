#!/usr/bin/env bash
# The audit of a published wheel as the .whl itself against the same audit of the unpacked tree and
# against unzip + torch-abi-audit 0.3.0 (the peer cannot read a .whl; its venv comes from
# compare_peers.py). Per wheel: CPU (user + system), wall and peak RSS from /usr/bin/time -v, and the
# ratios the issue's goals are about (issue 19: .whl >= 10x less CPU than unzip + peer, within 2x of
# the tree, peak RSS <= 200 MB). Wheels: those named, else /tmp/wheels and /tmp/wheels/probe when
# present, else the set below downloaded into the cache.
#   bash bench/bench_wheel_audit.sh [--cli build/checker/torch-abi-check] [--cache DIR] [WHEEL...]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cli="$root/build/checker/torch-abi-check"
cache="$HOME/.cache/torch-abi-check/bench-wheels"
while [[ $# -gt 0 && "$1" == --* ]]; do
  case "$1" in
    --cli) cli="$2"; shift 2 ;;
    --cache) cache="$2"; shift 2 ;;
    *) echo "bench_wheel_audit: unknown option $1" >&2; exit 2 ;;
  esac
done
exec python3 - "$root" "$cli" "$cache" "$@" <<'PY'
import pathlib, re, shutil, subprocess, sys, tempfile
root, cli, cache = pathlib.Path(sys.argv[1]), sys.argv[2], pathlib.Path(sys.argv[3])
sys.path.insert(0, str(root / "bench"))
import compare_peers  # noqa: E402  (the peer's venv)

DOWNLOAD = ["xformers==0.0.35", "torchvision==0.29.2", "torchaudio==2.9.1", "torchcodec==0.17.0",
            "fbgemm-gpu==1.9.0", "sgl-kernel==0.3.21"]
venv = compare_peers.prepare_peers(cache)
wheels = [pathlib.Path(w) for w in sys.argv[4:]]
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


def measured(argv):
    """(CPU s, wall s, peak RSS MB) of argv under /usr/bin/time -v; the exit code is not judged."""
    run = subprocess.run(["/usr/bin/time", "-v", *argv], capture_output=True, text=True)
    def field(name):
        return re.search(rf"^\s*{re.escape(name)}.*: (\S+)$", run.stderr, re.M).group(1)
    cpu = float(field("User time")) + float(field("System time"))
    wall = 0.0
    for part in field("Elapsed (wall clock) time").split(":"):
        wall = wall * 60 + float(part)
    return cpu, wall, int(field("Maximum resident set size")) / 1024


def cell(figures):
    return f"{figures[0]:.2f} / {figures[1]:.2f} s, {figures[2]:.0f} MB"


rows = []
with tempfile.TemporaryDirectory() as temp:
    for wheel in wheels:
        tree = pathlib.Path(temp) / wheel.stem
        whl = measured([cli, "audit", str(wheel), "--json", "/dev/null"])
        unzip = measured(["unzip", "-q", "-o", str(wheel), "-d", str(tree)])
        unpacked = measured([cli, "audit", str(tree), "--json", "/dev/null"])
        peer = measured([str(venv / "bin" / "torch-abi-audit"), "--json", str(tree)])
        shutil.rmtree(tree)
        rows.append((wheel.name, wheel.stat().st_size / 1e6, whl, unpacked, unzip, peer))
        print(f"{wheel.name}: done", file=sys.stderr)

print("CPU (user + system) / wall, peak RSS; one run each (/usr/bin/time -v)")
print()
print("| wheel | MB | .whl audit | tree audit | unzip | torch-abi-audit on tree | (unzip + peer) / .whl CPU | .whl / tree CPU |")
print("|---|---|---|---|---|---|---|---|")
for name, size, whl, unpacked, unzip, peer in rows:
    versus_peer = (unzip[0] + peer[0]) / max(whl[0], 0.005)
    versus_tree = whl[0] / max(unpacked[0], 0.005)
    print(f"| {name} | {size:.0f} | {cell(whl)} | {cell(unpacked)} | {unzip[0]:.2f} / {unzip[1]:.2f} s | "
          f"{cell(peer)} | {versus_peer:.1f}x | {versus_tree:.1f}x |")
PY
