/*
 * ffi::Function: the type-erased callable of tvm-ffi, and the global registry.
 *
 * A Function is an object over the ABI's function cell (docs/abi.md §2.4). Every
 * call goes through the cell's safe_call, so C++ exceptions never cross a
 * library boundary: the callee turns them into a raised error and the caller
 * rethrows that as ffi::Error, appending its frame to the backtrace.
 *
 *   Function add = Function::FromTyped([](int a, int b) { return a + b; }, "add");
 *   int c = add(1, 2).cast<int>();
 *   Function p = Function::FromPacked([](const AnyView* args, int32_t n, Any* rv) {
 *     *rv = args[0].cast<int>() + 1;
 *   });
 *   TypedFunction<int(int)> t = [](int x) { return x * 2; };
 *   Function::SetGlobal("my.add", add);
 *   std::optional<Function> g = Function::GetGlobal("my.add");
 *
 * Exporting functions of a shared library (docs/abi.md §4):
 *   TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, AddOne);   // symbol __tvm_ffi_add_one
 *   TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(add_one, "Add one to x.");
 * With TVM_FFI_DLL_EXPORT_INCLUDE_METADATA defined to 1 the first macro also
 * exports __tvm_ffi__metadata_add_one (JSON {"type_schema": "..."}), and only
 * then does the second export __tvm_ffi__doc_add_one.
 */
#ifndef TVM_FFI_FUNCTION_H_
#define TVM_FFI_FUNCTION_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/base.h>
#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/function_details.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>
#include <tvm/ffi/type_traits.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN

/*!
 * \brief The function object: header, then {safe_call, cpp_call}.
 *  cpp_call is always NULL for functions made here (docs/abi.md §2.4).
 */
class FunctionObj : public Object, public TVMFFIFunctionCell {
 public:
  FunctionObj() {
    safe_call = nullptr;
    cpp_call = nullptr;
  }
  FunctionObj(const FunctionObj&) = delete;
  FunctionObj& operator=(const FunctionObj&) = delete;

  /*! \brief Call through safe_call; a raised error is rethrown as ffi::Error. */
  TVM_FFI_INLINE void CallPacked(const AnyView* args, int32_t num_args, Any* result) const {
    // The callee writes an owned value into a None cell (docs/abi.md §2.5).
    result->reset();
    int ret =
        safe_call(detail::ObjectUnsafe::GetHeader(this), reinterpret_cast<const TVMFFIAny*>(args),
                  num_args, detail::AnyUnsafe::GetTVMFFIAny(result));
    if (TVM_FFI_UNLIKELY(ret != 0)) {
      throw detail::MoveFromRaised(__FILE__, __LINE__, TVM_FFI_FUNC_SIG);
    }
  }

  static constexpr int32_t _type_index = kTVMFFIFunction;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC("ffi.Function", FunctionObj, Object);
};

static_assert(sizeof(AnyView) == sizeof(TVMFFIAny) && sizeof(Any) == sizeof(TVMFFIAny),
              "Any and AnyView must be bare TVMFFIAny cells to be passed as packed arguments");

/*!
 * \brief The arguments of a packed call: a borrowed array of views.
 *   Function f = Function::FromPacked([](PackedArgs args, Any* rv) {
 *     *rv = args[0].cast<int>() + args.size();
 *   });
 */
class PackedArgs {
 public:
  PackedArgs(const AnyView* data, int32_t size) : data_(data), size_(size) {}
  /*! \return The number of arguments. */
  int size() const { return size_; }
  /*! \return The argument views. */
  const AnyView* data() const { return data_; }
  /*! \return Argument i (unchecked). */
  AnyView operator[](int i) const { return data_[i]; }
  /*! \return The arguments [begin, end); end -1 means size(). */
  PackedArgs Slice(int begin, int end = -1) const {
    if (end == -1) end = size_;
    return PackedArgs(data_ + begin, end - begin);
  }
  /*! \brief Write views of args into data[0..n) (the caller keeps args alive). */
  template <typename... Args>
  static void Fill(AnyView* data, Args&&... args) {
    int i = 0;
    ((data[i++] = AnyView(args)), ...);
    (void)data;
    (void)i;
  }

 private:
  const AnyView* data_;
  int32_t size_;
};

