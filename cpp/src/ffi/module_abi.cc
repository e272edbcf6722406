/*
 * The C++ entry points that libraries built against the other tvm-ffi
 * implementation's headers (the apache-tvm-ffi wheel) link to in libtvm_ffi:
 * tvm::ffi::Module::LoadFromFile, Module::VisitContextSymbols, the
 * out-of-line members of tvm::ffi::ModuleObj and its vtable and typeinfo
 * (a subclass's constructor and typeinfo refer to them).
 *
 * Those names carry no inline namespace, unlike every class of our headers,
 * so this file declares layout-identical stand-ins directly in tvm::ffi and
 * must not include our C++ headers (the names would clash). Each member
 * forwards to module.cc through the raw bridges of module_internal.h; their
 * errors reach the caller as the reference's Error (peer_error.h).
 * Only symbols that such libraries cannot define themselves are exported
 * (cmake/libtvm_ffi.map lists them by mangled name): nothing inline, no
 * template instance, no typeinfo of a header-only type.
 */
#include "module_internal.h"
#include "peer_error.h"

#include <tvm/ffi/c_api.h>

#include <cstdint>

namespace tvm {
namespace ffi {

/*! \brief Stand-in of the object base class: the 24-byte header, no vtable. */
class Object {
 protected:
  TVMFFIObject header_;
};

class String;
class Module;
template <typename FType>
class TypedFunction;

// Named (not anonymous) so that the members returning them keep external linkage.
namespace module_abi_shadow {
/*!
 * \brief A returned reference (Optional<Function>, Module, Array<String>): one
 *  owned object pointer; non-trivially destructible, so it is returned through
 *  a hidden pointer exactly like the classes it stands for.
 */
class RefResult {
 public:
  explicit RefResult(TVMFFIObjectHandle handle) : handle_(handle) {}
  RefResult(RefResult&& other) : handle_(other.handle_) { other.handle_ = nullptr; }
  RefResult(const RefResult&) = delete;
  ~RefResult() {
    if (handle_ != nullptr) TVMFFIObjectDecRef(handle_);
  }
  bool has_value() const { return handle_ != nullptr; }

 private:
  TVMFFIObjectHandle handle_;
};

/*! \brief A returned Any-backed value (Optional<String>, String, Bytes): one owned cell. */
class AnyResult {
 public:
  AnyResult() {
    cell_.type_index = kTVMFFINone;
    cell_.zero_padding = 0;
    cell_.v_int64 = 0;
  }
  AnyResult(AnyResult&& other) : cell_(other.cell_) { other.cell_.type_index = kTVMFFINone; }
  AnyResult(const AnyResult&) = delete;
  ~AnyResult() {
    if (cell_.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(cell_.v_obj);
  }
  TVMFFIAny* cell() { return &cell_; }

 private:
  TVMFFIAny cell_;
};
}  // namespace module_abi_shadow
using module_abi_shadow::AnyResult;
using module_abi_shadow::RefResult;

/*! \brief Stand-in of ModuleObj: the same virtual functions in the same order, the same members. */
class TVM_FFI_DLL ModuleObj : public Object {
 public:
  virtual const char* kind() const = 0;
  virtual int GetPropertyMask() const;
  virtual RefResult GetFunction(const String& name) = 0;
  virtual bool ImplementsFunction(const String& name);
  virtual AnyResult GetFunctionDoc(const String& name);
  virtual AnyResult GetFunctionMetadata(const String& name);
  virtual void WriteToFile(const String& file, const String& format) const;
  virtual RefResult GetWriteFormats() const;
  virtual AnyResult SaveToBytes() const;
  virtual AnyResult InspectSource(const String& format) const;
  virtual void ImportModule(const Module& other);
  virtual void ClearImports();

  RefResult GetFunction(const String& name, bool query_imports);
  bool ImplementsFunction(const String& name, bool query_imports);
  AnyResult GetFunctionDoc(const String& name, bool query_imports);
  AnyResult GetFunctionMetadata(const String& name, bool query_imports);

 protected:
  void* imports_;

 private:
  void* import_lookup_cache_;
};

static_assert(sizeof(ModuleObj) == 48, "ModuleObj layout: vptr, header, imports_, cache");

/*! \brief Stand-in of Module (only its static members are defined here). */
class TVM_FFI_DLL Module {
 public:
  static RefResult LoadFromFile(const String& file_name);
  static void VisitContextSymbols(const TypedFunction<void(String, void*)>& callback);

 private:
  void* data_;
};

namespace bridge = ::tvm::ffi::detail;

// The virtual defaults below are reached only through this class's own vtable,
// i.e. while a subclass is being constructed or destroyed; they behave like
// the defaults of our ModuleObj.
int ModuleObj::GetPropertyMask() const { return 0; }

bool ModuleObj::ImplementsFunction(const String& name) { return GetFunction(name).has_value(); }

AnyResult ModuleObj::GetFunctionDoc(const String&) { return AnyResult(); }

AnyResult ModuleObj::GetFunctionMetadata(const String&) { return AnyResult(); }

void ModuleObj::WriteToFile(const String&, const String&) const {
  peer_abi::Guarded([&] { bridge::ModuleAbiThrowUnsupported(this, "WriteToFile"); });
}

RefResult ModuleObj::GetWriteFormats() const {
  return RefResult(peer_abi::Guarded([] { return bridge::ModuleAbiEmptyArray(); }));
}

AnyResult ModuleObj::SaveToBytes() const {
  peer_abi::Guarded([&] { bridge::ModuleAbiThrowUnsupported(this, "SaveToBytes"); });
  return AnyResult();  // not reached: the guard rethrows
}

AnyResult ModuleObj::InspectSource(const String&) const {
  AnyResult out;
  out.cell()->type_index = kTVMFFISmallStr;  // "": length 0, zero payload
  return out;
}

void ModuleObj::ImportModule(const Module& other) {
  peer_abi::Guarded([&] { bridge::ModuleAbiImportModule(this, &other); });
}

void ModuleObj::ClearImports() {
  peer_abi::Guarded([&] { bridge::ModuleAbiClearImports(this); });
}

RefResult ModuleObj::GetFunction(const String& name, bool query_imports) {
  return RefResult(
      peer_abi::Guarded([&] { return bridge::ModuleAbiGetFunction(this, &name, query_imports); }));
}

bool ModuleObj::ImplementsFunction(const String& name, bool query_imports) {
  return peer_abi::Guarded(
      [&] { return bridge::ModuleAbiImplementsFunction(this, &name, query_imports); });
}

AnyResult ModuleObj::GetFunctionDoc(const String& name, bool query_imports) {
  AnyResult out;
  peer_abi::Guarded(
      [&] { bridge::ModuleAbiGetFunctionDoc(this, &name, query_imports, out.cell()); });
  return out;
}

AnyResult ModuleObj::GetFunctionMetadata(const String& name, bool query_imports) {
  AnyResult out;
  peer_abi::Guarded(
      [&] { bridge::ModuleAbiGetFunctionMetadata(this, &name, query_imports, out.cell()); });
  return out;
}

RefResult Module::LoadFromFile(const String& file_name) {
  return RefResult(peer_abi::Guarded([&] { return bridge::ModuleAbiLoadFromFile(&file_name); }));
}

void Module::VisitContextSymbols(const TypedFunction<void(String, void*)>& callback) {
  peer_abi::Guarded([&] { bridge::ModuleAbiVisitContextSymbols(&callback); });
}

}  // namespace ffi
}  // namespace tvm
