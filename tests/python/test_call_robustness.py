"""Calls stay correct when Python code runs in the middle of them.

Converting one argument can run Python code (`__index__`, `__getitem__`, finalizers) that
changes other arguments, native code can swallow a signal error, and other threads run while
the GIL is released. Cases that would read freed memory run in a subprocess, so a regression
reports a failure instead of killing the test run.
"""

import subprocess
import sys
import textwrap
import threading
import weakref

import pytest
import tvm_ffi
import tvm_ffi.cpp

np = pytest.importorskip("numpy", reason="numpy is not installed")


def _run_isolated(tmp_path, source):
    """Run source in a fresh interpreter (outside the repo); returns the CompletedProcess."""
    return subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", textwrap.dedent(source)],
        cwd=str(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )


# ---------------------------------------------------------------------------
# Containers: items must stay alive until the Array is built
# ---------------------------------------------------------------------------


def test_list_item_replaced_while_later_item_converts_is_not_read_after_free(tmp_path):
    # The str at lst[0] is passed to the Array builder as a borrowed RawStr view; the
    # next item's __index__ drops the list's (only) reference to it before the build.
    proc = _run_isolated(
        tmp_path,
        """
        import tvm_ffi
        big = "x" * (64 << 20)
        lst = []
        class Replacer:
            def __index__(self):
                lst[0] = None
                return 7
        lst.append("x" * (64 << 20))
        lst.append(Replacer())
        arr = tvm_ffi.convert(lst)
        print("ok" if arr[0] == big and arr[1] == 7 else "wrong")
    """,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "ok"


def test_tuple_subclass_items_from_getitem_stay_alive_until_array_is_built(tmp_path):
    # x[i] of a tuple subclass may return a new object that only the temporary holds.
    proc = _run_isolated(
        tmp_path,
        """
        import tvm_ffi
        class Fresh(tuple):
            def __getitem__(self, i):
                return "y" * (64 << 20)
        arr = tvm_ffi.convert(Fresh((1,)))
        print(len(arr))
    """,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "1"


# ---------------------------------------------------------------------------
# Views of mutable Python objects must not dangle when later arguments run Python code
# ---------------------------------------------------------------------------

VIEW_LAYOUT_SOURCE = r"""
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/container/array.h>
tvm::ffi::Array<int64_t> view_layout(tvm::ffi::TensorView t, int64_t tag) {
  tvm::ffi::Array<int64_t> out;
  out.push_back(t.ndim());
  for (int i = 0; i < t.ndim(); ++i) out.push_back(t.shape()[i]);
  return out;
}
"""


@pytest.fixture(scope="module")
def view_layout(tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TVM_FFI_CACHE_DIR", str(tmp_path_factory.mktemp("review_cache")))
        # A doc string makes load_inline export the type schema, so arg 0 is a view.
        mod = tvm_ffi.cpp.load_inline(
            "review_view_layout",
            cpp_sources=VIEW_LAYOUT_SOURCE,
            functions={"view_layout": "ndim and shape of a view."},
        )
    f = mod.view_layout
    assert f._view_args == (0,)
    return f


def test_numpy_view_shape_is_what_the_array_had_when_passed(view_layout):
    arr = np.zeros((2, 2), dtype=np.int64)
    keep = []

    class Reshaper:
        def __index__(self):
            # numpy frees arr's shape buffer; new arrays reuse that memory.
            arr.shape = (4,)
            keep.extend(np.empty((7,)) for _ in range(8))
            return 0

    assert list(view_layout(arr, Reshaper())) == [2, 2, 2]


def test_bytearray_argument_keeps_its_content_when_a_later_argument_resizes_it():
    dict_set = tvm_ffi.get_global_func("testing.dict_set")
    d = tvm_ffi.Dict()
    key = bytearray(b"key-0123456789")

    class Grow:
        def __index__(self):
            key.extend(b"z" * (1 << 20))  # reallocates and frees key's old buffer
            return 1

    dict_set(d, key, Grow())  # the bytearray is passed as a copy of its bytes
    assert list(d.keys()) == [b"key-0123456789"]


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


def test_signal_error_swallowed_by_native_code_raises_keyboard_interrupt():
    # call_and_catch catches the EnvErrorAlreadySet error and returns normally, but the
    # KeyboardInterrupt set by the signal check is still pending in Python.
    call_and_catch = tvm_ffi.get_global_func("testing.call_and_catch")
    sig = tvm_ffi.get_global_func("testing.raise_sigint_and_check_signals")
    with pytest.raises(KeyboardInterrupt):
        call_and_catch(sig)


def test_signal_error_swallowed_by_native_code_raises_keyboard_interrupt_on_general_path():
    call_and_catch = tvm_ffi.get_global_func("testing.call_and_catch")
    sig = tvm_ffi.get_global_func("testing.raise_sigint_and_check_signals")
    with pytest.raises(KeyboardInterrupt):
        call_and_catch.__call__(sig)  # tp_call -> function_call_items


def test_callback_after_swallowed_signal_error_fails_with_keyboard_interrupt():
    swallow_then_call = tvm_ffi.get_global_func("testing.swallow_error_then_call")
    sig = tvm_ffi.get_global_func("testing.raise_sigint_and_check_signals")
    calls = []
    with pytest.raises(KeyboardInterrupt):
        swallow_then_call(sig, lambda: calls.append(1))
    assert calls == []


def test_failed_call_error_survives_ffi_calls_made_while_arguments_are_released():
    add_one = tvm_ffi.get_global_func("testing.tensor_add_one_inplace")
    throw = tvm_ffi.get_global_func("testing.throw_error")

    def finalizer():
        try:
            throw("ValueError", "inner error while the outer call unwinds")
        except ValueError:
            pass

    class Producer:
        """Its capsule is the only owner of a temporary int8 array (which add_one rejects)."""

        def __dlpack__(self, **kwargs):
            arr = np.zeros(3, dtype=np.int8)
            weakref.finalize(arr, finalizer)
            return tvm_ffi.from_dlpack(arr).__dlpack__(**kwargs)

        def __dlpack_device__(self):
            return (1, 0)

    with pytest.raises(TypeError, match="unsupported dtype int8"):
        add_one(Producer())


# ---------------------------------------------------------------------------
# docs/python_calls.md: load_inline exports the type schema
# ---------------------------------------------------------------------------


def test_load_inline_functions_without_docs_take_array_views(tmp_path, monkeypatch):
    monkeypatch.setenv("TVM_FFI_CACHE_DIR", str(tmp_path))
    mod = tvm_ffi.cpp.load_inline(
        "review_no_docs", cpp_sources=VIEW_LAYOUT_SOURCE, functions=["view_layout"]
    )
    assert mod.view_layout._view_args == (0,)


# ---------------------------------------------------------------------------
# Threads: the GIL-released view path
# ---------------------------------------------------------------------------


def test_two_threads_calling_a_tensor_view_function_get_exact_results():
    add_one = tvm_ffi.get_global_func("testing.tensor_add_one_inplace")
    assert add_one._view_args == (0,) and add_one.release_gil
    calls = 2000
    arrays = [np.zeros((3, 5), dtype=np.int64), np.zeros(17, dtype=np.float32)[::2]]
    errors = []
    start = threading.Barrier(len(arrays))

    def work(arr):
        try:
            start.wait(timeout=30)
            for _ in range(calls):
                add_one(arr)
        except BaseException as exc:  # reported below, in the main thread
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(a,)) for a in arrays]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert errors == []
    assert not any(t.is_alive() for t in threads)
    np.testing.assert_array_equal(arrays[0], np.full((3, 5), calls, dtype=np.int64))
    np.testing.assert_array_equal(arrays[1], np.full(9, calls, dtype=np.float32))