namespace detail {

/*! \brief Whether F takes (PackedArgs, Any*) rather than (const AnyView*, int32_t, Any*). */
template <typename F>
constexpr bool kIsPackedArgsCallable = std::is_invocable_v<F&, PackedArgs, Any*>;

/*! \brief A function over a C++ callable of the packed form (args, num_args, rv). */
template <typename TCallable>
class PackedFunctionObj : public FunctionObj {
 public:
  explicit PackedFunctionObj(TCallable callable) : callable_(std::move(callable)) {
    safe_call = SafeCall;
  }

 private:
  static int SafeCall(void* handle, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
    TVM_FFI_SAFE_CALL_BEGIN();
    const auto* self = static_cast<const PackedFunctionObj*>(static_cast<Object*>(handle));
    if constexpr (kIsPackedArgsCallable<TCallable>) {
      self->callable_(PackedArgs(reinterpret_cast<const AnyView*>(args), num_args),
                      reinterpret_cast<Any*>(result));
    } else {
      self->callable_(reinterpret_cast<const AnyView*>(args), num_args,
                      reinterpret_cast<Any*>(result));
    }
    TVM_FFI_SAFE_CALL_END();
  }

 public:
  /*! \return The callable this function owns. */
  TCallable* GetCallable() const { return &callable_; }

 private:
  mutable TCallable callable_;
};

/*! \brief A function over a typed C++ callable; converts arguments and result. */
template <typename FType, typename TCallable>
class TypedFunctionObj : public FunctionObj {
 public:
  TypedFunctionObj(TCallable callable, std::string name)
      : callable_(std::move(callable)), name_(std::move(name)) {
    safe_call = SafeCall;
  }

 private:
  static int SafeCall(void* handle, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
    TVM_FFI_SAFE_CALL_BEGIN();
    const auto* self = static_cast<const TypedFunctionObj*>(static_cast<Object*>(handle));
    UnpackCaller<FType, TCallable>::Run(self->callable_,
                                        self->name_.empty() ? nullptr : self->name_.c_str(), args,
                                        num_args, result);
    TVM_FFI_SAFE_CALL_END();
  }
  // Mutable so that mutable lambdas (stateful callables) can be called.
  mutable TCallable callable_;
  std::string name_;
};

/*! \brief Pack C++ values as argument views (no reference is taken, nothing allocated). */
template <typename T>
TVM_FFI_INLINE void PackOneArg(TVMFFIAny* slot, const T& value) {
  using Traits = TypeTraitsNoCR<T>;
  static_assert(Traits::convert_enabled,
                "Function call: an argument type has no conversion to Any");
  Traits::CopyToAnyView(value, slot);
}

template <typename... Args>
TVM_FFI_INLINE void PackArgs(TVMFFIAny* slots, const Args&... args) {
  size_t i = 0;
  (PackOneArg(slots + i++, args), ...);
  (void)slots;
  (void)i;
}

/*! \brief Whether F can be called as a packed function (args, num_args, rv). */
template <typename F>
constexpr bool kIsPackedCallable =
    std::is_invocable_v<F&, const AnyView*, int32_t, Any*> || kIsPackedArgsCallable<F>;
}  // namespace detail

template <typename FType>
class TypedFunction;

/*! \brief A reference to a FunctionObj (nullable). */
class Function : public ObjectRef {
 public:
  Function() = default;
  Function(std::nullptr_t) {}  // NOLINT(runtime/explicit)
  explicit Function(ObjectPtr<FunctionObj> n) : ObjectRef(std::move(n)) {}
  explicit Function(UnsafeInit tag) : ObjectRef(tag) {}
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(Function)
  /*! \brief Same as FromPacked(callable). */
  template <typename TCallable,
            typename = std::enable_if_t<!std::is_base_of_v<ObjectRef, std::decay_t<TCallable>> &&
                                        detail::kIsPackedCallable<std::decay_t<TCallable>>>>
  explicit Function(TCallable&& callable)
      : Function(FromPacked(std::forward<TCallable>(callable))) {}

  const FunctionObj* operator->() const { return static_cast<const FunctionObj*>(data_.get()); }
  const FunctionObj* get() const { return operator->(); }

