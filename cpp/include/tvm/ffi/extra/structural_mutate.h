/*
 * Structural mutation: rebuild a structure with some of its values replaced,
 * sharing every part that did not change.
 *
 *   // Multiply every int by 10; the input is left intact.
 *   Any out = StructuralMap<WalkOrder::kPostOrder>(root, [](int64_t v) { return v * 10; });
 *
 * Results travel as UnchangedOr<T>: either a replacement or the Unchanged
 * marker (type index 13), so untouched subtrees are never copied. The
 * mutator's layout and vtable are ABI, like the visitor's: `__s_mutate__`
 * and `__s_maybe_inplace_mutate__` hooks are native adapters
 * `TVMFFIAny (*)(StructuralMutatorObj*, AnyView) noexcept` (opaque pointers)
 * or Functions called as (mutator, value), returning a replacement,
 * Unchanged or an Error.
 */
#ifndef TVM_FFI_EXTRA_STRUCTURAL_MUTATE_H_
#define TVM_FFI_EXTRA_STRUCTURAL_MUTATE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/extra/structural_visit.h>
#include <tvm/ffi/extra/visit_error_context.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/native_function.h>
#include <tvm/ffi/reflection/type_attr.h>

#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN

/*! \brief Whether a mutation may reuse a uniquely owned input. */
enum class InplaceMode : int32_t { kDisallow = 0, kAllow = 1 };

/*! \brief The "nothing changed" marker: type index 13 (kTVMFFIUnchanged), payload 0. */
struct Unchanged {};

template <>
struct TypeTraits<Unchanged> : TypeTraitsBase {
  static void CopyToAnyView(const Unchanged&, TVMFFIAny* r) {
    r->type_index = kTVMFFIUnchanged;
    r->zero_padding = 0;
    r->v_int64 = 0;
  }
  static void MoveToAny(Unchanged src, TVMFFIAny* r) { CopyToAnyView(src, r); }
  static bool CheckAnyStrict(const TVMFFIAny* src) { return src->type_index == kTVMFFIUnchanged; }
  static Unchanged CopyFromAnyViewAfterCheck(const TVMFFIAny*) { return Unchanged(); }
  static Unchanged MoveFromAnyAfterCheck(TVMFFIAny*) { return Unchanged(); }
  static std::optional<Unchanged> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return Unchanged();
    return std::nullopt;
  }
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIUnchanged; }
  static std::string TypeSchema() { return detail::SchemaOf(StaticTypeKey::kTVMFFIUnchanged); }
};

/*!
 * \brief Unchanged, or a value of type T, in one Any.
 *
 *   UnchangedOr<Any> r = mutator->Mutate(child);
 *   if (!r.IsUnchanged()) Use(r.ValueUnchecked());
 *   Any resolved = std::move(r).ValueOrUnchanged(child);
 */
template <typename T>
class UnchangedOr {
 public:
  /*! \brief Unchanged. */
  UnchangedOr() : data_(Unchanged()) {}
  UnchangedOr(Unchanged) : data_(Unchanged()) {}     // NOLINT(runtime/explicit)
  UnchangedOr(T value) : data_(std::move(value)) {}  // NOLINT(runtime/explicit)
  /*! \brief A value that converts to T. */
  template <typename U, typename = std::enable_if_t<!std::is_same_v<std::decay_t<U>, T> &&
                                                    !std::is_same_v<std::decay_t<U>, Unchanged> &&
                                                    !std::is_same_v<std::decay_t<U>, UnchangedOr> &&
                                                    std::is_constructible_v<T, U&&>>>
  UnchangedOr(U&& value) : data_(T(std::forward<U>(value))) {}  // NOLINT(runtime/explicit)
  /*! \brief From an UnchangedOr of a compatible type. */
  template <typename U,
            typename = std::enable_if_t<!std::is_same_v<U, T> && std::is_constructible_v<T, U>>>
  UnchangedOr(const UnchangedOr<U>& other) {  // NOLINT(runtime/explicit)
    if (other.IsUnchanged()) {
      data_ = Unchanged();
    } else {
      data_ = T(other.ValueUnchecked());
    }
  }
  /*! \brief As the copy, but the value moves over (other is left Unchanged). */
  template <typename U,
            typename = std::enable_if_t<!std::is_same_v<U, T> && std::is_constructible_v<T, U>>>
  UnchangedOr(UnchangedOr<U>&& other) {  // NOLINT(runtime/explicit)
    if (other.IsUnchanged()) {
      data_ = Unchanged();
    } else {
      data_ = T(std::move(other).ValueUnchecked());
      other.data_ = Unchanged();
    }
  }

