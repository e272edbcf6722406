#!/usr/bin/env bash
# Stale-stub check: the blocks tvm-ffi-stubgen writes into python/tvm_ffi (see
# python/tvm_ffi/_ffi_api.py) must match what the installed package registers.
# Needs the package installed (tests/run_all.sh does that). To refresh the
# stubs: python -m tvm_ffi.stub.cli python/tvm_ffi
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
PYTHON="${PYTHON:-python}"
if "$PYTHON" -m tvm_ffi.stub.cli --check python/tvm_ffi; then
  echo "stubgen: stubs are current"
else
  echo "stubgen: stale stubs; run: $PYTHON -m tvm_ffi.stub.cli python/tvm_ffi" >&2
  exit 1
fi
