/*
 * VisitErrorContext: where in a structure an error raised during a
 * structural visit or mutation happened.
 *
 * As an error leaves each visited node, the node is appended to the context
 * stored in the error's extra_context, innermost first. FindAccessPaths
 * replays that pattern from a root and returns the AccessPaths that lead to
 * the failing node:
 *
 *   try {
 *     StructuralWalk(root, [](const Any& v) -> WalkResult { ... throw ... });
 *   } catch (const Error& err) {
 *     if (auto ctx = VisitErrorContext::TryGetFromError(err)) {
 *       Array<reflection::AccessPath> where = VisitErrorContext::FindAccessPaths(root, *ctx);
 *     }
 *   }
 *
 * Code that walks structures by hand records itself with the macros at the
 * end of this header.
 */
#ifndef TVM_FFI_EXTRA_VISIT_ERROR_CONTEXT_H_
#define TVM_FFI_EXTRA_VISIT_ERROR_CONTEXT_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/access_path.h>

#include <optional>
#include <sstream>
#include <string>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN

/*!
 * \brief The visit trail of an error (layout is ABI: List @24, Optional @32).
 *  prev_error_context keeps whatever extra context the error carried before.
 */
class VisitErrorContextObj : public Object {
 public:
  /*! \brief The visited nodes the error passed through, innermost first (null for non-objects). */
  List<ObjectRef> reverse_visit_pattern;
  /*! \brief The error's previous extra context, if it had one. */
  Optional<ObjectRef> prev_error_context;

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.VisitErrorContext", VisitErrorContextObj, Object);
};

/*! \brief Reference to a VisitErrorContextObj. */
class VisitErrorContext : public ObjectRef {
 public:
  /*! \brief A fresh context with an empty trail. */
  static VisitErrorContext Create() {
    auto n = make_object<VisitErrorContextObj>();
    return VisitErrorContext(std::move(n));
  }

  /*! \return The visit context attached to err, if its extra context is one. */
  static std::optional<VisitErrorContext> TryGetFromError(const Error& err) {
    if (!err.defined()) return std::nullopt;
    TVMFFIObjectHandle extra = err->extra_context;
    if (extra == nullptr) return std::nullopt;
    Object* obj = reinterpret_cast<Object*>(extra);
    if (!obj->IsInstance<VisitErrorContextObj>()) return std::nullopt;
    return VisitErrorContext(detail::ObjectUnsafe::ObjectPtrFromUnowned<VisitErrorContextObj>(obj));
  }

  /*!
   * \brief Record that err left node: append node to err's visit context,
   *  creating the context first (the previous extra context is kept as its
   *  prev_error_context). The error object is updated in place.
   */
  static void AppendToError(const Error& err, const ObjectRef& node) {
    if (!err.defined()) return;
    std::optional<VisitErrorContext> ctx = TryGetFromError(err);
    if (!ctx.has_value()) {
      VisitErrorContext fresh = Create();
      ErrorObj* cell = const_cast<ErrorObj*>(err.get());
      TVMFFIObjectHandle prev = cell->extra_context;
      if (prev != nullptr) {
        // The reference the error held moves into the context.
        fresh.get()->prev_error_context = ObjectRef(
            detail::ObjectUnsafe::ObjectPtrFromOwned<Object>(static_cast<TVMFFIObject*>(prev)));
      }
      cell->extra_context = detail::ObjectUnsafe::MoveObjectRefToHandle(ObjectRef(fresh));
      ctx = std::move(fresh);
    }
    ctx->get()->reverse_visit_pattern.push_back(node);
  }

  /*! \brief As AppendToError, for any value: objects are recorded, other values as null. */
  static void AppendValueToError(const Error& err, const AnyView& value) {
    if (value.type_index() >= kTVMFFIStaticObjectBegin) {
      AppendToError(err, ObjectRef(detail::ObjectUnsafe::ObjectPtrFromUnowned<Object>(
                             detail::AnyUnsafe::GetTVMFFIAny(value)->v_obj)));
    } else {
      AppendToError(err, ObjectRef());
    }
  }