  /*! \return Whether this is the Unchanged marker. */
  bool IsUnchanged() const { return data_.type_index() == kTVMFFIUnchanged; }
  /*! \return Whether this is Unchanged or holds the very value orig (same bits / object). */
  bool UnchangedOrSameAs(const T& orig) const {
    if (IsUnchanged()) return true;
    Any o(orig);
    return data_.same_as(o);
  }
  /*! \return The held value, or orig when Unchanged. */
  T ValueOrUnchanged(T orig) && {
    if (IsUnchanged()) return orig;
    return std::move(*this).ValueUnchecked();
  }
  /*! \return The held value (the caller checked it is not Unchanged). */
  T ValueUnchecked() const& {
    if constexpr (std::is_same_v<T, Any>) {
      return data_;
    } else {
      return detail::AnyUnsafe::CopyFromAnyViewAfterCheck<T>(data_);
    }
  }
  T ValueUnchecked() && {
    if constexpr (std::is_same_v<T, Any>) {
      return std::move(data_);
    } else {
      return detail::AnyUnsafe::MoveFromAnyAfterCheck<T>(std::move(data_));
    }
  }
  /*! \brief Exact read of the held value as U. */
  template <typename U>
  auto as() const {
    return data_.as<U>();
  }
  /*! \brief Exact read as U; TypeError when it is not one. */
  template <typename U>
  U as_or_throw() const {
    return data_.as_or_throw<U>();
  }

 private:
  struct RawTag {};
  UnchangedOr(Any data, RawTag) : data_(std::move(data)) {}
  Any data_;
  template <typename, typename>
  friend struct TypeTraits;
  template <typename>
  friend class UnchangedOr;
};

template <typename T>
struct TypeTraits<UnchangedOr<T>> : TypeTraitsBase {
  using Inner = TypeTraits<T>;
  static void CopyToAnyView(const UnchangedOr<T>& src, TVMFFIAny* r) {
    *r = *detail::AnyUnsafe::GetTVMFFIAny(src.data_);
  }
  static void MoveToAny(UnchangedOr<T> src, TVMFFIAny* r) {
    *r = detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(src.data_));
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == kTVMFFIUnchanged || Inner::CheckAnyStrict(src);
  }
  static UnchangedOr<T> CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return UnchangedOr<T>(Any(AnyView::CopyFromTVMFFIAny(*src)), typename UnchangedOr<T>::RawTag());
  }
  static UnchangedOr<T> MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return UnchangedOr<T>(detail::AnyUnsafe::MoveTVMFFIAnyToAny(src),
                          typename UnchangedOr<T>::RawTag());
  }
  static std::optional<UnchangedOr<T>> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    if (std::optional<T> v = Inner::TryCastFromAnyView(src)) return UnchangedOr<T>(std::move(*v));
    return std::nullopt;
  }
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    return AnyView::CopyFromTVMFFIAny(*src).GetTypeKey();
  }
  static std::string TypeStr() { return "UnchangedOr<" + detail::Type2Str<T>::v() + ">"; }
  static std::string TypeSchema() {
    return detail::SchemaWithArgs("UnchangedOr", {Inner::TypeSchema()});
  }
};

/*! \brief UnchangedOr<T> holds every UnchangedOr<U> whose U T subsumes. */
template <typename T, typename U>
inline constexpr bool type_subsumes_v<UnchangedOr<T>, UnchangedOr<U>, void> = type_subsumes_v<T, U>;

class StructuralMutatorObj;

/*! \brief The native mutate ABI: a replacement, Unchanged (13) or an Error, as an owned cell. */
using FStructuralMutateABI = TVMFFIAny (*)(StructuralMutatorObj* mutator, AnyView value) noexcept;
/*! \brief Variable-remap lookup: the mapped value (owned), None on a miss, or an Error. */
using FStructuralVarRemapGetABI = TVMFFIAny (*)(StructuralMutatorObj* mutator,
                                                AnyView var) noexcept;
/*! \brief Variable-remap store: None or an Error. */
using FStructuralVarRemapSetABI = TVMFFIAny (*)(StructuralMutatorObj* mutator, AnyView var,
                                                AnyView value) noexcept;

/*! \brief The mutator's dispatch table (ABI). */
struct StructuralMutatorVTable {
  FStructuralMutateABI mutate;
  FStructuralMutateABI maybe_inplace_mutate;
  FStructuralVarRemapGetABI var_remap_get;
  FStructuralVarRemapSetABI var_remap_set;
};

/*!
 * \brief A `__s_mutate__` hook as a value: its native adapter has the
 *  FStructuralMutateABI signature.
 *
 *   TypeAttrDef<MyNodeObj>().native_fn_attr<&MutateMyNode>(type_attr::kStructuralMutate);
 */
using FStructuralMutate =
    reflection::NativeFunctionView<UnchangedOr<Any>(StructuralMutatorObj*, AnyView)>;

namespace type_attr {
/*! \brief FStructuralMutate: replaces the default mutation of the type's values. */
inline constexpr reflection::AttrKey<FStructuralMutate> kStructuralMutate{"__s_mutate__"};
/*!
 * \brief FStructuralMutate used instead of kStructuralMutate when the caller allows in-place
 *  mutation (InplaceMode::kAllow): the hook may change the value it is given.
 */
inline constexpr reflection::AttrKey<FStructuralMutate> kStructuralMaybeInplaceMutate{
    "__s_maybe_inplace_mutate__"};
}  // namespace type_attr

