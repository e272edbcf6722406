/*
 * Internals of function.h: signature deduction of C++ callables, the
 * conversion of packed arguments to typed parameters (with the mismatch
 * messages of docs/abi.md §5), and the signature text / type schema of a callable.
 *
 * Include <tvm/ffi/function.h> instead of this header.
 */
#ifndef TVM_FFI_FUNCTION_DETAILS_H_
#define TVM_FFI_FUNCTION_DETAILS_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/base.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/string.h>
#include <tvm/ffi/type_traits.h>

#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {

/*! \brief R(Args...) of a function type, with helpers over its parameters. */
template <typename R, typename... Args>
struct FuncSignatureImpl {
  using RetType = R;
  using ArgsTuple = std::tuple<Args...>;
  static constexpr size_t kNumArgs = sizeof...(Args);

  /*! \brief The user-facing name of a parameter or return type. */
  template <typename T>
  static std::string TypeStrOf() {
    using U = std::remove_const_t<std::remove_reference_t<T>>;
    if constexpr (std::is_void_v<U>) {
      return "void";
    } else {
      return TypeTraits<U>::TypeStr();
    }
  }
  template <typename T>
  static std::string TypeSchemaOf() {
    using U = std::remove_const_t<std::remove_reference_t<T>>;
    if constexpr (std::is_void_v<U>) {
      return SchemaOf("None");
    } else {
      return TypeTraits<U>::TypeSchema();
    }
  }

  /*! \brief "(0: int, 1: str) -> int" */
  static std::string Sig() {
    std::ostringstream os;
    os << '(';
    size_t index = 0;
    ((os << (index == 0 ? "" : ", ") << index << ": " << TypeStrOf<Args>(), ++index), ...);
    os << ") -> " << TypeStrOf<R>();
    return os.str();
  }

  /*!
   * \brief {"type":"ffi.Function","named_args":{"return":[ret],"params":[arg0, ...]}}
   *  (docs/abi.md §5; readers also take the older flat form "args":[ret, arg0, ...]).
   */
  static std::string Schema() {
    std::string s = "{\"type\":\"ffi.Function\",\"named_args\":{\"return\":[";
    s += TypeSchemaOf<R>();
    s += "],\"params\":[";
    bool first = true;
    ((s += (first ? "" : ","), s += TypeSchemaOf<Args>(), first = false), ...);
    s += "]}}";
    return s;
  }
};

/*! \brief Signature of a callable: function type, function pointer, functor or lambda. */
template <typename F, typename = void>
struct FuncSignature : FuncSignature<decltype(&F::operator())> {};

template <typename R, typename... Args>
struct FuncSignature<R(Args...)> : FuncSignatureImpl<R, Args...> {};
template <typename R, typename... Args>
struct FuncSignature<R (*)(Args...)> : FuncSignatureImpl<R, Args...> {};
template <typename R, typename... Args>
struct FuncSignature<R (*)(Args...) noexcept> : FuncSignatureImpl<R, Args...> {};
template <typename C, typename R, typename... Args>
struct FuncSignature<R (C::*)(Args...)> : FuncSignatureImpl<R, Args...> {};
template <typename C, typename R, typename... Args>
struct FuncSignature<R (C::*)(Args...) const> : FuncSignatureImpl<R, Args...> {};
template <typename C, typename R, typename... Args>
struct FuncSignature<R (C::*)(Args...) noexcept> : FuncSignatureImpl<R, Args...> {};
template <typename C, typename R, typename... Args>
struct FuncSignature<R (C::*)(Args...) const noexcept> : FuncSignatureImpl<R, Args...> {};

/*! \brief The name printed for functions created without one (nothing). */
inline const char* AnonymousFuncName() { return ""; }

/*!
 * \brief Builds the signature text lazily: only an error needs it, so the
 *  success path never formats strings.
 */
using SigPrinter = std::string (*)();

