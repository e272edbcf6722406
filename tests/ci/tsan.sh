#!/usr/bin/env bash
# Builds libtvm_ffi and the thread stress tests with ThreadSanitizer
# (-DTVM_FFI_USE_TSAN=ON, in build/tsan) and runs them: types, fields and
# attributes registered while other threads read them, global functions set
# and called concurrently, shared reference counts, error and stream TLS.
# Any TSan report fails the run.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="$ROOT/build/tsan"
JOBS="${TVM_FFI_JOBS:-2}"
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DTVM_FFI_BUILD_TESTS=ON -DTVM_FFI_USE_TSAN=ON \
  -DTVM_FFI_USE_LIBDW=OFF >/dev/null
cmake --build "$BUILD" -j "$JOBS" --target tvm_ffi_stress_tests
TSAN_OPTIONS="halt_on_error=1:exitcode=66:second_deadlock_stack=1" \
  "$BUILD/tvm_ffi_stress_tests" --gtest_brief=1
