"""Every C++ entry point the apache-tvm-ffi wheel's libtvm_ffi.so exports is exported by ours.

Libraries built against the wheel's headers (Apache TVM's libtvm_compiler.so among them) link
these mangled names; a gap makes such a library fail to load on our runtime (abi.md §0).
Left out on purpose, each for its reason below: template instances of ``std::`` and the symbols
that code built against the wheel's headers defines itself (inline-function statics and their
guard variables, the vtable and typeinfo of the header-only ``tvm::ffi::Error``), which we must
not export so as never to interpose on that code's own definitions.
"""

import subprocess

import pytest

# Header-only in the wheel: every library built against its headers defines these itself.
HEADER_DEFINED = {
    "_ZTIN3tvm3ffi5ErrorE",  # typeinfo for tvm::ffi::Error
    "_ZTSN3tvm3ffi5ErrorE",  # typeinfo name for tvm::ffi::Error
    "_ZTVN3tvm3ffi5ErrorE",  # vtable for tvm::ffi::Error
}


def _defined_dynamic_symbols(path):
    out = subprocess.run(
        ["nm", "-D", "--defined-only", str(path)], stdout=subprocess.PIPE, text=True, check=True
    ).stdout
    return {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip()}


def _is_inline_static(symbol):
    """Static locals of inline functions and their guard variables (``..E<len>name`` after a
    function's parameters: ``Z...E`` local names, ``_ZGV`` guards)."""
    return symbol.startswith("_ZGV") or (symbol.startswith("_ZZ") and "E" in symbol)


def _is_std(symbol):
    return symbol.startswith(("_ZNSt", "_ZSt", "_ZNKSt", "_ZTVSt", "_ZTISt", "_ZTSSt"))


def _tvm_ffi_cxx(symbols):
    return {
        s
        for s in symbols
        if "3tvm3ffi" in s
        and not _is_std(s)
        and not _is_inline_static(s)
        and s not in HEADER_DEFINED
    }


@pytest.fixture(scope="module")
def wheel_exports(peer_lib_dir):
    return _defined_dynamic_symbols(peer_lib_dir / "libtvm_ffi.so")


@pytest.fixture(scope="module")
def our_exports():
    from tvm_ffi import libinfo

    return _defined_dynamic_symbols(libinfo.find_libtvm_ffi())


def test_every_cxx_entry_point_of_the_wheel_is_exported_by_ours(wheel_exports, our_exports):
    needed = _tvm_ffi_cxx(wheel_exports)
    # The list is not empty (a renamed library or an nm failure would make this vacuous).
    assert "_ZN3tvm3ffi17VisitErrorContext15FindAccessPathsERKNS0_9ObjectRefERKS1_b" in needed
    assert "_ZN3tvm3ffi9ModuleObj11GetFunctionERKNS0_6StringEb" in needed
    assert sorted(needed - our_exports) == []


def test_every_c_function_of_the_wheel_is_exported_by_ours(wheel_exports, our_exports):
    needed = {s for s in wheel_exports if s.startswith("TVMFFI")}
    assert "TVMFFIFunctionCall" in needed
    assert sorted(needed - our_exports) == []


def test_ours_exports_no_header_defined_symbol_of_the_wheel(our_exports):
    assert sorted(our_exports & HEADER_DEFINED) == []
    assert sorted(s for s in our_exports if "3tvm3ffi" in s and _is_inline_static(s)) == []


def test_find_access_paths_entry_point_runs_on_our_runtime(run_under_ours, build_with_peer_headers):
    source = r"""
#include <tvm/ffi/function.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/extra/visit_error_context.h>

namespace {
int64_t CountPaths() {
  namespace ffi = tvm::ffi;
  ffi::Array<ffi::Any> leaf{1};
  ffi::Array<ffi::Any> root{leaf};
  ffi::VisitErrorContext ctx(ffi::make_object<ffi::VisitErrorContextObj>());
  ctx->reverse_visit_pattern.push_back(leaf);
  return static_cast<int64_t>(ffi::VisitErrorContext::FindAccessPaths(root, ctx).size());
}
}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(count_paths, CountPaths);
"""
    lib = build_with_peer_headers("peer_find_access_paths", source)
    script = (
        "import sys, tvm_ffi\n"
        "mod = tvm_ffi.load_module(sys.argv[1])\n"
        "print('paths', mod.count_paths())\n"
    )
    proc = run_under_ours(script, str(lib))
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "paths 1" in proc.stdout