namespace detail {
inline constexpr const char* kSMutateAttrName = "__s_mutate__";
inline constexpr const char* kSMaybeInplaceMutateAttrName = "__s_maybe_inplace_mutate__";
inline constexpr const char* kShallowCopyAttrName = "__ffi_shallow_copy__";

/*! \brief Whether value holds an object whose only reference is the caller's. */
inline bool IsUniquelyOwnedObject(const AnyView& value) {
  if (value.type_index() < kTVMFFIStaticObjectBegin) return false;
  return reinterpret_cast<const Object*>(AnyUnsafe::GetTVMFFIAny(value)->v_obj)->unique();
}

/*! \brief A mutate callback's result as Expected<UnchangedOr<Any>>. */
template <typename R>
inline Expected<UnchangedOr<Any>> ToMutateResult(R&& r);

template <typename X>
struct IsExpectedType : std::false_type {};
template <typename X>
struct IsExpectedType<Expected<X>> : std::true_type {};
template <typename X>
struct IsUnchangedOrType : std::false_type {};
template <typename X>
struct IsUnchangedOrType<UnchangedOr<X>> : std::true_type {};

template <typename R>
inline Expected<UnchangedOr<Any>> ToMutateResult(R&& r) {
  using U = std::remove_cv_t<std::remove_reference_t<R>>;
  if constexpr (IsExpectedType<U>::value) {
    if (r.is_err()) return r.error();
    if constexpr (std::is_same_v<U, Expected<void>>) {
      return UnchangedOr<Any>();
    } else {
      return ToMutateResult(std::forward<R>(r).value());
    }
  } else if constexpr (std::is_same_v<U, Unchanged>) {
    return UnchangedOr<Any>();
  } else if constexpr (kIsUnexpected<U>) {
    return Error(std::forward<R>(r).error());
  } else if constexpr (IsUnchangedOrType<U>::value) {
    if (r.IsUnchanged()) return UnchangedOr<Any>();
    return UnchangedOr<Any>(Any(std::forward<R>(r).ValueUnchecked()));
  } else {
    return UnchangedOr<Any>(Any(std::forward<R>(r)));
  }
}

/*! \brief Call a field setter (a C setter, or a Function when flag 2048 is set). */
inline Expected<void> SetReflectedField(const TVMFFIFieldInfo* field, Object* obj,
                                        const Any& value) {
  void* addr = reinterpret_cast<char*>(obj) + field->offset;
  if (reflection::CallFieldSetter(field, addr, AnyUnsafe::GetTVMFFIAny(value)) != 0) {
    return MoveFromRaised();
  }
  return Expected<void>();
}
}  // namespace detail

/*!
 * \brief The state of a structural mutation (layout is ABI: vtable_ @24,
 *  def_region_mode_ @32). Engines derive from it and install their vtable.
 */
class StructuralMutatorObj : public Object {
 public:
  /*!
   * \brief Mutate value through the vtable: maybe_inplace_mutate when mode is
   *  kAllow and value is an object only the caller holds, else mutate.
   */
  Expected<UnchangedOr<Any>> MutateExpected(AnyView value,
                                            InplaceMode mode = InplaceMode::kDisallow) {
    bool inplace = mode == InplaceMode::kAllow && detail::IsUniquelyOwnedObject(value);
    TVMFFIAny r =
        inplace ? vtable_->maybe_inplace_mutate(this, value) : vtable_->mutate(this, value);
    return detail::ExpectedUnsafe::MoveFromTVMFFIAny<UnchangedOr<Any>>(r);
  }
  /*! \brief As MutateExpected; throws the Error. */
  UnchangedOr<Any> Mutate(AnyView value, InplaceMode mode = InplaceMode::kDisallow) {
    return MutateExpected(value, mode).value();
  }

  /*! \return The value var is remapped to, None when it is not. */
  Expected<Any> VarRemapGetExpected(AnyView var) {
    return detail::ExpectedUnsafe::MoveFromTVMFFIAny<Any>(vtable_->var_remap_get(this, var));
  }
  Any VarRemapGet(AnyView var) { return VarRemapGetExpected(var).value(); }
  /*! \brief Remap var to value for the rest of the mutation. */
  Expected<void> VarRemapSetExpected(AnyView var, AnyView value) {
    return detail::ExpectedUnsafe::MoveFromTVMFFIAny<void>(
        vtable_->var_remap_set(this, var, value));
  }
  void VarRemapSet(AnyView var, AnyView value) { VarRemapSetExpected(var, value).value(); }

  /*! \return The definition region the mutation is in. */
  TVMFFIDefRegionKind def_region_kind() const { return def_region_mode_; }
  /*! \brief Run callback() in region kind (no effect inside a Pattern region). */
  template <typename F>
  decltype(auto) WithDefRegionKind(TVMFFIDefRegionKind kind, F&& callback) {
    RegionScope scope(this, kind);
    return std::forward<F>(callback)();
  }

