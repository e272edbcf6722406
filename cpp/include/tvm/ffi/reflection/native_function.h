/*
 * Native hook values: NativeFunctionView<R(Args...)> (borrowed) and
 * NativeFunction<R(Args...)> (owning).
 *
 * A hook stored in a type-attribute column (e.g. __s_visit__, __any_hash__) is
 * one TVMFFIAny holding either
 *   - an OpaquePtr to a native adapter `TVMFFIAny (*)(Args...) noexcept`, whose
 *     result is the storage of an Expected<R>: the success value as an owned
 *     Any (None for void) or an Error object; `const Any&` parameters travel as
 *     pointers to a TVMFFIAny, AnyView parameters by value; or
 *   - a Function, called through its safe_call with the arguments packed.
 * Compiled code of every implementation calls these inline, so the adapter
 * ABI is fixed (docs/abi.md).
 *
 *   int64_t MyHash(const Any& v) { ... }
 *   auto hook = NativeFunctionView<int64_t(const Any&)>::FromNative<&MyHash>();
 *   int64_t h = hook(value);                    // throws on error
 *   Expected<int64_t> r = hook.CallExpected(value);  // never throws
 */
#ifndef TVM_FFI_REFLECTION_NATIVE_FUNCTION_H_
#define TVM_FFI_REFLECTION_NATIVE_FUNCTION_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/base.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/type_traits.h>

#include <exception>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN
namespace reflection {

template <typename FType>
class NativeFunctionView;
template <typename FType>
class NativeFunction;

namespace native_fn_detail {

static_assert(std::is_trivially_copyable_v<AnyView> && sizeof(AnyView) == sizeof(TVMFFIAny),
              "AnyView must pass exactly like a TVMFFIAny in native hook calls");

/*! \brief The storage of an Expected<R> made from R (void: None). */
template <typename R, typename F>
TVM_FFI_INLINE TVMFFIAny CallToExpectedStorage(F&& f) {
  if constexpr (std::is_void_v<R>) {
    f();
    TVMFFIAny none;
    ::tvm::ffi::detail::SetNone(&none);
    return none;
  } else {
    return ::tvm::ffi::detail::AnyUnsafe::MoveAnyToTVMFFIAny(Any(f()));
  }
}

/*! \brief The storage of an Error (type index kTVMFFIError). */
inline TVMFFIAny ErrorStorage(Error err) {
  return ::tvm::ffi::detail::AnyUnsafe::MoveAnyToTVMFFIAny(Any(std::move(err)));
}

template <typename T>
constexpr bool kIsExpectedOf = false;
template <typename T>
constexpr bool kIsExpectedOf<Expected<T>> = true;

/*!
 * \brief The native adapter of Fn for the hook signature R(Args...): Fn may
 *  return Expected<R> (noexcept) or R (exceptions become the Error result).
 */
template <auto Fn, typename R, typename... Args>
struct NativeAdapter {
  using FnRet = std::invoke_result_t<decltype(Fn), Args...>;
  static TVMFFIAny Call(Args... args) noexcept {
    if constexpr (kIsExpectedOf<std::decay_t<FnRet>>) {
      static_assert(std::is_nothrow_invocable_v<decltype(Fn), Args...>,
                    "FromNative: a function returning Expected<R> must be noexcept");
      Expected<R> result = Fn(std::forward<Args>(args)...);
      return ::tvm::ffi::detail::ExpectedUnsafe::MoveToTVMFFIAny(std::move(result));
    } else {
      try {
        return CallToExpectedStorage<R>([&]() -> decltype(auto) {
          if constexpr (std::is_void_v<R>) {
            Fn(std::forward<Args>(args)...);
          } else {
            return R(Fn(std::forward<Args>(args)...));
          }
        });
      } catch (const Error& err) {
        return ErrorStorage(err);
      } catch (const std::exception& err) {
        return ErrorStorage(Error("InternalError", err.what()));
      } catch (...) {
        return ErrorStorage(Error("InternalError", "unknown exception in a native hook"));
      }
    }
  }
};

/*! \brief Shared implementation of the view and the owning hook. */
template <typename R, typename... Args>
struct NativeHookCall {
  using Adapter = TVMFFIAny (*)(Args...) noexcept;

