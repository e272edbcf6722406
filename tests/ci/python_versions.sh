#!/usr/bin/env bash
# Builds the package for every CPython this machine's pyenv has (3.9 and newer,
# besides the default one that tests/run_all.sh covers) and runs a smoke
# subset of the Python suite under each, in a venv of its own. Then builds one
# stable-ABI (abi3) wheel with the oldest installed CPython 3.12+ and runs the
# same subset with that very wheel under every installed 3.12+ (the default
# Python included).
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
       tests/python/test_object_init.py tests/python/test_device_dtype.py
       tests/python/test_abi3_call_paths.py
       tests/python/test_dataclass_c_class.py
       tests/python/test_dataclass_py_class.py tests/python/test_serialization.py
       tests/python/test_serialization_text.py
       tests/python/test_structural_equal.py tests/python/test_dcutil_repr.py
       tests/python/test_dataclass_enum.py tests/python/test_typed_method.py
       tests/python/test_dataclass_py_class_cxx_parent.py tests/python/test_dataclass_init_property.py
       tests/python/test_dataclass_py_class_deferred.py tests/python/test_dataclass_py_class_mixins.py
       tests/python/test_dataclass_py_class_fast.py tests/python/test_pyreflect_member_access.py
       tests/python/test_stubgen.py tests/python/test_stubgen_rust.py
       tests/python/test_testing_schema_all_types.py tests/python/test_gen_abi_cpp.py
       tests/python/test_unpack_dataclass.py tests/python/test_filelock.py
       tests/python/test_embed_cubin.py tests/python/test_dtype_custom.py
       tests/python/test_error_traceback.py tests/python/test_convert_func.py
       tests/python/test_container_release.py tests/python/test_kwargs_wrapper.py
       tests/python/test_core_module_name.py tests/python/test_api_names.py
       tests/python/test_testing_cxx_enums.py tests/python/test_testing_dataclass_fixtures.py
       tests/python/test_class_hierarchy.py tests/python/test_cpp_nvrtc.py
       tests/python/test_testing_library.py tests/python/test_error_identity.py
       tests/python/test_container_atomicity.py tests/python/test_call_fast_path.py)

default_minor="$(python -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
wanted=("$@")
if [ ${#wanted[@]} = 0 ]; then
  for v in 3.9 3.10 3.11 3.12 3.13 3.14; do
    [ "$v" = "$default_minor" ] || wanted+=("$v")
  done
fi

pyenv_root="${PYENV_ROOT:-$HOME/.pyenv}"
# The newest patch release of a minor version installed under pyenv (empty if none).
pyenv_python() {
  ls -d "$pyenv_root"/versions/"$1".*/bin/python 2>/dev/null | sort -V | tail -1
}

smoke() {  # smoke <python>: the smoke subset from a scratch directory
  local scratch rc
  scratch="$(mktemp -d)"
  (cd "$scratch" && "$1" -m pytest -q -p no:cacheprovider \
     --rootdir "$ROOT" -c "$ROOT/pyproject.toml" "${SMOKE[@]/#/$ROOT/}")
  rc=$?
  rm -rf "$scratch"
  return $rc
}

failed=()
tested=()
for v in "${wanted[@]}"; do
  py="$(pyenv_python "$v")"
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
  if smoke "$venv/bin/python"; then
    tested+=("$v")
  else
    failed+=("$v")
  fi
done

# The abi3 wheel: built once, then the same file under each 3.12+.
abi3_versions=()
for v in 3.12 3.13 3.14 3.15; do
  if [ "$v" = "$default_minor" ] || [[ " ${wanted[*]} " == *" $v "* ]]; then
    [ -n "$(pyenv_python "$v")" ] && abi3_versions+=("$v")
  fi
done
if [ ${#abi3_versions[@]} = 0 ]; then
  echo "=== abi3: no CPython 3.12+ installed here, skipped"
else
  build_py="$(pyenv_python "${abi3_versions[0]}")"
  echo "=== abi3 wheel built with Python ${abi3_versions[0]} ($build_py)"
  venv="$ROOT/build/abi3-build-venv"
  wheel_dir="$ROOT/build/abi3-wheel"
  rm -rf "$venv" "$wheel_dir"
  wheel=""
  if "$build_py" -m venv "$venv" \
      && "$venv/bin/pip" wheel -q --no-deps . -w "$wheel_dir" -C wheel.py-api=cp312; then
    wheel="$(ls "$wheel_dir"/tvm_ffi-*-cp312-abi3-*.whl 2>/dev/null | head -1)"
  fi
  if [ -z "$wheel" ]; then
    echo "error: no cp312-abi3 wheel was built" >&2
    failed+=(abi3-build)
  else
    for v in "${abi3_versions[@]}"; do
      echo "=== abi3 wheel under Python $v"
      venv="$ROOT/build/py$v-abi3-venv"
      rm -rf "$venv"
      # The extension must be the stable-ABI one (core.abi3.so), not a rebuild.
      if "$(pyenv_python "$v")" -m venv "$venv" \
          && "$venv/bin/pip" install -q "$wheel" pytest numpy \
          && (cd /tmp && "$venv/bin/python" -c \
                "import tvm_ffi.core as c, sys; sys.exit(not c.__file__.endswith('core.abi3.so'))") \
          && smoke "$venv/bin/python"; then
        tested+=("$v-abi3")
      else
        failed+=("$v-abi3")
      fi
    done
  fi
fi
echo "=== Python versions passed: ${tested[*]:-none}; failed: ${failed[*]:-none}"
[ ${#failed[@]} = 0 ]