  /*!
   * \brief The default mutation of value: the type's hooks
   *  (`__s_maybe_inplace_mutate__` first when mode is kAllow, then
   *  `__s_mutate__`); PODs are Unchanged; a variable or DAG node already
   *  remapped returns its mapping; a variable used outside a def region is
   *  Unchanged; otherwise the reflected fields are mutated into a shallow copy
   *  and variables / DAG nodes record their result in the remap table.
   */
  Expected<UnchangedOr<Any>> DefaultMutateExpected(AnyView value,
                                                   InplaceMode mode = InplaceMode::kDisallow) {
    int32_t type_index = value.type_index();
    if (mode == InplaceMode::kAllow) {
      const TVMFFIAny* hook = detail::TypeAttrEntry(
          detail::CachedTypeAttrColumn<&detail::kSMaybeInplaceMutateAttrName>(), type_index);
      if (hook != nullptr) return CallHook(hook, value, "__s_maybe_inplace_mutate__");
    }
    const TVMFFIAny* hook = detail::TypeAttrEntry(
        detail::CachedTypeAttrColumn<&detail::kSMutateAttrName>(), type_index);
    if (hook != nullptr) return CallHook(hook, value, "__s_mutate__");
    if (type_index < kTVMFFIStaticObjectBegin) return UnchangedOr<Any>();
    TVMFFISEqHashKind kind = detail::SEqHashKindOf(type_index);
    bool remapped_kind = kind == kTVMFFISEqHashKindFreeVar || kind == kTVMFFISEqHashKindDAGNode;
    if (remapped_kind) {
      Expected<Any> mapped = VarRemapGetExpected(value);
      if (mapped.is_err()) return mapped.error();
      if (mapped.value().type_index() != kTVMFFINone) return UnchangedOr<Any>(mapped.value());
    }
    int32_t region = def_region_mode_;
    bool var = kind == kTVMFFISEqHashKindFreeVar;
    if (var && region == kTVMFFIDefRegionKindNone) return UnchangedOr<Any>();
    const Object* obj =
        reinterpret_cast<const Object*>(detail::AnyUnsafe::GetTVMFFIAny(value)->v_obj);
    Expected<UnchangedOr<Any>> result =
        (var && region == kTVMFFIDefRegionKindSimple)
            ? WithDefRegionKind(kTVMFFIDefRegionKindNone,
                                [&]() { return MutateReflectedFields(obj, type_index); })
            : MutateReflectedFields(obj, type_index);
    if (result.is_err() || !remapped_kind) return result;
    UnchangedOr<Any> r = result.value();
    if (var && region == kTVMFFIDefRegionKindSimple && r.IsUnchanged()) return r;
    Any resolved = r.IsUnchanged() ? Any(value) : r.ValueUnchecked();
    Expected<void> set = VarRemapSetExpected(value, resolved);
    if (set.is_err()) return set.error();
    return r;
  }
  /*! \brief As DefaultMutateExpected; throws the Error. */
  UnchangedOr<Any> DefaultMutate(AnyView value, InplaceMode mode = InplaceMode::kDisallow) {
    return DefaultMutateExpected(value, mode).value();
  }

  /*! \brief The type engine callbacks receive as their mutator (a layer may name itself). */
  using MutatorObjType = StructuralMutatorObj;

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.StructuralMutator", StructuralMutatorObj, Object);

 protected:
  /*!
   * \brief A mutator dispatching through vtable. Layers between this class and an engine
   *  take the vtable in their constructor and pass it on; the engine supplies it.
   */
  explicit StructuralMutatorObj(const StructuralMutatorVTable* vtable) : vtable_(vtable) {}
  StructuralMutatorObj() = default;
  // Engines own state the base does not know about: a copy would dispatch into nothing.
  StructuralMutatorObj(const StructuralMutatorObj&) = delete;
  StructuralMutatorObj& operator=(const StructuralMutatorObj&) = delete;

  /*! \brief Dispatch table (ABI slot @24); set by the engine's constructor. */
  const StructuralMutatorVTable* vtable_ = nullptr;
  /*! \brief Current region (ABI slot @32, an int32). */
  TVMFFIDefRegionKind def_region_mode_ = kTVMFFIDefRegionKindNone;

  ObjectRef SelfRef() {
    return ObjectRef(
        detail::ObjectUnsafe::ObjectPtrFromUnowned<Object>(static_cast<Object*>(this)));
  }

 private:
  class RegionScope {
   public:
    RegionScope(StructuralMutatorObj* self, TVMFFIDefRegionKind kind)
        : self_(self), saved_(self->def_region_mode_) {
      if (saved_ != kTVMFFIDefRegionKindPattern) self_->def_region_mode_ = kind;
    }
    ~RegionScope() { self_->def_region_mode_ = saved_; }
    RegionScope(const RegionScope&) = delete;
    RegionScope& operator=(const RegionScope&) = delete;

   private:
    StructuralMutatorObj* self_;
    TVMFFIDefRegionKind saved_;
  };

  Expected<UnchangedOr<Any>> CallHook(const TVMFFIAny* hook, AnyView value, const char* name) {
    if (hook->type_index == kTVMFFIOpaquePtr) {
      FStructuralMutateABI fn = reinterpret_cast<FStructuralMutateABI>(hook->v_ptr);
      return detail::ExpectedUnsafe::MoveFromTVMFFIAny<UnchangedOr<Any>>(fn(this, value));
    }
    if (hook->type_index == kTVMFFIFunction) {
      Function fn = AnyView::CopyFromTVMFFIAny(*hook).cast<Function>();
      return fn.CallExpected<UnchangedOr<Any>>(SelfRef(), value);
    }
    return Error("TypeError", std::string(name) + " must be a direct hook pointer or ffi.Function",
                 "");
  }