  static bool IsHookCell(const TVMFFIAny* cell) {
    return (cell->type_index == kTVMFFIOpaquePtr && cell->v_ptr != nullptr) ||
           cell->type_index == kTVMFFIFunction;
  }

  static Expected<R> Call(const TVMFFIAny& cell, Args... args) noexcept {
    if (cell.type_index == kTVMFFIOpaquePtr) {
      Adapter fn = reinterpret_cast<Adapter>(cell.v_ptr);
      if (fn == nullptr) return Error("ValueError", "Cannot call a null native hook");
      return ::tvm::ffi::detail::ExpectedUnsafe::MoveFromTVMFFIAny<R>(
          fn(std::forward<Args>(args)...));
    }
    if (cell.type_index != kTVMFFIFunction || cell.v_obj == nullptr) {
      return Error("ValueError", "Cannot call an empty native hook");
    }
    return CallPacked(cell.v_obj, args...);
  }

  static Expected<R> CallPacked(TVMFFIObject* func, const Args&... args) noexcept {
    try {
      constexpr size_t kNumArgs = sizeof...(Args);
      TVMFFIAny packed[kNumArgs == 0 ? 1 : kNumArgs];
      if constexpr (kNumArgs == 0) {
        ::tvm::ffi::detail::SetNone(&packed[0]);
      } else {
        size_t i = 0;
        ((packed[i++] = *::tvm::ffi::detail::AnyUnsafe::GetTVMFFIAny(AnyView(args))), ...);
      }
      const auto* cell = reinterpret_cast<const TVMFFIFunctionCell*>(
          reinterpret_cast<const char*>(func) + sizeof(TVMFFIObject));
      Any result;
      int ret = cell->safe_call(func, packed, static_cast<int32_t>(kNumArgs),
                                ::tvm::ffi::detail::AnyUnsafe::GetTVMFFIAny(&result));
      if (ret != 0) return ::tvm::ffi::detail::MoveFromRaised();
      if (result.type_index() == kTVMFFIError) return std::move(result).cast<Error>();
      if constexpr (std::is_void_v<R>) {
        return Expected<void>();
      } else if constexpr (std::is_same_v<R, Any>) {
        return Expected<Any>(std::move(result));
      } else {
        if (std::optional<R> value = std::move(result).template try_cast<R>()) {
          return Expected<R>(std::move(*value));
        }
        return Error("TypeError", "Packed hook result type mismatch");
      }
    } catch (const Error& err) {
      return err;
    } catch (const std::exception& err) {
      return Error("InternalError", err.what());
    }
  }

  static R CallOrThrow(const TVMFFIAny& cell, Args... args) {
    Expected<R> result = Call(cell, std::forward<Args>(args)...);
    if constexpr (std::is_void_v<R>) {
      result.value();
    } else {
      return std::move(result).value();
    }
  }

  static std::string TypeStr() {
    return "Variant<void*, " + TypeTraits<TypedFunction<R(Args...)>>::TypeStr() + ">";
  }
  static std::string TypeSchema() {
    return ::tvm::ffi::detail::SchemaWithArgs(
        "Variant", {TypeTraits<void*>::TypeSchema(), TypedFunction<R(Args...)>::Schema()});
  }
};

/*! \return f, or ValueError when a TypedFunction given as a hook is null. */
inline const Function& NonNullHook(const Function& f) {
  if (f == nullptr) {
    TVM_FFI_THROW(ValueError) << "Cannot make a native hook from a null TypedFunction";
  }
  return f;
}

}  // namespace native_fn_detail

/*!
 * \brief A borrowed hook (16 bytes, one TVMFFIAny): a native adapter pointer
 *  or a Function owned elsewhere (e.g. by a type-attribute column).
 */
template <typename R, typename... Args>
class NativeFunctionView<R(Args...)> {
  using Impl = native_fn_detail::NativeHookCall<R, Args...>;

 public:
  /*! \brief The native adapter type. */
  using NativeAdapter = TVMFFIAny (*)(Args...) noexcept;

