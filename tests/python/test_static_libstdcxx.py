"""Libraries that carry their own (statically linked) libstdc++ next to the shared one.

Some toolchains link libstdc++ statically into every shared object. Such a copy defines the
locale facet ids as GNU_UNIQUE symbols; if a library exports them, the dynamic loader unifies
them with the shared libstdc++ of other libraries (torch, or libtvm_ffi itself), and the two
copies' facet tables stop matching: integers format as nothing, and torch imported afterwards
crashed. core.so exports its init function alone, and the modules tvm_ffi.cpp and
tvm_ffi_add_module link keep the symbols of static archives inside.
"""

import os
import shutil
import subprocess
import sys

import pytest
import tvm_ffi
import tvm_ffi.cpp

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="ELF symbol visibility is Linux-specific"
)


def _defined_dynamic_symbols(path):
    nm = shutil.which("nm")
    if nm is None:
        pytest.skip("needs nm (binutils)")
    out = subprocess.run(
        [nm, "-D", "--defined-only", path], check=True, capture_output=True, text=True
    ).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def test_core_extension_exports_only_its_init_function():
    assert _defined_dynamic_symbols(tvm_ffi.core.__file__) == {"PyInit_core"}


def test_inline_module_linking_libstdcxx_statically_exports_no_unique_facet_ids(tmp_path):
    path = tvm_ffi.cpp.build_inline(
        "static_libstdcxx_syms",
        cpp_sources="int64_t one() { return 1; }",
        functions=["one"],
        extra_ldflags=["-static-libstdc++"],
        build_directory=str(tmp_path),
    )
    symbols = _defined_dynamic_symbols(os.fspath(path))
    # std::locale::classic() and the facet ids (mangled "...2idE") live in libstdc++ itself,
    # never in a module's own inline code.
    leaked = sorted(s for s in symbols if s == "_ZNSt6locale7classicEv" or s.endswith("2idE"))
    assert leaked == []
