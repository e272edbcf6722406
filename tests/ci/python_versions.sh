#!/usr/bin/env bash
# Builds the package for every CPython this machine's pyenv has (3.9 and newer,
# besides the default one that tests/run_all.sh covers) and runs a smoke
# subset of the Python suite under each, in a venv of its own.
#
#   bash tests/ci/python_versions.sh [3.12 3.13 ...]
#
# Needs the test libraries of build/tests (tests/run_all.sh builds them).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
export TVM_FFI_TEST_LIB_DIR="${TVM_FFI_TEST_LIB_DIR:-$ROOT/build/tests/tests/testlib}"
SMOKE=(tests/python/test_function.py tests/python/test_conversion.py
       tests/python/test_container.py tests/python/test_error.py
       tests/python/test_object_init.py tests/python/test_device_dtype.py)

default_minor="$(python -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
wanted=("$@")
if [ ${#wanted[@]} = 0 ]; then
  for v in 3.9 3.10 3.11 3.12 3.13 3.14; do
    [ "$v" = "$default_minor" ] || wanted+=("$v")
  done
fi

pyenv_root="${PYENV_ROOT:-$HOME/.pyenv}"
failed=()
tested=()
for v in "${wanted[@]}"; do
  # The newest patch release of that minor version installed under pyenv.
  py="$(ls -d "$pyenv_root"/versions/"$v".*/bin/python 2>/dev/null | sort -V | tail -1)"
  if [ -z "$py" ]; then
    echo "=== Python $v: not installed here, skipped"
    continue
  fi
  echo "=== Python $v ($py)"
  venv="$ROOT/build/py$v-venv"
  rm -rf "$venv"
  if ! "$py" -m venv "$venv" \
      || ! "$venv/bin/pip" install -q . pytest numpy; then
    echo "error: build or install failed on Python $v" >&2
    failed+=("$v")
    continue
  fi
  scratch="$(mktemp -d)"
  if (cd "$scratch" && "$venv/bin/python" -m pytest -q -p no:cacheprovider \
        --rootdir "$ROOT" -c "$ROOT/pyproject.toml" "${SMOKE[@]/#/$ROOT/}"); then
    tested+=("$v")
  else
    failed+=("$v")
  fi
  rm -rf "$scratch"
done
echo "=== Python versions passed: ${tested[*]:-none}; failed: ${failed[*]:-none}"
[ ${#failed[@]} = 0 ]
