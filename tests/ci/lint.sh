#!/usr/bin/env bash
# Format and lint checks: clang-format over the C/C++ sources and ruff over the
# Python sources, with pinned tool versions from PyPI in a private venv.
#
#   bash tests/ci/lint.sh          # check (exit 1 on any difference)
#   bash tests/ci/lint.sh --fix    # rewrite the files in place
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
PYTHON="${PYTHON:-python}"
VENV="$ROOT/build/lint-venv"
CLANG_FORMAT_VERSION=19.1.7
RUFF_VERSION=0.14.0

if [ ! -x "$VENV/bin/ruff" ] || [ ! -x "$VENV/bin/clang-format" ]; then
  "$PYTHON" -m venv "$VENV"
  "$VENV/bin/pip" install -q "clang-format==$CLANG_FORMAT_VERSION" "ruff==$RUFF_VERSION"
fi

# Our own DLPack header follows the layout of the spec line by line; it is
# formatted like every other header.
mapfile -t cxx_files < <(git ls-files '*.h' '*.cc' '*.c' '*.cu')
status=0
if [ "${1:-}" = "--fix" ]; then
  "$VENV/bin/clang-format" -i "${cxx_files[@]}"
  "$VENV/bin/ruff" check --fix -q . || true  # what remains is reported by the check
  "$VENV/bin/ruff" format -q .
  exit 0
fi
echo "clang-format ${CLANG_FORMAT_VERSION}: ${#cxx_files[@]} files"
"$VENV/bin/clang-format" --dry-run -Werror "${cxx_files[@]}" || status=1
echo "ruff ${RUFF_VERSION}: check and format"
"$VENV/bin/ruff" check . || status=1
"$VENV/bin/ruff" format --check . || status=1
[ "$status" = 0 ] && echo "lint: clean"
exit "$status"
