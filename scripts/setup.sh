#!/usr/bin/env bash
# One-command, idempotent setup for composer-lab. Called by `npm test` and `npm run demo`
# (their pre-scripts) and safe to run by hand: each step is skipped when already satisfied.
#   COMPOSER_LAB_SKIP_APT=1   skip the Debian packages (you installed them yourself)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
log() { printf '[setup] %s\n' "$*" >&2; }

# Debian packages the lab needs: Jupyter + the kernel machinery for notebooks, pytest + coverage for
# grading Python repos, bubblewrap / docker.io + debootstrap for the sandboxes, chromium + fonts
# for offline PNG export.
APT_PACKAGES=(
  jupyter-notebook jupyter-nbconvert jupyter-client python3-nbclient python3-ipykernel jupyter-console
  python3-pytest python3-pytest-cov python3-coverage python3-torch libopenblas0-pthread
  # an independent reader of the TRL export's JSONL in the tests (lib/export)
  python3-pandas
  bubblewrap docker.io debootstrap chromium fonts-liberation git
  # per-repo Python environments of the task builder (lib/sandbox/pyenv.ts): venv, pip and the build
  # backends Debian ships, so a repo installs editable offline
  python3-venv python3-pip python3-setuptools python3-wheel python3-setuptools-scm python3-hatchling python3-hatch-vcs flit
  # the slurm executor and `cluster up --engine slurm` (Slurm 22.05 started by hand: munged, slurmctld, slurmd)
  slurm-wlm munge
  # the gVisor sandbox kind (lib/sandbox/gvisor.ts: runsc run of an OCI bundle, ptrace platform)
  runsc
  # the behavioural check runs a digest's key-probe calls again on a shifted clock (lib/sandbox/behave.ts RunShift)
  libfaketime
  # the shim preloaded before it so time.sleep stays the interpreter's own (lib/sandbox/harness/faketime-sleep.c)
  gcc libc6-dev
  # the run at home's zone: a tzdata file bound at /etc/localtime (lib/sandbox/machine.ts HOME_ZONES)
  tzdata
  # the allocators a run at home's LD_PRELOAD names, as deployments' images preload them (machine.ts ALLOCATORS)
  libjemalloc2 libtcmalloc-minimal4
  # the locales a run at home's setlocale set-up takes (machine.ts LOCALES; generated below)
  locales
)
# `kubectl create --dry-run=client` checks the k8s manifests offline; Debian's kubectl (1.20) only
# where no kubectl is installed already (another package may own /usr/bin/kubectl).
if ! command -v kubectl >/dev/null 2>&1; then APT_PACKAGES+=(kubernetes-client); fi

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
else
  missing=("${APT_PACKAGES[@]}")
fi

if [ "${#missing[@]}" -gt 0 ] && [ "${COMPOSER_LAB_SKIP_APT:-0}" != 1 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    cat >&2 <<MSG
[setup] This host has no apt-get, so the system packages cannot be installed automatically.
[setup] Install these (or your distribution's equivalents) and run again with COMPOSER_LAB_SKIP_APT=1:
[setup]   Jupyter (notebook, nbconvert, nbclient, ipykernel), python3 with pytest, pytest-cov and coverage,
[setup]   bubblewrap, docker.io and debootstrap (optional: the Docker sandbox), chromium,
[setup]   a TrueType font set (e.g. Liberation).
[setup] Missing here: ${missing[*]}
MSG
    exit 1
  fi
  SUDO=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
      log "need root or sudo to apt-get install: ${missing[*]}"; exit 1; fi
  fi
  log "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq >&2
  $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# The locales a run at home's setlocale set-up takes (lib/sandbox/machine.ts LOCALES), generated into
# /usr/lib/locale's archive, which the sandboxes see read-only with /usr.
for loc in de_DE en_US; do
  if command -v localedef >/dev/null 2>&1 && ! locale -a 2>/dev/null | grep -qix "${loc}.utf8"; then
    if [ "$(id -u)" = 0 ]; then
      log "generating the locale ${loc}.UTF-8"
      localedef -i "$loc" -c -f UTF-8 "${loc}.UTF-8" || log "could not generate ${loc}.UTF-8 (the run at home's locale set-up then sets none)"
    elif command -v sudo >/dev/null 2>&1; then
      sudo localedef -i "$loc" -c -f UTF-8 "${loc}.UTF-8" || log "could not generate ${loc}.UTF-8"
    fi
  fi
done

# The unprivileged host user sandboxed code runs as when the lab runs as root (lib/sandbox/isolation.ts):
# a system account with no home, no shell and no other use. Without it the lab falls back to nobody.
if [ "$(id -u)" = 0 ] && ! getent passwd composer-lab-sandbox >/dev/null 2>&1; then
  log "creating the system user composer-lab-sandbox (sandboxed code runs as it, never as root)"
  useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin composer-lab-sandbox
fi

# The standard library's optimized bytecode (.opt-1.pyc): the grader's run elsewhere runs with
# PYTHONOPTIMIZE=1 (a deployment's -O: asserts stripped), and without it each such run would compile
# every module it imports (≈ 250 ms). Compiled once, where it is missing.
PY_STDLIB=$(/usr/bin/python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])' 2>/dev/null || true)
if [ -n "$PY_STDLIB" ] && [ -w "$PY_STDLIB" ] && [ ! -f "$(/usr/bin/python3 -c 'import importlib.util, asyncio; print(importlib.util.cache_from_source(asyncio.__file__, optimization=1))')" ]; then
  log "compiling the standard library's optimized bytecode ($PY_STDLIB)"
  /usr/bin/python3 -O -m compileall -q -j0 -x '/(test|tests|idlelib|lib2to3|tkinter|turtledemo|ensurepip)/' "$PY_STDLIB" >/dev/null 2>&1 || true
fi

# npm dependencies: `npm ci` when node_modules is absent or older than the lockfile.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund >&2
fi

# The compiled library (dist/, which notebooks load) and the tslab kernel registered
# project-locally (.jupyter/), started from the project root so that notebooks import
# `composer-lab` the way a user's notebook would. Both steps are skipped when up to date.
node bin/composer-lab.js kernel install >&2

# The `torch` TensorFlow.js backend (libtorch-dev from apt, native/ compiled into build/ when its
# sources changed). Never fails setup: without it the lab falls back to wasm and says why.
bash scripts/build-torch-addon.sh