  /*!
   * \brief A function from a callable of the packed form
   *  void(const AnyView* args, int32_t num_args, Any* rv) or void(PackedArgs args, Any* rv).
   */
  template <typename TCallable>
  static Function FromPacked(TCallable callable) {
    using F = std::decay_t<TCallable>;
    static_assert(detail::kIsPackedCallable<F>,
                  "Function::FromPacked expects void(const AnyView*, int32_t, Any*) or "
                  "void(PackedArgs, Any*)");
    return Function(make_object<detail::PackedFunctionObj<F>>(F(std::move(callable))));
  }

  /*!
   * \brief FromPacked with the callable constructed inside the function object
   *  from args; also returns a pointer to that callable (valid while the
   *  function lives).
   */
  template <typename TCallable, typename... Args>
  static std::tuple<Function, TCallable*> FromPackedInplace(Args&&... args) {
    static_assert(detail::kIsPackedCallable<TCallable>,
                  "Function::FromPackedInplace expects void(const AnyView*, int32_t, Any*) or "
                  "void(PackedArgs, Any*)");
    ObjectPtr<detail::PackedFunctionObj<TCallable>> obj =
        make_object<detail::PackedFunctionObj<TCallable>>(TCallable(std::forward<Args>(args)...));
    TCallable* callable = obj->GetCallable();
    return std::tuple<Function, TCallable*>(Function(std::move(obj)), callable);
  }

  /*!
   * \brief Call a C safe-call function directly: the arguments are passed as
   *  views, a raised error is rethrown.
   */
  template <typename... Args>
  static Any InvokeExternC(void* handle, TVMFFISafeCallType safe_call, Args&&... args) {
    constexpr size_t kNumArgs = sizeof...(Args);
    std::array<TVMFFIAny, kNumArgs == 0 ? 1 : kNumArgs> packed;
    if constexpr (kNumArgs == 0) {
      detail::SetNone(&packed[0]);
    } else {
      detail::PackArgs(packed.data(), args...);
    }
    Any result;
    if (TVM_FFI_UNLIKELY(safe_call(handle, packed.data(), static_cast<int32_t>(kNumArgs),
                                   detail::AnyUnsafe::GetTVMFFIAny(&result)) != 0)) {
      throw detail::MoveFromRaised(__FILE__, __LINE__, TVM_FFI_FUNC_SIG);
    }
    return result;
  }

  /*!
   * \brief A function from a typed callable (lambda, function pointer, functor);
   *  arguments are converted with TypeTraits, mismatches raise TypeError.
   */
  template <typename TCallable>
  static Function FromTyped(TCallable callable) {
    return FromTypedImpl<detail::FuncTypeOf<TCallable>>(std::move(callable), std::string());
  }
  /*! \brief As FromTyped(callable); name appears in error messages. */
  template <typename TCallable>
  static Function FromTyped(TCallable callable, std::string name) {
    return FromTypedImpl<detail::FuncTypeOf<TCallable>>(std::move(callable), std::move(name));
  }

