"""Modules across the two implementations: a library compiled with the apache-tvm-ffi
headers subclasses ModuleObj and calls the Module entry points, and runs on our
libtvm_ffi (which exports those entry points under the wheel's mangled names).
"""

import os
import subprocess

import pytest
import tvm_ffi

PEER_SOURCE = r"""
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <string>

namespace ffi = tvm::ffi;

// A module subclass compiled against the peer's headers: its vtable refers to
// the peer's default virtuals (inline) and to ModuleObj::ImportModule /
// ClearImports, vtable and typeinfo of ModuleObj (our exports).
class PeerModuleObj : public ffi::ModuleObj {
 public:
  const char* kind() const final { return "peer"; }
  int GetPropertyMask() const final { return ffi::Module::kRunnable; }
  ffi::Optional<ffi::Function> GetFunction(const ffi::String& name) final {
    if (name == "answer") return ffi::Function::FromTyped([](int64_t x) { return x + 42; });
    return std::nullopt;
  }
  ffi::Optional<ffi::String> GetFunctionDoc(const ffi::String& name) final {
    if (name == "answer") return ffi::String("Add 42 (peer-built).");
    return std::nullopt;
  }
};

ffi::Module MakePeerModule() { return ffi::Module(ffi::make_object<PeerModuleObj>()); }

// Non-virtual out-of-line members, called on any module (ours or peer-made).
int64_t Probe(ffi::Module m, ffi::String name, int64_t x) {
  ffi::Optional<ffi::Function> f = m->GetFunction(name, true);
  return f.has_value() ? f.value()(x).cast<int64_t>() : -1;
}

bool Implements(ffi::Module m, ffi::String name) { return m->ImplementsFunction(name, true); }

ffi::String Doc(ffi::Module m, ffi::String name) {
  ffi::Optional<ffi::String> doc = m->GetFunctionDoc(name, true);
  return doc.has_value() ? doc.value() : ffi::String("<none>");
}

ffi::Module Load(ffi::String path) { return ffi::Module::LoadFromFile(path); }

// Virtual calls on any module: the slots of the vtable must agree.
ffi::String KindOf(ffi::Module m) { return ffi::String(m->kind()); }
int64_t MaskOf(ffi::Module m) { return m->GetPropertyMask(); }
ffi::String OwnDoc(ffi::Module m, ffi::String name) {
  ffi::Optional<ffi::String> doc = m->GetFunctionDoc(name);
  return doc.has_value() ? doc.value() : ffi::String("<none>");
}
ffi::String Source(ffi::Module m) { return m->InspectSource("c"); }
int64_t NumWriteFormats(ffi::Module m) { return m->GetWriteFormats().size(); }

void ImportInto(ffi::Module m, ffi::Module other) { m->ImportModule(other); }

void ClearImportsOf(ffi::Module m) { m->ClearImports(); }

int64_t CountImports(ffi::Module m) { return static_cast<int64_t>(m->imports().size()); }

ffi::String ContextSymbols() {
  std::string names;
  ffi::Module::VisitContextSymbols([&names](ffi::String name, void*) {
    names += std::string(name) + ";";
  });
  return ffi::String(names);
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_peer_module, MakePeerModule);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(probe, Probe);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(implements, Implements);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(doc, Doc);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(load, Load);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(kind_of, KindOf);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(mask_of, MaskOf);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(own_doc, OwnDoc);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(source, Source);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(num_write_formats, NumWriteFormats);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(import_into, ImportInto);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(clear_imports_of, ClearImportsOf);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(count_imports, CountImports);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(context_symbols, ContextSymbols);
"""

OUR_SOURCE = r"""
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/function.h>

namespace ffi = tvm::ffi;

int64_t Double(int64_t x) { return 2 * x; }
TVM_FFI_DLL_EXPORT_TYPED_FUNC(double_it, Double);

// A module subclass built with our headers: every Module member is inline,
// so this library runs on either runtime.
class OurModuleObj : public ffi::ModuleObj {
 public:
  const char* kind() const final { return "ours"; }
  ffi::Optional<ffi::Function> GetFunction(const ffi::String& name) final {
    if (name == "triple") return ffi::Function::FromTyped([](int64_t x) { return 3 * x; });
    return std::nullopt;
  }
};

ffi::Module MakeOurModule() { return ffi::Module(ffi::make_object<OurModuleObj>()); }
TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_our_module, MakeOurModule);

// Module API called from inside the library.
int64_t LoadAndCall(ffi::String path, ffi::String name, int64_t x) {
  ffi::Module mod = ffi::Module::LoadFromFile(path);
  mod->ImportModule(MakeOurModule());
  return mod->GetFunction(name, true).value()(x).cast<int64_t>();
}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(load_and_call, LoadAndCall);
"""


@pytest.fixture(scope="module")
def peer_lib(build_with_peer_headers):
    return str(build_with_peer_headers("peer_module_lib", PEER_SOURCE))


@pytest.fixture(scope="module")
def peer(peer_lib):
    return tvm_ffi.load_module(peer_lib)


@pytest.fixture(scope="module")
def our_lib(build_with_our_headers):
    return str(build_with_our_headers("our_module_lib", OUR_SOURCE))


def _dynamic_symbols(path, *flags):
    out = subprocess.run(
        ["nm", "-D"] + list(flags) + [path], stdout=subprocess.PIPE, text=True, check=True
    ).stdout
    return {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip()}


