"""Libraries built against one implementation's headers run under the other's runtime.

The same library source, written in the idioms of the apache-tvm-ffi wheel, is
compiled twice: with the peer's headers (then loaded by OUR Python package, so
it runs on our libtvm_ffi) and with our headers (then loaded by the PEER's
package, on its libtvm_ffi). Every check runs in its own subprocess, so a crash
fails only that check.
"""

import json

import pytest

LIBRARY_SOURCE = r"""
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cstdint>

namespace ffi = tvm::ffi;

int64_t AddOne(int64_t x) { return x + 1; }
TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, AddOne);

ffi::String Concat(ffi::String a, ffi::String b) {
  return ffi::String(std::string(a) + std::string(b));
}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(concat, Concat);

ffi::Any EchoAny(ffi::Any x) { return x; }
TVM_FFI_DLL_EXPORT_TYPED_FUNC(echo_any, EchoAny);

int64_t SumArray(ffi::Array<int64_t> values) {
  int64_t total = 0;
  for (int64_t v : values) total += v;
  return total;
}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(sum_array, SumArray);

ffi::Array<int64_t> MakeArray(int64_t n) {
  ffi::Array<int64_t> out;
  for (int64_t i = 0; i < n; ++i) out.push_back(i * i);
  return out;
}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_array, MakeArray);

// Grows a list the caller built: reserve, then push_back past the old capacity.
void ListGrow(ffi::List<ffi::Any> list, int64_t n) {
  list.reserve(static_cast<int64_t>(list.size()) + n);
  for (int64_t i = 0; i < n; ++i) list.push_back(i);
  for (int64_t i = 0; i < n; ++i) list.push_back(ffi::String("s" + std::to_string(i)));
}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(list_grow, ListGrow);

void RaiseValueError(ffi::String msg) { TVM_FFI_THROW(ValueError) << "library says: " << msg; }
TVM_FFI_DLL_EXPORT_TYPED_FUNC(raise_value_error, RaiseValueError);

double TensorSum(ffi::TensorView t) {
  const float* data = static_cast<const float*>(t.data_ptr());
  double total = 0;
  for (int64_t i = 0; i < t.shape()[0]; ++i) total += data[i];
  return total;
}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(tensor_sum, TensorSum);

ffi::Any CallGlobal(ffi::String name, int64_t x) {
  ffi::Function f = ffi::Function::GetGlobalRequired(std::string(name));
  return f(x);
}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(call_global, CallGlobal);

int64_t ApplyTwice(ffi::Function f, int64_t x) {
  return f(f(x).cast<int64_t>()).cast<int64_t>();
}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(apply_twice, ApplyTwice);
"""

# Each check: (name, body). The body runs with `tvm_ffi` imported and `mod`
# loaded; it raises AssertionError on a wrong result.
CHECKS = {
    "typed_int_function": "assert mod.add_one(41) == 42",
    "string_arguments_and_result": "assert mod.concat('ab', 'a longer string') == 'aba longer string'",
    "any_round_trip": (
        "assert mod.echo_any(7) == 7\n"
        "assert mod.echo_any('text of some length') == 'text of some length'\n"
        "assert mod.echo_any(None) is None\n"
        "assert abs(mod.echo_any(2.5) - 2.5) < 1e-12"
    ),
    "array_argument": "assert mod.sum_array([1, 2, 3, 4]) == 10",
    "array_result": "assert list(mod.make_array(4)) == [0, 1, 4, 9]",
    "list_from_other_side_grows": (
        "lst = tvm_ffi.List([100, 'x'])\n"
        "mod.list_grow(lst, 6)\n"
        "assert list(lst) == [100, 'x', 0, 1, 2, 3, 4, 5, 's0', 's1', 's2', 's3', 's4', 's5'], list(lst)"
    ),
    "error_becomes_python_exception": (
        "try:\n"
        "    mod.raise_value_error('boom')\n"
        "except ValueError as err:\n"
        "    assert 'library says: boom' in str(err), str(err)\n"
        "else:\n"
        "    raise AssertionError('no exception')"
    ),
    "tensor_view_of_numpy_array": (
        "import numpy as np\na = np.arange(10, dtype='float32')\nassert mod.tensor_sum(a) == 45.0"
    ),
    "calls_python_global_function": (
        "tvm_ffi.register_global_func('interop.triple', lambda x: 3 * x, override=True)\n"
        "assert mod.call_global('interop.triple', 4) == 12"
    ),
    "calls_python_callback": "assert mod.apply_twice(lambda x: x * 10, 2) == 200",
}

# (direction, check) -> reason, for checks expected to fail because of a known gap.
KNOWN_GAPS = {}

RUNNER = r"""
import sys, json
import tvm_ffi
path, check = sys.argv[1], sys.argv[2]
mod = tvm_ffi.load_module(path)
print("TVM_FFI_FILE=" + tvm_ffi.__file__)
exec(json.loads(check), {"tvm_ffi": tvm_ffi, "mod": mod})
print("CHECK_OK")
"""


def _check(run, lib, name, expect_peer):
    out = run(RUNNER, lib, json.dumps(CHECKS[name]))
    assert out.returncode == 0 and "CHECK_OK" in out.stdout, "check %s failed (rc=%s):\n%s\n%s" % (
        name,
        out.returncode,
        out.stdout,
        out.stderr[-4000:],
    )
    return out


def _params(direction):
    params = []
    for name in CHECKS:
        reason = KNOWN_GAPS.get((direction, name))
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        params.append(pytest.param(name, marks=marks, id=name))
    return params


@pytest.fixture(scope="module")
def peer_built_library(build_with_peer_headers):
    return build_with_peer_headers("interop_idioms", LIBRARY_SOURCE)


@pytest.fixture(scope="module")
def our_built_library(build_with_our_headers):
    return build_with_our_headers("interop_idioms", LIBRARY_SOURCE)


@pytest.mark.parametrize("name", _params("peer_headers_on_our_runtime"))
def test_peer_built_library_runs_under_our_package(
    name, peer_built_library, run_under_ours, peer_dir
):
    out = _check(run_under_ours, peer_built_library, name, expect_peer=False)
    assert str(peer_dir) not in out.stdout, "the subprocess imported the peer, not ours"


@pytest.mark.parametrize("name", _params("our_headers_on_peer_runtime"))
def test_our_built_library_runs_under_peer_package(
    name, our_built_library, run_under_peer, peer_dir
):
    out = _check(run_under_peer, our_built_library, name, expect_peer=True)
    assert "TVM_FFI_FILE=" + str(peer_dir) in out.stdout, "the subprocess did not import the peer"