  /*!
   * \brief A function from a C callback: safe_call receives self as its
   *  handle; deleter(self) runs when the function is destroyed (may be NULL).
   */
  static Function FromExternC(void* self, TVMFFISafeCallType safe_call,
                              void (*deleter)(void* self)) {
    TVMFFIObjectHandle out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFIFunctionCreate(self, safe_call, deleter, &out));
    return Function(
        detail::ObjectUnsafe::ObjectPtrFromOwned<FunctionObj>(static_cast<TVMFFIObject*>(out)));
  }

  /*! \brief Call with C++ values; returns the result as Any. */
  template <typename... Args>
  TVM_FFI_INLINE Any operator()(Args&&... args) const {
    constexpr size_t kNumArgs = sizeof...(Args);
    // Arguments are views in a stack array: calling allocates nothing.
    std::array<TVMFFIAny, kNumArgs == 0 ? 1 : kNumArgs> packed;
    if constexpr (kNumArgs == 0) {
      detail::SetNone(&packed[0]);
    } else {
      detail::PackArgs(packed.data(), args...);
    }
    Any result;
    CallRaw(packed.data(), static_cast<int32_t>(kNumArgs), &result);
    return result;
  }

  /*! \brief Call with packed argument views. */
  void CallPacked(const AnyView* args, int32_t num_args, Any* result) const {
    CallRaw(reinterpret_cast<const TVMFFIAny*>(args), num_args, result);
  }
  void CallPacked(PackedArgs args, Any* result) const {
    CallRaw(reinterpret_cast<const TVMFFIAny*>(args.data()), args.size(), result);
  }

  /*!
   * \brief Call without throwing for the callee's errors: a raised error
   *  becomes the Expected's error; otherwise the result is read as T (an
   *  Error value returned by the callee counts as the error; a result of
   *  another type is a TypeError).
   */
  template <typename T = Any, typename... Args>
  Expected<T> CallExpected(Args&&... args) const {
    constexpr size_t kNumArgs = sizeof...(Args);
    std::array<TVMFFIAny, kNumArgs == 0 ? 1 : kNumArgs> packed;
    if constexpr (kNumArgs == 0) {
      detail::SetNone(&packed[0]);
    } else {
      detail::PackArgs(packed.data(), args...);
    }
    const FunctionObj* f = get();
    if (TVM_FFI_UNLIKELY(f == nullptr)) {
      return Error("ValueError", "Cannot call a null Function", "");
    }
    Any result;
    int ret =
        f->safe_call(detail::ObjectUnsafe::GetHeader(f), packed.data(),
                     static_cast<int32_t>(kNumArgs), detail::AnyUnsafe::GetTVMFFIAny(&result));
    if (ret != 0) return Unexpected(detail::MoveFromRaised());
    if constexpr (std::is_same_v<T, Any>) {
      return Expected<Any>(std::move(result));
    } else if constexpr (std::is_void_v<T>) {
      if (result.type_index() == kTVMFFINone) return Expected<void>();
      if (result.type_index() == kTVMFFIError) return std::move(result).cast<Error>();
      return Error(
          "TypeError",
          "CallExpected: result type mismatch, expected void, but got " + result.GetTypeKey(), "");
    } else {
      if (std::optional<T> value = result.try_cast<T>()) return std::move(*value);
      if (result.type_index() == kTVMFFIError) return std::move(result).cast<Error>();
      return Error("TypeError",
                   "CallExpected: result type mismatch, expected " + TypeTraitsNoCR<T>::TypeStr() +
                       ", but got " + result.GetTypeKey(),
                   "");
    }
  }

  /*! \return The global function name, or std::nullopt when not registered. */
  static std::optional<Function> GetGlobal(std::string_view name) {
    TVMFFIByteArray n{name.data(), name.size()};
    TVMFFIObjectHandle out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFIFunctionGetGlobal(&n, &out));
    if (out == nullptr) return std::nullopt;
    return Function(
        detail::ObjectUnsafe::ObjectPtrFromOwned<FunctionObj>(static_cast<TVMFFIObject*>(out)));
  }
  /*! \return The global function name; ValueError naming it when missing. */
  static Function GetGlobalRequired(std::string_view name) {
    std::optional<Function> f = GetGlobal(name);
    if (!f.has_value()) {
      TVM_FFI_THROW(ValueError) << "Function " << name << " not found";
    }
    return std::move(*f);
  }
  /*!
   * \brief Register f as the global function name; registering an existing
   *  name without can_override raises an error naming it.
   */
  static void SetGlobal(std::string_view name, Function f, bool can_override = false) {
    TVMFFIByteArray n{name.data(), name.size()};
    TVMFFIObjectHandle handle = f.defined() ? detail::ObjectUnsafe::GetHeader(f.get()) : nullptr;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFIFunctionSetGlobal(&n, handle, can_override ? 1 : 0));
  }
  /*! \return The names of all global functions. */
  static std::vector<String> ListGlobalNames();
  /*! \brief Remove a global function; returns whether it existed. */
  static bool RemoveGlobal(std::string_view name) {
    Function remove = GetGlobalRequired("ffi.FunctionRemoveGlobal");
    return remove(String(name)).cast<bool>();
  }

  static constexpr bool _type_is_nullable = true;
  using ContainerType = FunctionObj;

 private:
  template <typename FType, typename TCallable>
  static Function FromTypedImpl(TCallable callable, std::string name) {
    using F = std::decay_t<TCallable>;
    return Function(
        make_object<detail::TypedFunctionObj<FType, F>>(F(std::move(callable)), std::move(name)));
  }

  TVM_FFI_INLINE void CallRaw(const TVMFFIAny* args, int32_t num_args, Any* result) const {
    const FunctionObj* f = get();
    if (TVM_FFI_UNLIKELY(f == nullptr)) {
      TVM_FFI_THROW(ValueError) << "Cannot call a null Function";
    }
    f->CallPacked(reinterpret_cast<const AnyView*>(args), num_args, result);
  }

  template <typename FType>
  friend class TypedFunction;
};