[[noreturn]] inline void ThrowArgCountMismatch(const char* name, SigPrinter sig, size_t expected,
                                               int32_t got) {
  TVM_FFI_THROW(TypeError) << "Mismatched number of arguments when calling: `"
                           << (name ? name : AnonymousFuncName()) << sig() << "`. Expected "
                           << expected << " but got " << got << " arguments";
  TVM_FFI_UNREACHABLE();  // the builder above throws
}

[[noreturn]] inline void ThrowArgTypeMismatch(const char* name, SigPrinter sig, size_t index,
                                              const std::string& expected, const std::string& got) {
  TVM_FFI_THROW(TypeError) << "Mismatched type on argument #" << index << " when calling: `"
                           << (name ? name : AnonymousFuncName()) << sig() << "`. Expected `"
                           << expected << "` but got `" << got << "`";
  TVM_FFI_UNREACHABLE();  // the builder above throws
}

/*! \brief Whether a parameter type can be filled from a packed argument. */
template <typename Arg>
constexpr bool kIsValidParam =
    !std::is_reference_v<Arg> ||
    (std::is_lvalue_reference_v<Arg> && std::is_const_v<std::remove_reference_t<Arg>>) ||
    std::is_rvalue_reference_v<Arg>;

/*!
 * \brief A TVMFFIByteArray* parameter. A ByteArrayPtr argument is passed on as is; a SmallBytes
 *  one (Python passes bytes of up to 7 bytes so) has no TVMFFIByteArray to point at, so one is
 *  kept here, in the call's tuple of converted arguments, viewing the bytes inside the packed
 *  argument: both outlive the call.
 */
struct ByteArrayParam {
  TVMFFIByteArray* ptr;
  TVMFFIByteArray small;
  operator TVMFFIByteArray*() && { return ptr != nullptr ? ptr : &small; }  // NOLINT
};

/*! \brief What a parameter of type T is converted to before the call (T itself but for one). */
template <typename T>
struct ParamHolder {
  using type = T;
};
template <>
struct ParamHolder<TVMFFIByteArray*> {
  using type = ByteArrayParam;
};
template <typename Arg>
using ParamHolderOf = typename ParamHolder<std::remove_const_t<std::remove_reference_t<Arg>>>::type;

/*!
 * \brief Convert packed argument #I to T when it is not of T's exact stored kind: a
 *  conversion, or the TypeError. Kept out of line so that the exact-kind path of
 *  UnpackArg inlines into the caller without this frame's stack and calls.
 */
template <typename T, size_t I>
TVM_FFI_NO_INLINE T UnpackArgConverted(const TVMFFIAny* args, const char* name, SigPrinter sig) {
  using Traits = TypeTraits<T>;
  std::optional<T> value = Traits::TryCastFromAnyView(args + I);
  if (TVM_FFI_UNLIKELY(!value.has_value())) {
    ThrowArgTypeMismatch(name, sig, I, Traits::TypeStr(), Traits::GetMismatchTypeInfo(args + I));
  }
  return std::move(*value);
}

/*! \brief Convert packed argument #I to the parameter type Arg. */
template <typename Arg, size_t I>
TVM_FFI_INLINE ParamHolderOf<Arg> UnpackArg(const TVMFFIAny* args, const char* name,
                                            SigPrinter sig) {
  using T = std::remove_const_t<std::remove_reference_t<Arg>>;
  static_assert(kIsValidParam<Arg>,
                "Function::FromTyped: parameters must be values or const references");
  if constexpr (std::is_same_v<T, TVMFFIByteArray*>) {
    const TVMFFIAny* arg = args + I;
    if (arg->type_index == kTVMFFISmallBytes) {
      return ByteArrayParam{nullptr, TVMFFIByteArray{arg->v_bytes, arg->small_str_len}};
    }
    if (TVM_FFI_UNLIKELY(arg->type_index != kTVMFFIByteArrayPtr)) {
      ThrowArgTypeMismatch(name, sig, I, TypeTraits<T>::TypeStr(),
                           TypeTraits<T>::GetMismatchTypeInfo(arg));
    }
    return ByteArrayParam{static_cast<TVMFFIByteArray*>(arg->v_ptr), TVMFFIByteArray{nullptr, 0}};
  } else if constexpr (std::is_same_v<T, AnyView>) {
    return AnyView::CopyFromTVMFFIAny(args[I]);
  } else if constexpr (std::is_same_v<T, Any>) {
    return Any(AnyView::CopyFromTVMFFIAny(args[I]));
  } else {
    using Traits = TypeTraits<T>;
    static_assert(Traits::convert_enabled,
                  "Function::FromTyped: a parameter type has no conversion from Any");
    if (TVM_FFI_LIKELY(Traits::CheckAnyStrict(args + I))) {
      return Traits::CopyFromAnyViewAfterCheck(args + I);
    }
    return UnpackArgConverted<T, I>(args, name, sig);
  }
}

