#!/usr/bin/env bash
# The checks that need an NVIDIA GPU: CI machines have none, so this runs by hand on a machine
# with a CUDA device, nvcc and torch built with CUDA (the CPU suites skip these tests there).
#
#   bash tests/gpu/run_gpu_checks.sh [PEER_WHEEL]
#
# 1. builds this package and the test libraries with every core, into a scratch directory;
# 2. runs tests/python/test_cuda_kernels.py (nvcc-built kernels called with torch CUDA tensors:
#    device views, the caller's stream, environment allocation), then the whole pytest suite with
#    the GPU visible, so the CUDA-only tests run instead of skipping;
# 3. times benchmarks/bench_torch_cuda.py against our build and, when PEER_WHEEL (an
#    apache-tvm-ffi wheel file) is given, against that wheel in its own process, alternating.
# Logs go to $OUT when it is set (else the scratch directory). The exit status is that of the
# first failing step.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${WORK:-/tmp/tvm_ffi_gpu}
LOGS=${OUT:-$WORK}
PY=${PYTHON:-python3}
PEER_WHEEL=${1:-}
JOBS=$(nproc)
STATUS=0
mkdir -p "$WORK" "$LOGS"

step() {
  local name=$1
  shift
  echo "== $name"
  local t0=$SECONDS
  "$@" >"$LOGS/$name.log" 2>&1
  local rc=$?
  tail -n 25 "$LOGS/$name.log"
  echo "== $name: rc=$rc in $((SECONDS - t0)) s"
  if [ "$rc" -ne 0 ] && [ "$STATUS" -eq 0 ]; then STATUS=$rc; fi
  return "$rc"
}

nvidia-smi -L
command -v nvcc && nvcc --version | tail -n 2
"$PY" -c 'import sys, torch; print(sys.version.split()[0], "torch", torch.__version__,
    "cuda", torch.version.cuda, torch.cuda.get_device_name(0))' || exit 1
"$PY" -m cython --version

echo "CXX=${CXX:-default} ($(${CXX:-c++} --version | head -n 1))"
export CMAKE_BUILD_PARALLEL_LEVEL=$JOBS
step install "$PY" -m pip install --no-build-isolation --no-deps --no-index \
  --target "$WORK/site" "$ROOT" || exit "$STATUS"
export PYTHONPATH="$WORK/site"
# Whether this toolchain links libstdc++ statically (docs/gpu_checks.md says why that matters).
readelf -d "$WORK/site/tvm_ffi/lib/libtvm_ffi.so" | grep NEEDED
step import_order "$PY" -c "import tvm_ffi, torch; print('tvm_ffi then torch: ok')"

step testlibs bash -c "cmake -S '$ROOT' -B '$WORK/build' -G Ninja -DTVM_FFI_BUILD_TEST_LIBS=ON \
  && cmake --build '$WORK/build' -j $JOBS --target tvm_ffi_testlibs" || exit "$STATUS"
export TVM_FFI_TEST_LIB_DIR="$WORK/build/tests/testlib"

cd "$WORK" || exit 1
PYTEST=("$PY" -m pytest -c "$ROOT/pyproject.toml" --rootdir "$ROOT" -p no:cacheprovider -rs)
step cuda_kernels "${PYTEST[@]}" -v "$ROOT/tests/python/test_cuda_kernels.py"
# PYTEST_PATHS (relative to the repository root) narrows the whole-suite run.
read -r -a PATHS <<<"${PYTEST_PATHS:-tests/python}"
step pytest_all timeout "${PYTEST_TIMEOUT:-600}" "${PYTEST[@]}" -q "${PATHS[@]/#/$ROOT/}"

# Benchmarks: the same kernel source built against each implementation's headers.
kernels() {  # kernels OUT.so PACKAGE_DIR
  c++ -O2 -std=c++17 -shared -fPIC "$ROOT/benchmarks/peers/tvm_ffi_tensor_kernels.cc" -o "$1" \
    -I"$2/include" -L"$2/lib" -Wl,-rpath,"$2/lib" -ltvm_ffi
}
step bench_build_ours kernels "$WORK/kernels_ours.so" "$WORK/site/tvm_ffi"
if [ -n "$PEER_WHEEL" ]; then
  step peer_install "$PY" -m pip install --no-deps --no-index --target "$WORK/peer" "$PEER_WHEEL"
  step bench_build_peer kernels "$WORK/kernels_peer.so" "$WORK/peer/tvm_ffi"
fi
for round in ${BENCH_ROUNDS-1 2}; do
  step "bench_ours_$round" "$PY" "$ROOT/benchmarks/bench_torch_cuda.py" "$WORK/kernels_ours.so"
  if [ -n "$PEER_WHEEL" ]; then
    step "bench_peer_$round" env PYTHONPATH="$WORK/peer" \
      "$PY" "$ROOT/benchmarks/bench_torch_cuda.py" "$WORK/kernels_peer.so"
  fi
done
echo "== overall rc=$STATUS"
exit "$STATUS"