  /*! \brief A view of a native adapter (non-null). */
  explicit NativeFunctionView(NativeAdapter fn) {
    data_.type_index = kTVMFFIOpaquePtr;
    data_.zero_padding = 0;
    data_.v_int64 = 0;
    data_.v_ptr = reinterpret_cast<void*>(fn);
  }
  NativeFunctionView(std::nullptr_t) = delete;  // a hook is never empty by construction
  /*!
   * \brief A view of a Function (the Function must outlive the view). Only a
   *  Function itself: an Any or AnyView goes through cast<>, which checks it.
   */
  template <typename F, typename = std::enable_if_t<std::is_same_v<F, Function>>>
  explicit NativeFunctionView(const F& f) {
    TypeTraits<Function>::CopyToAnyView(f, &data_);
  }
  /*! \brief A temporary Function would be freed while the view still refers to it. */
  template <typename F, typename = std::enable_if_t<std::is_same_v<F, Function>>>
  explicit NativeFunctionView(F&& f) = delete;
  /*!
   * \brief A view of a typed function returning R or Expected<R>. The function
   *  must outlive the view, so a temporary is refused; a null one throws.
   */
  template <typename FR,
            typename = std::enable_if_t<std::is_same_v<FR, R> || std::is_same_v<FR, Expected<R>>>>
  NativeFunctionView(const TypedFunction<FR(Args...)>& f) {  // NOLINT(runtime/explicit)
    TypeTraits<Function>::CopyToAnyView(native_fn_detail::NonNullHook(f.packed()), &data_);
  }
  template <typename FR,
            typename = std::enable_if_t<std::is_same_v<FR, R> || std::is_same_v<FR, Expected<R>>>>
  NativeFunctionView(TypedFunction<FR(Args...)>&& f) = delete;
  NativeFunctionView(const NativeFunction<R(Args...)>& f)  // NOLINT(runtime/explicit)
      : data_(*::tvm::ffi::detail::AnyUnsafe::GetTVMFFIAny(f.data_)) {}

  /*! \brief The hook of Fn (see FromNative of NativeFunction). */
  template <auto Fn>
  static NativeFunctionView FromNative() {
    return NativeFunctionView(&native_fn_detail::NativeAdapter<Fn, R, Args...>::Call);
  }

  /*! \return Whether a hook is held. */
  bool defined() const { return Impl::IsHookCell(&data_); }
  explicit operator bool() const { return defined(); }
  /*! \return Whether the hook is a native adapter (else a Function). */
  bool is_native() const { return data_.type_index == kTVMFFIOpaquePtr; }
  /*! \return The native adapter, or nullptr for a Function hook. */
  NativeAdapter native_ptr() const {
    return is_native() ? reinterpret_cast<NativeAdapter>(data_.v_ptr) : nullptr;
  }

  /*! \brief Call the hook; its error is thrown. */
  R operator()(Args... args) const { return Impl::CallOrThrow(data_, std::forward<Args>(args)...); }
  /*! \brief Call the hook; never throws. */
  Expected<R> CallExpected(Args... args) const noexcept {
    return Impl::Call(data_, std::forward<Args>(args)...);
  }

 private:
  NativeFunctionView() { ::tvm::ffi::detail::SetNone(&data_); }

  TVMFFIAny data_;
  friend class NativeFunction<R(Args...)>;
  template <typename, typename>
  friend struct ::tvm::ffi::TypeTraits;
};

/*! \brief An owning hook: a native adapter pointer or a Function it keeps alive. */
template <typename R, typename... Args>
class NativeFunction<R(Args...)> {
  using Impl = native_fn_detail::NativeHookCall<R, Args...>;

 public:
  using NativeAdapter = TVMFFIAny (*)(Args...) noexcept;

  NativeFunction() = default;
  explicit NativeFunction(NativeAdapter fn) : data_(reinterpret_cast<void*>(fn)) {}
  template <typename F, typename = std::enable_if_t<std::is_same_v<F, Function>>>
  explicit NativeFunction(F f) : data_(std::move(f)) {}
  /*! \brief The hook of a typed function returning R or Expected<R>; a null one throws. */
  template <typename FR,
            typename = std::enable_if_t<std::is_same_v<FR, R> || std::is_same_v<FR, Expected<R>>>>
  explicit NativeFunction(TypedFunction<FR(Args...)> f) {
    native_fn_detail::NonNullHook(f.packed());
    data_ = std::move(f).packed();
  }
  explicit NativeFunction(const NativeFunctionView<R(Args...)>& view)
      : data_(AnyView::CopyFromTVMFFIAny(view.data_)) {}

