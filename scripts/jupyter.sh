#!/usr/bin/env bash
# Opens Jupyter on the project with its tslab kernel ("TypeScript (composer-lab)") registered.
#   bash scripts/jupyter.sh [notebook] [ARGS...]   the classic Notebook (Debian's Jupyter) on the project
#   bash scripts/jupyter.sh console [ARGS...]      a terminal REPL on the same kernel
# As root (how setup runs on these machines) the Notebook needs --allow-root; it is added then.
# The notebook folder is the project unless --notebook-dir is given.
#   COMPOSER_LAB_SKIP_SETUP=1   skip scripts/setup.sh (already done)
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${COMPOSER_LAB_SKIP_SETUP:-0}" = 1 ] || bash scripts/setup.sh
export JUPYTER_PATH="$PWD/.jupyter/share/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"
mode=notebook
case "${1:-}" in
  notebook|console) mode=$1; shift ;;
esac
if [ "$mode" = console ]; then
  exec /usr/bin/python3 -m jupyter_console --kernel composer-lab "$@"
fi
extra=()
[ "$(id -u)" = 0 ] && extra+=(--allow-root)
# The project folder unless the caller names another (the flag takes one value).
[[ " $* " == *" --notebook-dir"* ]] || extra+=(--notebook-dir="$PWD")
exec /usr/bin/python3 -m notebook "${extra[@]}" "$@"