inline std::vector<String> Function::ListGlobalNames() {
  std::vector<String> result;
  if (std::optional<Function> make_functor = GetGlobal("ffi.FunctionListGlobalNamesFunctor")) {
    // The functor protocol: g(-1) is the count, g(i) the name of entry i.
    Function functor = (*make_functor)().cast<Function>();
    int64_t count = functor(static_cast<int64_t>(-1)).cast<int64_t>();
    result.reserve(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) {
      result.push_back(functor(i).cast<String>());
    }
    return result;
  }
  // A runtime without the functor returns the names as one Array of str; read
  // its cell directly (docs/abi.md §2.4) so this header does not need array.h.
  Any names = GetGlobalRequired("ffi.FunctionListGlobalNames")();
  const TVMFFIAny* cell = detail::AnyUnsafe::GetTVMFFIAny(names);
  if (cell->type_index != kTVMFFIArray) {
    TVM_FFI_THROW(TypeError) << "ffi.FunctionListGlobalNames returned `" << detail::AnyTypeStr(cell)
                             << "`, expected `Array`";
  }
  const TVMFFISeqCell* seq = reinterpret_cast<const TVMFFISeqCell*>(
      reinterpret_cast<const char*>(cell->v_obj) + sizeof(TVMFFIObject));
  const TVMFFIAny* items = static_cast<const TVMFFIAny*>(seq->data);
  result.reserve(static_cast<size_t>(seq->size));
  for (int64_t i = 0; i < seq->size; ++i) {
    result.push_back(AnyView::CopyFromTVMFFIAny(items[i]).cast<String>());
  }
  return result;
}

/*!
 * \brief The runtime type index registered for a type key (TVMFFITypeKeyToIndex); an
 *  unknown key throws the runtime's InternalError "... Cannot find type `<key>`".
 */
inline int32_t TypeKeyToIndex(std::string_view type_key) {
  TVMFFIByteArray key{type_key.data(), type_key.size()};
  int32_t index = 0;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeKeyToIndex(&key, &index));
  return index;
}

/*!
 * \brief A typed handle over a Function: f(args...) converts the result to R.
 *  Constructible from a callable (wrapped with FromTyped) or a Function.
 */
template <typename R, typename... Args>
class TypedFunction<R(Args...)> {
 public:
  using TSelf = TypedFunction<R(Args...)>;

  TypedFunction() = default;
  TypedFunction(std::nullptr_t) {}                                // NOLINT(runtime/explicit)
  TypedFunction(Function packed) : packed_(std::move(packed)) {}  // NOLINT(runtime/explicit)
  template <typename TCallable,
            typename = std::enable_if_t<!std::is_base_of_v<ObjectRef, std::decay_t<TCallable>> &&
                                        !std::is_same_v<std::decay_t<TCallable>, TSelf> &&
                                        !std::is_same_v<std::decay_t<TCallable>, std::nullptr_t> &&
                                        std::is_invocable_v<std::decay_t<TCallable>&, Args...>>>
  TypedFunction(TCallable callable)  // NOLINT(runtime/explicit)
      : packed_(Function::FromTypedImpl<R(Args...)>(std::move(callable), std::string())) {}
  template <typename TCallable>
  TypedFunction(TCallable callable, std::string name)
      : packed_(Function::FromTypedImpl<R(Args...)>(std::move(callable), std::move(name))) {}