  /*! \brief A copy of obj made by its `__ffi_shallow_copy__` attribute. */
  static Expected<ObjectRef> ShallowCopy(const Object* obj, int32_t type_index) {
    const TVMFFIAny* fn_cell = detail::TypeAttrEntry(
        detail::CachedTypeAttrColumn<&detail::kShallowCopyAttrName>(), type_index);
    if (fn_cell == nullptr || fn_cell->type_index != kTVMFFIFunction) {
      return Error("TypeError", "__ffi_shallow_copy__ must be an ffi.Function", "");
    }
    Function fn = AnyView::CopyFromTVMFFIAny(*fn_cell).cast<Function>();
    ObjectRef self(detail::ObjectUnsafe::ObjectPtrFromUnowned<Object>(const_cast<Object*>(obj)));
    Expected<Any> copy = fn.CallExpected<Any>(self);
    if (copy.is_err()) return copy.error();
    Any c = std::move(copy).value();
    if (c.type_index() != type_index ||
        detail::AnyUnsafe::GetTVMFFIAny(c)->v_obj ==
            detail::ObjectUnsafe::GetHeader(
                reinterpret_cast<const TVMFFIObject*>(static_cast<const void*>(obj)))) {
      return Error("TypeError",
                   "Shallow copy callback must return a distinct object with the same type as its "
                   "input",
                   "");
    }
    return std::move(c).cast<ObjectRef>();
  }

  Expected<UnchangedOr<Any>> MutateReflectedFields(const Object* obj, int32_t type_index) {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
    if (info == nullptr) return UnchangedOr<Any>();
    std::optional<ObjectRef> copy;
    std::optional<Error> error;
    reflection::ForEachFieldInfoWithEarlyStop(info, [&](const TVMFFIFieldInfo* field) {
      if (field->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) return false;
      Expected<Any> field_value = detail::ReadReflectedField(field, obj);
      if (field_value.is_err()) {
        error = field_value.error();
        return true;
      }
      Any child = std::move(field_value).value();
      TVMFFIDefRegionKind region = detail::FieldDefRegion(field);
      Expected<UnchangedOr<Any>> r =
          region != kTVMFFIDefRegionKindNone
              ? WithDefRegionKind(region, [&]() { return MutateExpected(child); })
              : MutateExpected(child);
      if (r.is_err()) {
        error = r.error();
        return true;
      }
      UnchangedOr<Any> u = std::move(r).value();
      if (u.UnchangedOrSameAs(child)) return false;
      if (field->setter == nullptr) {
        error = Error("TypeError",
                      "Cannot structurally mutate field `" +
                          std::string(field->name.data, field->name.size) + "` of type `" +
                          std::string(info->type_key.data, info->type_key.size) +
                          "` because it does not define a setter",
                      "");
        return true;
      }
      if (!copy.has_value()) {
        Expected<ObjectRef> c = ShallowCopy(obj, type_index);
        if (c.is_err()) {
          error = c.error();
          return true;
        }
        copy = std::move(c).value();
      }
      Object* target = const_cast<Object*>(copy->get());
      Expected<void> set = detail::SetReflectedField(field, target, u.ValueUnchecked());
      if (set.is_err()) {
        error = set.error();
        return true;
      }
      return false;
    });
    if (error.has_value()) return *error;
    if (!copy.has_value()) return UnchangedOr<Any>();
    return UnchangedOr<Any>(Any(*copy));
  }
};

