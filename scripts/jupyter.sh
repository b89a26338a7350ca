#!/usr/bin/env bash
# Opens Jupyter on the project with its tslab kernel ("TypeScript (composer-lab)") registered.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export JUPYTER_PATH="$PWD/.jupyter/share/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"
exec /usr/bin/python3 -m notebook --notebook-dir="$PWD" "$@"