template <typename F, typename R, typename... Args, size_t... I>
inline void CallUnpackedImpl(F& f, const char* name, SigPrinter sig, const TVMFFIAny* args,
                             int32_t num_args, TVMFFIAny* result, std::index_sequence<I...>) {
  if (TVM_FFI_UNLIKELY(num_args != static_cast<int32_t>(sizeof...(Args)))) {
    ThrowArgCountMismatch(name, sig, sizeof...(Args), num_args);
  }
  // A braced list converts the arguments left to right, so the first bad
  // argument is the one reported.
  std::tuple<ParamHolderOf<Args>...> values{UnpackArg<Args, I>(args, name, sig)...};
  (void)args;
  using RetT = std::remove_const_t<std::remove_reference_t<R>>;
  if constexpr (std::is_void_v<R>) {
    f(std::get<I>(std::move(values))...);
  } else if constexpr (std::is_same_v<RetT, Any>) {
    Any ret = f(std::get<I>(std::move(values))...);
    *result = AnyUnsafe::MoveAnyToTVMFFIAny(std::move(ret));
  } else if constexpr (std::is_same_v<RetT, AnyView>) {
    // A returned view must become an owned value (borrowed strings are copied).
    Any ret(AnyView(f(std::get<I>(std::move(values))...)));
    *result = AnyUnsafe::MoveAnyToTVMFFIAny(std::move(ret));
  } else {
    static_assert(TypeTraits<RetT>::convert_enabled,
                  "Function::FromTyped: the return type has no conversion to Any");
    TypeTraits<RetT>::MoveToAny(RetT(f(std::get<I>(std::move(values))...)), result);
  }
}

/*!
 * \brief Call f (F may be const-qualified) of signature R(Args...) with packed arguments, writing
 * the owned result; throws TypeError on argument mismatches.
 */
template <typename Sig, typename F>
struct UnpackCaller;

template <typename R, typename... Args, typename F>
struct UnpackCaller<R(Args...), F> {
  static std::string SigText() { return FuncSignatureImpl<R, Args...>::Sig(); }
  static void Run(F& f, const char* name, const TVMFFIAny* args, int32_t num_args,
                  TVMFFIAny* result) {
    CallUnpackedImpl<F, R, Args...>(f, name, &SigText, args, num_args, result,
                                    std::index_sequence_for<Args...>{});
  }
};

/*! \brief Rebuild R(Args...) from FuncSignature<F>. */
template <typename Sig, typename Tuple>
struct ToFuncType;
template <typename R, typename... Args>
struct ToFuncType<R, std::tuple<Args...>> {
  using type = R(Args...);
};
template <typename F>
using FuncTypeOf = typename ToFuncType<typename FuncSignature<std::decay_t<F>>::RetType,
                                       typename FuncSignature<std::decay_t<F>>::ArgsTuple>::type;

/*!
 * \brief "0: int, 1: str": the numbered parameter list of a signature, for messages.
 *  `Arg2Str<std::tuple<Args...>>::Run(os, std::index_sequence_for<Args...>{})`.
 */