/*! \brief Reference to a StructuralMutatorObj (as the mutate globals receive it). */
class StructuralMutator : public ObjectRef {
 public:
  /*! \brief A reference to a mutator or engine object. */
  explicit StructuralMutator(ObjectPtr<StructuralMutatorObj> n) : ObjectRef(std::move(n)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(StructuralMutator, ObjectRef, StructuralMutatorObj);
};

/*!
 * \brief Declare `Type name` from a mutation result expr: return its Error,
 *  or TypeError "structural mutate result does not match the declared type".
 *  An Unchanged result is not allowed here (use UnchangedOr<Type> for Type).
 */
#define TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN(Type, name, expr)                                    \
  auto _tvm_ffi_s_mutate_##name = (expr);                                                      \
  if (_tvm_ffi_s_mutate_##name.is_err()) return std::move(_tvm_ffi_s_mutate_##name).error();   \
  auto _tvm_ffi_s_mutate_opt_##name =                                                          \
      std::move(_tvm_ffi_s_mutate_##name).value().template as<Type>();                         \
  if (!_tvm_ffi_s_mutate_opt_##name.has_value()) {                                             \
    return ::tvm::ffi::Error("TypeError",                                                      \
                             "structural mutate result does not match the declared type", ""); \
  }                                                                                            \
  Type name = std::move(*_tvm_ffi_s_mutate_opt_##name)

/*!
 * \brief As TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN without the type check (the
 *  caller guarantees the type).
 */
#define TVM_FFI_UNSAFE_S_MUTATE_ASSIGN_OR_RETURN(Type, name, expr)                           \
  auto _tvm_ffi_s_mutate_##name = (expr);                                                    \
  if (_tvm_ffi_s_mutate_##name.is_err()) return std::move(_tvm_ffi_s_mutate_##name).error(); \
  Type name = ::tvm::ffi::detail::ExpectedUnsafe::template ValueAs<Type>(_tvm_ffi_s_mutate_##name)

/*!
 * \brief A mutator with a variable-remap table: identity-keyed, holding strong
 *  references to keys and values. Keys must be objects.
 */
class StructuralMapEngineBase : public StructuralMutatorObj {
 public:
  explicit StructuralMapEngineBase(const StructuralMutatorVTable* vtable)
      : StructuralMutatorObj(vtable) {}

  /*! \brief The table's lookup, for engine vtables. */
  static TVMFFIAny VarRemapGetABI(StructuralMutatorObj* self, AnyView var) noexcept {
    auto* base = static_cast<StructuralMapEngineBase*>(self);
    try {
      if (var.type_index() < kTVMFFIStaticObjectBegin) return KeyError();
      auto it = base->remap_.find(detail::AnyUnsafe::GetTVMFFIAny(var)->v_obj);
      Any out = it == base->remap_.end() ? Any() : it->second.second;
      return detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(out));
    } catch (...) {
      return detail::AnyUnsafe::MoveAnyToTVMFFIAny(Any(detail::ErrorFromCurrentException()));
    }
  }
  /*! \brief The table's store, for engine vtables. */
  static TVMFFIAny VarRemapSetABI(StructuralMutatorObj* self, AnyView var, AnyView value) noexcept {
    auto* base = static_cast<StructuralMapEngineBase*>(self);
    try {
      if (var.type_index() < kTVMFFIStaticObjectBegin) return KeyError();
      TVMFFIObject* key = detail::AnyUnsafe::GetTVMFFIAny(var)->v_obj;
      base->remap_[key] = std::make_pair(Any(var), Any(value));
      return detail::AnyUnsafe::MoveAnyToTVMFFIAny(Any());
    } catch (...) {
      return detail::AnyUnsafe::MoveAnyToTVMFFIAny(Any(detail::ErrorFromCurrentException()));
    }
  }

 private:
  static TVMFFIAny KeyError() {
    return detail::AnyUnsafe::MoveAnyToTVMFFIAny(
        Any(Error("TypeError", "Variable-remap key must be an object-backed value", "")));
  }
  // key object → (key, value); the key is held so its address stays unique.
  std::unordered_map<const TVMFFIObject*, std::pair<Any, Any>> remap_;
};

/*!
 * \brief Base of the map engines: at every occurrence of a value computes
 *  post(D(pre(x))) where pre/post are the Derived engine's MatchAndCall(x)
 *  (Unchanged when nothing matched) for the chosen order and D the default
 *  mutation. None is offered only to callbacks taking an Optional (nothing to descend into).
 */
template <typename Derived, typename Parent, WalkOrder order>
class StructuralMapEngineImpl : public Parent {
  static_assert(std::is_base_of_v<StructuralMapEngineBase, Parent>,
                "the Parent of a map engine must derive from StructuralMapEngineBase");

 public:
  StructuralMapEngineImpl() : Parent(VTable()) {}

 private:
  static const StructuralMutatorVTable* VTable() {
    static const StructuralMutatorVTable vtable{
        &MutateABI<InplaceMode::kDisallow>, &MutateABI<InplaceMode::kAllow>,
        &StructuralMapEngineBase::VarRemapGetABI, &StructuralMapEngineBase::VarRemapSetABI};
    return &vtable;
  }

  template <InplaceMode mode>
  static TVMFFIAny MutateABI(StructuralMutatorObj* self, AnyView value) noexcept {
    auto* engine = static_cast<StructuralMapEngineImpl*>(static_cast<Parent*>(self));
    Expected<UnchangedOr<Any>> result = engine->MutateNode(value, mode);
    return detail::ExpectedUnsafe::MoveToTVMFFIAny(std::move(result));
  }

  Expected<UnchangedOr<Any>> MutateNode(AnyView value, InplaceMode mode) noexcept {
    // The node an error is recorded at: value, or what its descent made of it when the
    // post-order callback fails (held by holder).
    Any holder;
    AnyView error_node = value;
    try {
      if (value.type_index() == kTVMFFINone) {
        // None has nothing to descend into; only a callback taking an Optional sees it.
        return static_cast<Derived*>(this)->MatchAndCall(value);
      }
      Expected<UnchangedOr<Any>> result = Step(value, mode, &holder, &error_node);
      if (result.is_err()) VisitErrorContext::AppendValueToError(result.error(), error_node);
      return result;
    } catch (...) {
      Error err = detail::ErrorFromCurrentException();
      try {
        VisitErrorContext::AppendValueToError(err, error_node);
      } catch (...) {
      }
      return err;
    }
  }

  Expected<UnchangedOr<Any>> Step(AnyView value, InplaceMode mode, Any* holder_out,
                                  AnyView* error_node) {
    Any& holder = *holder_out;
    bool changed = false;
    AnyView current = value;
    if constexpr (order == WalkOrder::kPreOrder) {
      Expected<UnchangedOr<Any>> r = static_cast<Derived*>(this)->MatchAndCall(current);
      if (r.is_err()) return r.error();
      UnchangedOr<Any> u = std::move(r).value();
      if (!u.UnchangedOrSameAs(Any(current))) {
        holder = std::move(u).ValueUnchecked();
        current = holder;
        changed = true;
      }
    }
    {
      // A replacement made by the callback is ours alone when nobody else kept it.
      InplaceMode child_mode =
          (mode == InplaceMode::kAllow || changed) && detail::IsUniquelyOwnedObject(current)
              ? InplaceMode::kAllow
              : InplaceMode::kDisallow;
      Expected<UnchangedOr<Any>> d = this->DefaultMutateExpected(current, child_mode);
      if (d.is_err()) return d.error();
      UnchangedOr<Any> u = std::move(d).value();
      if (!u.UnchangedOrSameAs(Any(current))) {
        Any next = std::move(u).ValueUnchecked();
        holder = std::move(next);
        current = holder;
        changed = true;
      }
    }
    if constexpr (order == WalkOrder::kPostOrder) {
      *error_node = current;
      Expected<UnchangedOr<Any>> r = static_cast<Derived*>(this)->MatchAndCall(current);
      if (r.is_err()) return r.error();
      UnchangedOr<Any> u = std::move(r).value();
      if (!u.UnchangedOrSameAs(Any(current))) {
        Any next = std::move(u).ValueUnchecked();
        holder = std::move(next);
        changed = true;
      }
    }
    if (!changed) return UnchangedOr<Any>();
    return UnchangedOr<Any>(std::move(holder));
  }
};

/*!
 * \brief Map engine over C++ callbacks. Each callback takes the value first
 *  (its type selects the values it sees; the first matching callback in
 *  declaration order runs), then the Parent's StateTuple() entries, then
 *  optionally a TVMFFIDefRegionKind; it returns a replacement, Unchanged,
 *  UnchangedOr<T> or an Expected of those, and must not modify its input.
 */
template <typename Parent, WalkOrder order, typename... Callbacks>
class StructuralMapEngine
    : public StructuralMapEngineImpl<StructuralMapEngine<Parent, order, Callbacks...>, Parent,
                                     order> {
 public:
  explicit StructuralMapEngine(Callbacks... callbacks) : callbacks_(std::move(callbacks)...) {}

  /*! \brief Run the first callback whose value parameter matches; Unchanged if none. */
  Expected<UnchangedOr<Any>> MatchAndCall(const AnyView& value) { return Match<0>(value); }

 private:
  template <size_t I>
  Expected<UnchangedOr<Any>> Match(const AnyView& value) {
    if constexpr (I == sizeof...(Callbacks)) {
      return UnchangedOr<Any>();
    } else {
      using CB = std::tuple_element_t<I, std::tuple<Callbacks...>>;
      using Traits = detail::SCallbackTraits<CB>;
      if (!detail::SCallbackMayTake<typename Traits::FirstArg>(value)) return Match<I + 1>(value);
      auto arg = detail::SCallbackTryConvert<typename Traits::FirstArg>(value);
      if (!arg.has_value()) return Match<I + 1>(value);
      auto state = detail::EngineStateAccess::Get(this, 0);
      return detail::ToMutateResult(detail::SCallbackInvoke(
          std::get<I>(callbacks_), std::move(*arg), state, this->def_region_kind()));
    }
  }

  std::tuple<Callbacks...> callbacks_;
  friend struct detail::EngineStateAccess;
};

/*!
 * \brief Map engine over runtime links (type index, Function): the plain
 *  links are searched first (called with the value), then the links that
 *  also receive the current region (called with (value, region)). A link's
 *  type index matches by detail::RuntimeTypeIndexMatch.
 */
template <typename Parent, WalkOrder order>
class StructuralMapDynEngine
    : public StructuralMapEngineImpl<StructuralMapDynEngine<Parent, order>, Parent, order> {
 public:
  using Link = Tuple<int32_t, Function>;
  StructuralMapDynEngine(Array<Link> links, Array<Link> links_with_kind)
      : links_(std::move(links)), links_with_kind_(std::move(links_with_kind)) {}

  Expected<UnchangedOr<Any>> MatchAndCall(const AnyView& value) {
    int32_t type_index = value.type_index();
    if (type_index == kTVMFFINone) return UnchangedOr<Any>();  // runtime links never see None
    for (const Link& link : links_) {
      if (detail::RuntimeTypeIndexMatch(type_index, link.template get<0>())) {
        return link.template get<1>().template CallExpected<UnchangedOr<Any>>(value);
      }
    }
    for (const Link& link : links_with_kind_) {
      if (detail::RuntimeTypeIndexMatch(type_index, link.template get<0>())) {
        return link.template get<1>().template CallExpected<UnchangedOr<Any>>(
            value, static_cast<int32_t>(this->def_region_kind()));
      }
    }
    return UnchangedOr<Any>();
  }

 private:
  Array<Link> links_;
  Array<Link> links_with_kind_;
};

/*!
 * \brief Mutate engine over C++ callbacks that own the recursion: a callback
 *  takes the value, the StructuralMutatorObj*, and optionally the
 *  InplaceMode, and calls mutator->Mutate(child) or DefaultMutateExpected
 *  itself. Values no callback matches get the default mutation; None is
 *  Unchanged.
 */
template <typename Parent, typename... Callbacks>
class StructuralMutateEngine : public Parent {
  static_assert(std::is_base_of_v<StructuralMapEngineBase, Parent>,
                "the Parent of a mutate engine must derive from StructuralMapEngineBase");

 public:
  explicit StructuralMutateEngine(Callbacks... callbacks)
      : Parent(VTable()), callbacks_(std::move(callbacks)...) {}

 private:
  static const StructuralMutatorVTable* VTable() {
    static const StructuralMutatorVTable vtable{
        &MutateABI<InplaceMode::kDisallow>, &MutateABI<InplaceMode::kAllow>,
        &StructuralMapEngineBase::VarRemapGetABI, &StructuralMapEngineBase::VarRemapSetABI};
    return &vtable;
  }

  template <InplaceMode mode>
  static TVMFFIAny MutateABI(StructuralMutatorObj* self, AnyView value) noexcept {
    auto* engine = static_cast<StructuralMutateEngine*>(static_cast<Parent*>(self));
    Expected<UnchangedOr<Any>> result = engine->MutateNode(value, mode);
    return detail::ExpectedUnsafe::MoveToTVMFFIAny(std::move(result));
  }

  Expected<UnchangedOr<Any>> MutateNode(AnyView value, InplaceMode mode) noexcept {
    try {
      Expected<UnchangedOr<Any>> result = Match<0>(value, mode);
      if (result.is_err()) VisitErrorContext::AppendValueToError(result.error(), value);
      return result;
    } catch (...) {
      Error err = detail::ErrorFromCurrentException();
      try {
        VisitErrorContext::AppendValueToError(err, value);
      } catch (...) {
      }
      return err;
    }
  }

  template <size_t I>
  Expected<UnchangedOr<Any>> Match(const AnyView& value, InplaceMode mode) {
    if constexpr (I == sizeof...(Callbacks)) {
      if (value.type_index() == kTVMFFINone) return UnchangedOr<Any>();
      return this->DefaultMutateExpected(value, mode);
    } else {
      using CB = std::tuple_element_t<I, std::tuple<Callbacks...>>;
      using Traits = detail::SCallbackTraits<CB>;
      if (!detail::SCallbackMayTake<typename Traits::FirstArg>(value)) {
        return Match<I + 1>(value, mode);
      }
      auto arg = detail::SCallbackTryConvert<typename Traits::FirstArg>(value);
      if (!arg.has_value()) return Match<I + 1>(value, mode);
      using MutatorObj = typename Parent::MutatorObjType;
      MutatorObj* self = static_cast<MutatorObj*>(this);
      if constexpr (std::is_same_v<typename Traits::LastArg, InplaceMode>) {
        return detail::ToMutateResult(std::get<I>(callbacks_)(std::move(*arg), self, mode));
      } else {
        return detail::ToMutateResult(std::get<I>(callbacks_)(std::move(*arg), self));
      }
    }
  }

  std::tuple<Callbacks...> callbacks_;
  friend struct detail::EngineStateAccess;
};

/*!
 * \brief result = post(D(pre(x))) at every occurrence of every value of root
 *  (see StructuralMapEngine). The root is mutated with InplaceMode::kAllow:
 *  passing a root nobody else holds (moved in) lets uniquely owned parts be
 *  reused in place. Errors are returned with the visited nodes recorded in
 *  the error's VisitErrorContext.
 * \return The new root (root itself when nothing changed), or the Error.
 */
template <WalkOrder order = WalkOrder::kPostOrder, typename... Callbacks>
inline Expected<Any> StructuralMapExpected(Any root, Callbacks... callbacks) {
  using Engine = StructuralMapEngine<StructuralMapEngineBase, order, Callbacks...>;
  ObjectPtr<Engine> engine = make_object<Engine>(std::move(callbacks)...);
  Expected<UnchangedOr<Any>> r = engine->MutateExpected(root, InplaceMode::kAllow);
  if (r.is_err()) return r.error();
  return std::move(r).value().ValueOrUnchanged(std::move(root));
}

/*! \brief As StructuralMapExpected; throws the Error. */
template <WalkOrder order = WalkOrder::kPostOrder, typename... Callbacks>
inline Any StructuralMap(Any root, Callbacks... callbacks) {
  return StructuralMapExpected<order>(std::move(root), std::move(callbacks)...).value();
}

/*!
 * \brief Mutate root with callbacks (value, StructuralMutatorObj*[, InplaceMode])
 *  that own the recursion; unmatched values get the default mutation.
 */
template <typename... Callbacks>
inline Expected<Any> StructuralMutateExpected(Any root, Callbacks... callbacks) {
  using Engine = StructuralMutateEngine<StructuralMapEngineBase, Callbacks...>;
  ObjectPtr<Engine> engine = make_object<Engine>(std::move(callbacks)...);
  Expected<UnchangedOr<Any>> r = engine->MutateExpected(root, InplaceMode::kAllow);
  if (r.is_err()) return r.error();
  return std::move(r).value().ValueOrUnchanged(std::move(root));
}

/*! \brief As StructuralMutateExpected; throws the Error. */
template <typename... Callbacks>
inline Any StructuralMutate(Any root, Callbacks... callbacks) {
  return StructuralMutateExpected(std::move(root), std::move(callbacks)...).value();
}

TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_EXTRA_STRUCTURAL_MUTATE_H_
