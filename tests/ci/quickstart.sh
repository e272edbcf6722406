#!/usr/bin/env bash
# Runs README command 1 (install + quickstart) exactly as the README writes it,
# in a fresh virtual environment that sees none of this machine's packages.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
PYTHON="${PYTHON:-python}"
# The first command of the README's "Two commands" block, the line after "# 1.".
cmd="$(awk '/^# 1\./ {getline; print; exit}' README.md)"
if [ -z "$cmd" ]; then
  echo "error: README.md has no '# 1.' command" >&2
  exit 1
fi
venv="$ROOT/build/quickstart-venv"
rm -rf "$venv"
"$PYTHON" -m venv "$venv"
echo "=== fresh venv $venv: $cmd"
# shellcheck disable=SC1091
source "$venv/bin/activate"
bash -c "$cmd"
