#!/usr/bin/env bash
# Runs every test suite of the repository on a fresh Debian machine (as root)
# or an already prepared one: installs missing system packages, installs the
# package with its test extras, builds and runs the C++ gtest suite through
# ctest, then runs pytest (tests/python, the interop suite tests/interop, then
# the client packages of tests/clients) against the installed package.
#
#   bash tests/run_all.sh                      # RelWithDebInfo build in build/tests
#   TVM_FFI_SANITIZE=1 bash tests/run_all.sh   # C++ part with ASan+UBSan in build/asan
#
# Both suites always run; the exit code is non-zero if either failed.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PYTHON="${PYTHON:-python}"
JOBS="${TVM_FFI_JOBS:-2}"

log() { printf '\n=== %s\n' "$*"; }

# --- (a) system packages --------------------------------------------------
missing=()
if [ ! -f /usr/include/gtest/gtest.h ] && ! dpkg -s libgtest-dev >/dev/null 2>&1; then
  missing+=(libgtest-dev)
fi
# libdw is optional (backtraces fall back to dladdr) but gives file:line frames.
if [ ! -f /usr/include/elfutils/libdwfl.h ]; then
  missing+=(libdw-dev)
fi
if [ ${#missing[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    log "apt-get install ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null && apt-get install -y -qq "${missing[@]}" >/dev/null \
      || echo "warning: apt-get install ${missing[*]} failed"
  else
    echo "warning: missing ${missing[*]} and cannot apt-get install them"
  fi
fi
if [ ! -f /usr/include/gtest/gtest.h ]; then
  echo "error: GoogleTest headers not found (apt-get install libgtest-dev)" >&2
  exit 1
fi

# Build tools come from pip when the system has none.
if ! command -v cmake >/dev/null 2>&1 || ! command -v ninja >/dev/null 2>&1; then
  log "pip install cmake ninja"
  "$PYTHON" -m pip install -q cmake ninja || exit 1
fi

# --- (b) the Python package with its test extras --------------------------
py_status=0
log "pip install .[test]"
if ! "$PYTHON" -m pip install -q ".[test]"; then
  echo "error: pip install .[test] failed" >&2
  py_status=1
fi

# --- (c) C++ suite --------------------------------------------------------
cpp_status=0
cmake_args=(-DTVM_FFI_BUILD_TESTS=ON)
if [ "${TVM_FFI_SANITIZE:-0}" = 1 ]; then
  BUILD_DIR="$ROOT/build/asan"
  cmake_args+=(-DTVM_FFI_USE_SANITIZERS=ON)
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:strict_string_checks=1}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
else
  BUILD_DIR="$ROOT/build/tests"
fi
# A build dir configured with another generator cannot be reused.
if [ -f "$BUILD_DIR/CMakeCache.txt" ] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$BUILD_DIR/CMakeCache.txt"; then
  rm -rf "$BUILD_DIR"
fi
log "C++ tests in ${BUILD_DIR#"$ROOT"/}"
if cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja "${cmake_args[@]}" \
  && cmake --build "$BUILD_DIR" -j "$JOBS"; then
  (cd "$BUILD_DIR" && ctest --output-on-failure -j "$JOBS") || cpp_status=1
else
  echo "error: C++ build failed" >&2
  cpp_status=1
fi

# --- (d) Python suite against the installed package -----------------------
# The Python tests load the test libraries of tests/cpp/testlib; they must be
# uninstrumented, so a sanitizer run builds them separately in build/tests.
PY_TESTLIB_BUILD="$ROOT/build/tests"
if [ "$py_status" = 0 ] && [ "$BUILD_DIR" != "$PY_TESTLIB_BUILD" ]; then
  if [ -f "$PY_TESTLIB_BUILD/CMakeCache.txt" ] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$PY_TESTLIB_BUILD/CMakeCache.txt"; then
    rm -rf "$PY_TESTLIB_BUILD"
  fi
  log "test libraries for pytest in build/tests"
  (env -u ASAN_OPTIONS -u UBSAN_OPTIONS cmake -S "$ROOT" -B "$PY_TESTLIB_BUILD" -G Ninja -DTVM_FFI_BUILD_TESTS=ON >/dev/null \
    && cmake --build "$PY_TESTLIB_BUILD" -j "$JOBS" --target tvm_ffi_testlibs) || py_status=1
fi
export TVM_FFI_TEST_LIB_DIR="$PY_TESTLIB_BUILD/tests/testlib"
unset ASAN_OPTIONS UBSAN_OPTIONS
if [ "$py_status" = 0 ]; then
  log "pytest tests/python"
  # Run from a scratch directory so that nothing in the source tree (the
  # in-tree python/tvm_ffi has no compiled extension) shadows the install.
  scratch="$(mktemp -d)"
  where="$(cd "$scratch" && "$PYTHON" -c 'import tvm_ffi, os; print(os.path.dirname(tvm_ffi.__file__))' 2>&1)"
  echo "tvm_ffi imported from: $where"
  have_tests="$(find "$ROOT/tests/python" -name 'test_*.py' -print -quit 2>/dev/null)"
  (cd "$scratch" && "$PYTHON" -m pytest "$ROOT/tests/python" -q --rootdir "$ROOT" -c "$ROOT/pyproject.toml" -p no:cacheprovider)
  rc=$?
  if [ "$rc" = 5 ] && [ -z "$have_tests" ]; then
    echo "no Python test files yet"
  elif [ "$rc" != 0 ]; then
    py_status=1
  fi
  # Interop with the apache-tvm-ffi wheel as a black-box peer (pip-installed
  # into build/interop; the suite skips, saying why, only if that install fails).
  log "pytest tests/interop"
  (cd "$scratch" && "$PYTHON" -m pytest "$ROOT/tests/interop" -q -rsx --rootdir "$ROOT" -c "$ROOT/pyproject.toml" -p no:cacheprovider) \
    || py_status=1
  # Client packages built for apache-tvm-ffi (Apache TVM, xgrammar, orcjit,
  # torch-c-dlpack-ext), installed from the registry into build/clients/venv next
  # to ours (the suite skips, saying why, only if the registry is unreachable).
  log "pytest tests/clients"
  (cd "$scratch" && "$PYTHON" -m pytest "$ROOT/tests/clients" -q -rsx --rootdir "$ROOT" -c "$ROOT/pyproject.toml" -p no:cacheprovider) \
    || py_status=1
  rm -rf "$scratch"
fi

log "summary: C++ $([ $cpp_status = 0 ] && echo passed || echo FAILED), Python $([ $py_status = 0 ] && echo passed || echo FAILED)"
[ "$cpp_status" = 0 ] && [ "$py_status" = 0 ]