  /*! \brief Rebind to a callable (wrapped with FromTyped). */
  template <typename TCallable,
            typename = std::enable_if_t<!std::is_base_of_v<ObjectRef, std::decay_t<TCallable>> &&
                                        !std::is_same_v<std::decay_t<TCallable>, TSelf> &&
                                        !std::is_same_v<std::decay_t<TCallable>, std::nullptr_t> &&
                                        std::is_invocable_v<std::decay_t<TCallable>&, Args...>>>
  TSelf& operator=(TCallable callable) {
    packed_ = Function::FromTypedImpl<R(Args...)>(std::move(callable), std::string());
    return *this;
  }
  /*! \brief Rebind to a Function. */
  TSelf& operator=(Function packed) {
    packed_ = std::move(packed);
    return *this;
  }

  /*! \brief Call; the result is converted to R (TypeError when it cannot be). */
  TVM_FFI_INLINE R operator()(Args... args) const {
    if constexpr (std::is_void_v<R>) {
      packed_(std::forward<Args>(args)...);
    } else {
      Any result = packed_(std::forward<Args>(args)...);
      if constexpr (std::is_same_v<std::remove_cv_t<R>, Any>) {
        return result;
      } else {
        return std::move(result).cast<R>();
      }
    }
  }

  /*! \return The underlying Function. */
  const Function& packed() const& { return packed_; }
  Function packed() && { return std::move(packed_); }
  operator Function() const { return packed_; }  // NOLINT(runtime/explicit)
  bool defined() const { return packed_.defined(); }
  bool operator==(std::nullptr_t) const { return !packed_.defined(); }
  bool operator!=(std::nullptr_t) const { return packed_.defined(); }

  /*! \brief The signature text, e.g. "(0: int) -> int". */
  static std::string Sig() { return detail::FuncSignatureImpl<R, Args...>::Sig(); }
  /*! \brief The type schema, {"type":"ffi.Function","named_args":{"return":[...],"params":[...]}}.
   */
  static std::string Schema() { return detail::FuncSignatureImpl<R, Args...>::Schema(); }
  /*! \brief Same as Schema(). */
  static std::string TypeSchema() { return Schema(); }

 private:
  Function packed_;
};

/*! \brief TypedFunction<F> is stored as its Function; schema carries its signature. */
template <typename FType>
struct TypeTraits<TypedFunction<FType>> : TypeTraitsBase {
  using FuncTraits = TypeTraits<Function>;
  static void CopyToAnyView(const TypedFunction<FType>& src, TVMFFIAny* r) {
    FuncTraits::CopyToAnyView(src.packed(), r);
  }
  static void MoveToAny(TypedFunction<FType> src, TVMFFIAny* r) {
    FuncTraits::MoveToAny(std::move(src).packed(), r);
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) { return FuncTraits::CheckAnyStrict(src); }
  static TypedFunction<FType> CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return TypedFunction<FType>(FuncTraits::CopyFromAnyViewAfterCheck(src));
  }
  static TypedFunction<FType> MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return TypedFunction<FType>(FuncTraits::MoveFromAnyAfterCheck(src));
  }
  static std::optional<TypedFunction<FType>> TryCastFromAnyView(const TVMFFIAny* src) {
    std::optional<Function> f = FuncTraits::TryCastFromAnyView(src);
    if (!f.has_value()) return std::nullopt;
    return TypedFunction<FType>(std::move(*f));
  }
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    return FuncTraits::GetMismatchTypeInfo(src);
  }
  // A TypedFunction parameter prints its own signature, e.g. "(0: int) -> int".
  static std::string TypeStr() { return TypedFunction<FType>::Sig(); }
  static std::string TypeSchema() { return TypedFunction<FType>::Schema(); }
};

TVM_FFI_NAMESPACE_END

/*!
 * \brief Export Function as the safe-call symbol __tvm_ffi_<ExportName> of a
 *  shared library (docs/abi.md §4). With TVM_FFI_DLL_EXPORT_INCLUDE_METADATA (or
 *  TVM_FFI_DLL_EXPORT_TYPED_FUNC_METADATA) defined to 1 — before or after
 *  including this header — __tvm_ffi__metadata_<ExportName> is exported too.
 */
