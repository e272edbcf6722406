/*
 * Registration of global functions with their metadata.
 *
 *   TVM_FFI_STATIC_INIT_BLOCK() {
 *     namespace refl = tvm::ffi::reflection;
 *     refl::GlobalDef()
 *         .def("my.add", [](int a, int b) { return a + b; }, "Add two ints.")
 *         .def_packed("my.sum", [](const AnyView* args, int32_t n, Any* rv) { ... });
 *   }
 *
 * Each function is registered through TVMFFIFunctionSetGlobalFromMethodInfo
 * with its doc and the metadata JSON {"type_schema": "<schema>", "doc": "..."}
 * (docs/abi.md §5; "doc" only when given).
 * Registering a name that already exists raises an error naming it, unless
 * GlobalDef(true) asks to override.
 */
#ifndef TVM_FFI_REFLECTION_REGISTRY_H_
#define TVM_FFI_REFLECTION_REGISTRY_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/base.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>

#include <string>
#include <string_view>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN
namespace reflection {

/*! \brief Chainable registration of global functions. */
class GlobalDef {
 public:
  /*! \param allow_override Replace existing registrations instead of raising. */
  explicit GlobalDef(bool allow_override = false) : allow_override_(allow_override) {}

  /*! \brief Register a typed callable (lambda, function pointer, functor) as name. */
  template <typename TCallable>
  GlobalDef& def(std::string_view name, TCallable callable, std::string_view doc = {}) {
    using F = std::decay_t<TCallable>;
    Function f = Function::FromTyped(F(std::move(callable)), std::string(name));
    Register(name, f, doc, detail::MakeFuncMetadata(detail::FuncSignature<F>::Schema(), doc));
    return *this;
  }

  /*! \brief Register a packed callable void(const AnyView*, int32_t, Any*) as name. */
  template <typename TCallable>
  GlobalDef& def_packed(std::string_view name, TCallable callable, std::string_view doc = {}) {
    Function f = Function::FromPacked(std::move(callable));
    // A packed function takes any arguments: its schema is Function(...) -> Any.
    Register(name, f, doc, detail::MakeFuncMetadata("{\"type\":\"ffi.Function\"}", doc));
    return *this;
  }

  /*! \brief Register an existing Function (e.g. a TypedFunction's) as name. */
  GlobalDef& def_function(std::string_view name, const Function& f, std::string_view doc = {}) {
    Register(name, f, doc, detail::MakeFuncMetadata("{\"type\":\"ffi.Function\"}", doc));
    return *this;
  }

 private:
  void Register(std::string_view name, const Function& f, std::string_view doc,
                const std::string& metadata) {
    TVMFFIMethodInfo info;
    info.name = TVMFFIByteArray{name.data(), name.size()};
    info.doc = TVMFFIByteArray{doc.data(), doc.size()};
    info.metadata = TVMFFIByteArray{metadata.data(), metadata.size()};
    info.flags = 0;
    TypeTraits<Function>::CopyToAnyView(f, &info.method);
    TVM_FFI_CHECK_SAFE_CALL(TVMFFIFunctionSetGlobalFromMethodInfo(&info, allow_override_ ? 1 : 0));
  }

  bool allow_override_;
};

}  // namespace reflection
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_REFLECTION_REGISTRY_H_