  /*!
   * \brief The hook of the function Fn: Fn returns Expected<R> (and is
   *  noexcept) or R; with R, a thrown ffi::Error is kept and any other
   *  std::exception becomes Error("InternalError", what()).
   */
  template <auto Fn>
  static NativeFunction FromNative() {
    return NativeFunction(&native_fn_detail::NativeAdapter<Fn, R, Args...>::Call);
  }

  bool defined() const {
    return Impl::IsHookCell(::tvm::ffi::detail::AnyUnsafe::GetTVMFFIAny(data_));
  }
  explicit operator bool() const { return defined(); }
  bool is_native() const { return data_.type_index() == kTVMFFIOpaquePtr; }
  NativeAdapter native_ptr() const {
    return is_native() ? reinterpret_cast<NativeAdapter>(
                             ::tvm::ffi::detail::AnyUnsafe::GetTVMFFIAny(data_)->v_ptr)
                       : nullptr;
  }

  R operator()(Args... args) const {
    return Impl::CallOrThrow(*::tvm::ffi::detail::AnyUnsafe::GetTVMFFIAny(data_),
                             std::forward<Args>(args)...);
  }
  Expected<R> CallExpected(Args... args) const noexcept {
    return Impl::Call(*::tvm::ffi::detail::AnyUnsafe::GetTVMFFIAny(data_),
                      std::forward<Args>(args)...);
  }

 private:
  Any data_;
  friend class NativeFunctionView<R(Args...)>;
  template <typename, typename>
  friend struct ::tvm::ffi::TypeTraits;
};

}  // namespace reflection

/*! \brief A borrowed hook in Any: OpaquePtr != NULL or Function. */
template <typename R, typename... Args>
struct TypeTraits<reflection::NativeFunctionView<R(Args...)>> : TypeTraitsBase {
  using Self = reflection::NativeFunctionView<R(Args...)>;
  using Impl = reflection::native_fn_detail::NativeHookCall<R, Args...>;
  static constexpr int32_t field_static_type_index = kTVMFFIAny;
  static void CopyToAnyView(const Self& src, TVMFFIAny* r) { *r = src.data_; }
  static void MoveToAny(Self src, TVMFFIAny* r) {
    *r = src.data_;
    if (r->type_index >= kTVMFFIStaticObjectBegin)
      detail::ObjectUnsafe::IncRefObjectHandle(r->v_obj);
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) { return Impl::IsHookCell(src); }
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    Self out;
    out.data_ = *src;
    return out;
  }
  /*!
   * \brief A view borrows: the source keeps its reference, so a view cast from a temporary Any
   *  is valid only for a native hook (a Function hook is freed with the Any).
   */
  static Self MoveFromAnyAfterCheck(TVMFFIAny* src) { return CopyFromAnyViewAfterCheck(src); }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    if (!CheckAnyStrict(src)) return std::nullopt;
    return CopyFromAnyViewAfterCheck(src);
  }
  static std::string TypeStr() { return Impl::TypeStr(); }
  static std::string TypeSchema() { return Impl::TypeSchema(); }
};

/*! \brief An owning hook in Any: OpaquePtr != NULL or Function. */
template <typename R, typename... Args>
struct TypeTraits<reflection::NativeFunction<R(Args...)>> : TypeTraitsBase {
  using Self = reflection::NativeFunction<R(Args...)>;
  using Impl = reflection::native_fn_detail::NativeHookCall<R, Args...>;
  static constexpr int32_t field_static_type_index = kTVMFFIAny;
  static void CopyToAnyView(const Self& src, TVMFFIAny* r) {
    *r = *detail::AnyUnsafe::GetTVMFFIAny(src.data_);
  }
  static void MoveToAny(Self src, TVMFFIAny* r) {
    *r = detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(src.data_));
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) { return Impl::IsHookCell(src); }
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    Self out;
    out.data_ = AnyView::CopyFromTVMFFIAny(*src);
    return out;
  }
  static Self MoveFromAnyAfterCheck(TVMFFIAny* src) {
    Self out;
    out.data_ = detail::AnyUnsafe::MoveTVMFFIAnyToAny(src);
    return out;
  }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    if (!CheckAnyStrict(src)) return std::nullopt;
    return CopyFromAnyViewAfterCheck(src);
  }
  static std::string TypeStr() { return Impl::TypeStr(); }
  static std::string TypeSchema() { return Impl::TypeSchema(); }
};

TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_REFLECTION_NATIVE_FUNCTION_H_