  /*!
   * \brief The paths from root to the node where the error of ctx happened.
   *
   *  The trail is normalised (null entries dropped, adjacent duplicates
   *  collapsed), then matched outermost first during a depth-first walk of
   *  root through reflected fields, Array/List items and Map/Dict values.
   *  With allow_prefix_match a partially matched node whose subtree gives no
   *  full match contributes its own path. Runs in the runtime (global
   *  "ffi.VisitErrorContext.FindAccessPaths"), looked up on each call: this is
   *  an error path, and inline header code keeps no static state.
   */
  static Array<reflection::AccessPath> FindAccessPaths(const ObjectRef& root,
                                                       const VisitErrorContext& ctx,
                                                       bool allow_prefix_match = false) {
    Function find = Function::GetGlobalRequired("ffi.VisitErrorContext.FindAccessPaths");
    return find(root, ctx, allow_prefix_match).cast<Array<reflection::AccessPath>>();
  }

  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(VisitErrorContext, ObjectRef, VisitErrorContextObj);
};

namespace detail {
/*! \brief TVM_FFI_VISIT_END's step: VisitErrorContext::AppendToError(err, node). */
inline void UpdateVisitErrorContext(const Error& err, const ObjectRef& node) {
  VisitErrorContext::AppendToError(err, node);
}

/*! \brief A fresh visit context whose trail starts with node. */
inline VisitErrorContext MakeVisitErrorContext(const ObjectRef& node) {
  VisitErrorContext ctx = VisitErrorContext::Create();
  ctx->reverse_visit_pattern.push_back(node);
  return ctx;
}

/*!
 * \brief Collects the message of TVM_FFI_VISIT_THROW and throws an Error whose
 *  visit context starts with node.
 */
class VisitErrorBuilder {
 public:
  VisitErrorBuilder(const char* kind, ObjectRef node, const char* file, int line, const char* func)
      : kind_(kind), node_(std::move(node)), file_(file), line_(line), func_(func) {}
  VisitErrorBuilder(const VisitErrorBuilder&) = delete;
  VisitErrorBuilder& operator=(const VisitErrorBuilder&) = delete;
  std::ostringstream& stream() { return stream_; }
#if defined(_MSC_VER)
  __declspec(noreturn)
#else
  [[noreturn]]
#endif
  ~VisitErrorBuilder() noexcept(false) {
    const TVMFFIByteArray* bt = TVMFFIBacktrace(file_, line_, func_, 0);
    std::string_view trace = bt ? std::string_view(bt->data, bt->size) : std::string_view();
    Error error(kind_, stream_.str(), trace);
    VisitErrorContext::AppendToError(error, node_);
    throw error;
  }

 private:
  const char* kind_;
  ObjectRef node_;
  const char* file_;
  int line_;
  const char* func_;
  std::ostringstream stream_;
};
}  // namespace detail

TVM_FFI_NAMESPACE_END

/*!
 * \brief Bracket the visit of node: an Error leaving the block gets node
 *  appended to its visit context and is rethrown.
 *
 *   TVM_FFI_VISIT_BEGIN();
 *   ... visit the children of node ...
 *   TVM_FFI_VISIT_END(node);
 */
#define TVM_FFI_VISIT_BEGIN() try {
#define TVM_FFI_VISIT_END(node)                                              \
  }                                                                          \
  catch (const ::tvm::ffi::Error& _tvm_ffi_visit_err) {                      \
    ::tvm::ffi::detail::UpdateVisitErrorContext(_tvm_ffi_visit_err, (node)); \
    throw;                                                                   \
  }

/*!
 * \brief As TVM_FFI_VISIT_END, in a function returning an Expected: the error
 *  is returned instead of rethrown.
 */
#define TVM_FFI_VISIT_END_RETURN_EXPECTED(node)                              \
  }                                                                          \
  catch (const ::tvm::ffi::Error& _tvm_ffi_visit_err) {                      \
    ::tvm::ffi::detail::UpdateVisitErrorContext(_tvm_ffi_visit_err, (node)); \
    return _tvm_ffi_visit_err;                                               \
  }

/*! \brief Throw a new Error of Kind whose visit context starts with node: `<< msg`. */
#define TVM_FFI_VISIT_THROW(ErrorKind, node)                                                      \
  ::tvm::ffi::detail::VisitErrorBuilder(#ErrorKind, (node), __FILE__, __LINE__, TVM_FFI_FUNC_SIG) \
      .stream()

#endif  // TVM_FFI_EXTRA_VISIT_ERROR_CONTEXT_H_