template <typename ArgsTuple>
struct Arg2Str;
template <typename... Args>
struct Arg2Str<std::tuple<Args...>> {
  template <size_t... I>
  static void Run(std::ostream& os, std::index_sequence<I...>) {
    ((os << (I == 0 ? "" : ", ") << I << ": "
         << FuncSignatureImpl<void, Args...>::template TypeStrOf<Args>()),
     ...);
  }
};

/*! \brief Facts of a typed callable R(Args...), as user code and tests read them. */
template <typename R, typename... Args>
struct FunctionInfoImpl {
  using RetType = R;
  using ArgType = std::tuple<Args...>;
  static constexpr int32_t num_args = static_cast<int32_t>(sizeof...(Args));
  /*! \brief Whether every parameter can be filled from a packed argument. */
  static constexpr bool unpacked_supported = (kIsValidParam<Args> && ...);
  /*! \brief "(0: int, 1: str) -> int" */
  static std::string Sig() { return FuncSignatureImpl<R, Args...>::Sig(); }
  /*! \brief The JSON type schema of the function. */
  static std::string TypeSchema() { return FuncSignatureImpl<R, Args...>::Schema(); }
};

/*! \brief The receiver parameter of a method of C: `C*` for objects, `C` for references. */
template <typename C, bool kConst>
using MethodSelfType =
    std::conditional_t<std::is_base_of_v<Object, C>, std::conditional_t<kConst, const C*, C*>,
                       std::conditional_t<kConst, const C, C>>;

/*!
 * \brief FunctionInfo<F> for F a function type, pointer or reference, a lambda or functor,
 *  or a member function pointer of an Object subclass (receiver `C*`) or of an ObjectRef
 *  subclass (receiver `C`).
 */
template <typename F, typename = void>
struct FunctionInfo
    : FunctionInfo<typename ToFuncType<typename FuncSignature<std::decay_t<F>>::RetType,
                                       typename FuncSignature<std::decay_t<F>>::ArgsTuple>::type> {
};
template <typename R, typename... Args>
struct FunctionInfo<R(Args...)> : FunctionInfoImpl<R, Args...> {};
template <typename R, typename... Args>
struct FunctionInfo<R (*)(Args...)> : FunctionInfoImpl<R, Args...> {};
template <typename R, typename... Args>
struct FunctionInfo<R (&)(Args...)> : FunctionInfoImpl<R, Args...> {};
template <typename C, typename R, typename... Args>
struct FunctionInfo<R (C::*)(Args...)> : FunctionInfoImpl<R, MethodSelfType<C, false>, Args...> {};
template <typename C, typename R, typename... Args>
struct FunctionInfo<R (C::*)(Args...) const>
    : FunctionInfoImpl<R, MethodSelfType<C, true>, Args...> {};

/*! \brief Call a typed callable with packed arguments (used by the export macro). */
template <typename F>
inline void CallTypedPacked(const F& f, const char* name, const TVMFFIAny* args, int32_t num_args,
                            TVMFFIAny* result) {
  UnpackCaller<FuncTypeOf<F>, const F>::Run(f, name, args, num_args, result);
}

/*! \brief Escape text as the body of a JSON string. */
inline std::string JsonEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          static const char kHex[] = "0123456789abcdef";
          out += "\\u00";
          out += kHex[(c >> 4) & 0xF];
          out += kHex[c & 0xF];
        } else {
          out += c;
        }
    }
  }
  return out;
}

/*!
 * \brief The metadata JSON of a function: {"type_schema": "<schema as a JSON
 *  string>"}, plus "doc" when a doc string is given.
 */
inline std::string MakeFuncMetadata(const std::string& schema, std::string_view doc = {}) {
  std::string out = "{\"type_schema\": \"" + JsonEscape(schema) + "\"";
  if (!doc.empty()) out += ", \"doc\": \"" + JsonEscape(doc) + "\"";
  out += "}";
  return out;
}

/*! \brief Metadata JSON of a typed callable. */
template <typename F>
inline std::string FuncMetadataOf() {
  return MakeFuncMetadata(FuncSignature<std::decay_t<F>>::Schema());
}

}  // namespace detail
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_FUNCTION_DETAILS_H_