def test_peer_built_library_resolves_every_symbol_against_our_runtime(peer_lib):
    from tvm_ffi import libinfo

    ours = _dynamic_symbols(libinfo.find_libtvm_ffi(), "--defined-only")
    needed = {
        s
        for s in _dynamic_symbols(peer_lib, "--undefined-only")
        if "3tvm3ffi" in s or s.startswith("TVMFFI")
    }
    # The Module entry points are among them: the test would be vacuous otherwise.
    assert "_ZTVN3tvm3ffi9ModuleObjE" in needed
    assert "_ZN3tvm3ffi6Module12LoadFromFileERKNS0_6StringE" in needed
    assert needed - ours == set()
    # The library has no rpath: point the loader at our runtime.
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.dirname(libinfo.find_libtvm_ffi()))
    ldd = subprocess.run(
        ["ldd", "-r", peer_lib],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    ).stdout
    assert "undefined symbol" not in ldd, ldd


def test_peer_made_module_is_used_by_our_side(peer):
    mod = peer.make_peer_module()
    assert isinstance(mod, tvm_ffi.Module)
    assert mod.kind == "peer"
    assert mod.is_runnable()
    assert mod.answer(1) == 43
    assert mod.get_function_doc("answer") == "Add 42 (peer-built)."
    assert mod.implements_function("answer")
    assert not mod.implements_function("question")
    assert mod.inspect_source() == ""


def test_peer_code_queries_our_modules_through_exported_members(peer, our_lib):
    ours = tvm_ffi.load_module(our_lib)
    assert peer.probe(ours, "double_it", 21) == 42
    assert peer.probe(ours, "missing", 1) == -1
    assert peer.implements(ours, "double_it")
    assert peer.doc(ours, "double_it") == "<none>"


def test_peer_code_dispatches_virtuals_of_our_modules(peer, our_lib):
    import os

    ours = tvm_ffi.load_module(our_lib)
    assert peer.kind_of(ours) == "library"
    mask = tvm_ffi.module.ModulePropertyMask
    assert peer.mask_of(ours) == int(mask.BINARY_SERIALIZABLE | mask.RUNNABLE)
    assert peer.own_doc(ours, "double_it") == "<none>"
    assert peer.source(ours) == ""
    assert peer.num_write_formats(ours) == 0
    lib_dir = os.environ.get("TVM_FFI_TEST_LIB_DIR")
    if not lib_dir:
        pytest.skip("TVM_FFI_TEST_LIB_DIR is not set (tests/run_all.sh sets it)")
    table_lib = tvm_ffi.load_module(os.path.join(lib_dir, "module_subclass_lib.so"))
    table = table_lib.make_table_module("t")
    assert peer.kind_of(table) == "table"
    assert peer.mask_of(table) == 3
    assert peer.own_doc(table, "t") == "Return the tag and x."
    assert peer.source(table) == "// table t (c)"
    assert peer.num_write_formats(table) == 1


def test_peer_code_loads_modules_with_our_loader(peer, our_lib):
    loaded = peer.load(our_lib)
    assert loaded.kind == "library"
    assert loaded.double_it(5) == 10
    with pytest.raises(Exception, match="Failed to get file format"):
        peer.load("/tmp/no_extension_here")


def test_imports_cross_the_two_implementations(peer, our_lib):
    peer_mod = peer.make_peer_module()
    ours = tvm_ffi.load_module(our_lib)
    # Our ffi.ModuleImportModule on a peer-made module: virtual slot 10 of its
    # vtable is the exported ModuleObj::ImportModule.
    peer_mod.import_module(ours)
    assert peer.count_imports(peer_mod) == 1
    assert peer_mod.get_function("double_it", query_imports=True)(4) == 8
    # Peer code importing into a peer-made module, then asking through imports.
    other = peer.make_peer_module()
    peer.import_into(other, peer_mod)
    assert peer.probe(other, "double_it", 3) == 6
    with pytest.raises(RuntimeError, match="Cyclic dependency detected during import"):
        peer.import_into(peer_mod, other)
    peer.clear_imports_of(other)
    assert peer.count_imports(other) == 0
    assert peer.probe(other, "double_it", 3) == -1


def test_our_built_library_needs_no_cpp_symbol_of_the_runtime(our_lib):
    needed = {s for s in _dynamic_symbols(our_lib, "--undefined-only") if "3tvm3ffi" in s}
    assert needed == set()


def test_our_built_module_runs_on_the_peer_runtime(run_under_peer, our_lib):
    script = (
        "import tvm_ffi\n"
        "assert '/peer/' in tvm_ffi.__file__, tvm_ffi.__file__\n"
        "lib = tvm_ffi.load_module(%r)\n"
        "m = lib.make_our_module()\n"
        "print(m.kind, m.triple(5), lib.double_it(4))\n"
        "print(lib.load_and_call(%r, 'triple', 7), lib.load_and_call(%r, 'double_it', 7))\n"
    ) % ((str(our_lib),) * 3)
    proc = run_under_peer(script)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == ["ours 15 8", "21 14"]


def test_our_module_subclass_is_used_by_peer_code(peer, our_lib):
    mod = tvm_ffi.load_module(our_lib).make_our_module()
    assert peer.probe(mod, "triple", 2) == 6
    assert peer.implements(mod, "triple")
    peer_mod = peer.make_peer_module()
    peer.import_into(mod, peer_mod)
    assert peer.probe(mod, "answer", 0) == 42


def test_peer_code_visits_context_symbols(peer):
    import ctypes

    from tvm_ffi import libinfo

    lib = ctypes.CDLL(libinfo.find_libtvm_ffi())
    value = ctypes.c_int(7)
    assert lib.TVMFFIEnvModRegisterContextSymbol(b"__tvm_ffi_interop_ctx", ctypes.byref(value)) == 0
    assert "__tvm_ffi_interop_ctx;" in peer.context_symbols()
