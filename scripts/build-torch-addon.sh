#!/usr/bin/env bash
# Builds the `torch` TensorFlow.js backend's addon (native/ → build/torch_backend.node). Called by
# scripts/setup.sh; safe to run by hand. Never fails setup: when the addon cannot be built it says
# why (on stderr and in build/torch_backend.status, which the lab shows when asked for the backend)
# and the lab's default backend order falls through to wasm.
#   LIBTORCH=DIR               build against the libtorch in DIR (DIR/include, DIR/lib; e.g. a PyTorch
#                              install's torch/ folder, CUDA builds included) instead of Debian's libtorch-dev
#   LIBTORCH_CXX11_ABI=0       that libtorch uses the pre-C++11 string ABI (older pip wheels)
#   COMPOSER_LAB_SKIP_TORCH=1  do not build it (the backend then reports why it is missing)
#   COMPOSER_LAB_SKIP_APT=1    do not apt-get install libtorch-dev / g++ / make
# Up to date (same sources, libtorch and Node) it does nothing but hash two files.
set -uo pipefail
cd "$(dirname "$0")/.."
log() { printf '[setup] torch backend: %s\n' "$*" >&2; }
OUT=build/torch_backend.node
STATUS=build/torch_backend.status
STAMP=build/torch_backend.stamp
mkdir -p build

unavailable() {
  rm -f "$OUT" "$STAMP"
  printf '%s\n' "$*" > "$STATUS"
  log "not available: $*"
  log "the lab falls back to the next backend (wasm); see README, 'TensorFlow.js backends'"
  exit 0
}

if [ "${COMPOSER_LAB_SKIP_TORCH:-0}" = 1 ]; then unavailable "not built: COMPOSER_LAB_SKIP_TORCH=1 was set when scripts/setup.sh ran"; fi

stamp="$(cat native/torch_backend.cc native/binding.gyp | sha256sum | cut -c1-16) libtorch=${LIBTORCH:-debian} abi=${LIBTORCH_CXX11_ABI:-1} node=$(node -v)"
if [ -f "$OUT" ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$stamp" ]; then exit 0; fi

# What the build needs: libtorch headers and libraries, a C++ compiler and make (node-gyp's generator).
if [ -n "${LIBTORCH:-}" ]; then
  [ -f "$LIBTORCH/include/ATen/ATen.h" ] || unavailable "LIBTORCH=$LIBTORCH has no include/ATen/ATen.h (point it at a libtorch folder: include/ and lib/)"
  need_apt=(g++ make)
else
  need_apt=(libtorch-dev g++ make)
fi
missing=()
for p in "${need_apt[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "${COMPOSER_LAB_SKIP_APT:-0}" = 1 ]; then unavailable "Debian packages missing: ${missing[*]} (COMPOSER_LAB_SKIP_APT=1: install them yourself)"; fi
  command -v apt-get >/dev/null 2>&1 || unavailable "no apt-get here to install ${missing[*]}: install libtorch (or set LIBTORCH=DIR), a C++ compiler and make"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else unavailable "need root or sudo to apt-get install ${missing[*]}"; fi
  fi
  log "installing ${missing[*]} (apt)"
  export DEBIAN_FRONTEND=noninteractive
  if ! $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >&2; then
    $SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq >&2 || true
    $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >&2 ||
      unavailable "apt-get install ${missing[*]} failed (see the lines above)"
  fi
fi

# node-gyp: npm's own copy (every npm ships one), else one on PATH.
gyp="$(npm root -g 2>/dev/null)/npm/node_modules/node-gyp/bin/node-gyp.js"
if [ -f "$gyp" ]; then gyp=(node "$gyp"); elif command -v node-gyp >/dev/null 2>&1; then gyp=(node-gyp); else unavailable "node-gyp not found (neither in npm's install nor on PATH)"; fi
# Node's headers from its install prefix: no download (nodesource/Debian nodejs ship include/node).
nodedir="${NODEDIR:-$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")}"
[ -f "$nodedir/include/node/node_api.h" ] || unavailable "Node's headers are not at $nodedir/include/node (set NODEDIR to Node's install prefix)"
node -e "require.resolve('node-addon-api')" 2>/dev/null || unavailable "node-addon-api is not installed (npm ci)"

log "compiling native/torch_backend.cc against ${LIBTORCH:-the Debian libtorch-dev} (one job; about 20 s, log: build/torch_backend.log)"
if ! (cd native && nice -n 10 "${gyp[@]}" rebuild --nodedir="$nodedir" -j 1) > build/torch_backend.log 2>&1; then
  unavailable "compiling native/torch_backend.cc failed: $(grep -m3 -E 'error|Error' build/torch_backend.log | tr '\n' ' ' | cut -c1-400) (full log: build/torch_backend.log)"
fi
cp native/build/Release/torch_backend.node "$OUT.tmp" && mv "$OUT.tmp" "$OUT"
if ! check=$(node -e "const a=require('./$OUT'); const i=a.info(); console.log('libtorch ' + i.torch + (i.cuda ? ', CUDA' : ''))" 2>&1); then
  unavailable "the compiled addon does not load: $(printf '%s' "$check" | tail -3 | tr '\n' ' ' | cut -c1-400)"
fi
printf '%s\n' "$stamp" > "$STAMP"
rm -f "$STATUS"
log "built $OUT ($check)"