#define TVM_FFI_DLL_EXPORT_TYPED_FUNC(ExportName, Function)                                       \
  extern "C" TVM_FFI_DLL_EXPORT int __tvm_ffi_##ExportName(void* self, const TVMFFIAny* args,     \
                                                           int32_t num_args, TVMFFIAny* result) { \
    (void)self;                                                                                   \
    TVM_FFI_SAFE_CALL_BEGIN();                                                                    \
    ::tvm::ffi::detail::CallTypedPacked(Function, #ExportName, args, num_args, result);           \
    TVM_FFI_SAFE_CALL_END();                                                                      \
  }                                                                                               \
  TVM_FFI_DLL_EXPORT_IF_METADATA_(TVM_FFI_DLL_EXPORT_METADATA_, ExportName, Function)

// Impl(A, B) when metadata export is on: selection on the value of
// TVM_FFI_DLL_EXPORT_INCLUDE_METADATA at the point of use, 1 (or empty) exports,
// 0 does not, undefined defers to the synonym TVM_FFI_DLL_EXPORT_TYPED_FUNC_METADATA.
#define TVM_FFI_DLL_EXPORT_IF_METADATA_(Impl, A, B)                                         \
  TVM_FFI_STR_CONCAT(TVM_FFI_DLL_EXPORT_METADATA_SEL_, TVM_FFI_DLL_EXPORT_INCLUDE_METADATA) \
  (Impl, A, B)
#define TVM_FFI_DLL_EXPORT_METADATA_SEL_1(Impl, A, B) Impl(A, B)
#define TVM_FFI_DLL_EXPORT_METADATA_SEL_(Impl, A, B) Impl(A, B)
#define TVM_FFI_DLL_EXPORT_METADATA_SEL_0(Impl, A, B)
#define TVM_FFI_DLL_EXPORT_METADATA_SEL_TVM_FFI_DLL_EXPORT_INCLUDE_METADATA(Impl, A, B)        \
  TVM_FFI_STR_CONCAT(TVM_FFI_DLL_EXPORT_METADATA_ALT_, TVM_FFI_DLL_EXPORT_TYPED_FUNC_METADATA) \
  (Impl, A, B)
#define TVM_FFI_DLL_EXPORT_METADATA_ALT_1(Impl, A, B) Impl(A, B)
#define TVM_FFI_DLL_EXPORT_METADATA_ALT_(Impl, A, B) Impl(A, B)
#define TVM_FFI_DLL_EXPORT_METADATA_ALT_0(Impl, A, B)
#define TVM_FFI_DLL_EXPORT_METADATA_ALT_TVM_FFI_DLL_EXPORT_TYPED_FUNC_METADATA(Impl, A, B)

#define TVM_FFI_DLL_EXPORT_METADATA_(ExportName, Function)                                         \
  extern "C" TVM_FFI_DLL_EXPORT int __tvm_ffi__metadata_##ExportName(void*, const TVMFFIAny*,      \
                                                                     int32_t, TVMFFIAny* result) { \
    TVM_FFI_SAFE_CALL_BEGIN();                                                                     \
    ::tvm::ffi::TypeTraits<::tvm::ffi::String>::MoveToAny(                                         \
        ::tvm::ffi::String(::tvm::ffi::detail::FuncMetadataOf<decltype(Function)>()), result);     \
    TVM_FFI_SAFE_CALL_END();                                                                       \
  }

/*!
 * \brief Export the doc string of ExportName as __tvm_ffi__doc_<ExportName>, when metadata
 *  export is on (as for __tvm_ffi__metadata_<ExportName>); without it nothing is exported.
 */
#define TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(ExportName, DocString) \
  TVM_FFI_DLL_EXPORT_IF_METADATA_(TVM_FFI_DLL_EXPORT_DOC_, ExportName, DocString)

#define TVM_FFI_DLL_EXPORT_DOC_(ExportName, DocString)                                            \
  extern "C" TVM_FFI_DLL_EXPORT int __tvm_ffi__doc_##ExportName(void*, const TVMFFIAny*, int32_t, \
                                                                TVMFFIAny* result) {              \
    TVM_FFI_SAFE_CALL_BEGIN();                                                                    \
    ::tvm::ffi::TypeTraits<::tvm::ffi::String>::MoveToAny(::tvm::ffi::String(DocString), result); \
    TVM_FFI_SAFE_CALL_END();                                                                      \
  }

#endif  // TVM_FFI_FUNCTION_H_
