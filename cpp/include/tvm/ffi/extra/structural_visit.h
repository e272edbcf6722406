/*
 * Structural visiting: walk every value reachable from a root (container
 * elements, map values, reflected fields) with typed callbacks.
 *
 *   // Count the ints of a structure, pre-order; stop at the first negative one.
 *   int64_t count = 0;
 *   Optional<VisitInterrupt> stop = StructuralWalk<WalkOrder::kPreOrder>(
 *       root, [&](int64_t v) -> WalkResult {
 *         if (v < 0) return WalkResult::Interrupt(VisitInterrupt(v));
 *         ++count;
 *         return WalkResult::Advance();
 *       });
 *
 * The visitor object's layout and vtable are ABI: a `__s_visit__` hook
 * registered by one library is called with visitors built by another's
 * inline code. A hook is a native adapter
 * `TVMFFIAny (*)(StructuralVisitorObj*, AnyView) noexcept` stored as an
 * opaque pointer, or a Function called as (visitor, value). Its result is
 * None (continue), a VisitInterrupt (stop) or an Error.
 */
#ifndef TVM_FFI_EXTRA_STRUCTURAL_VISIT_H_
#define TVM_FFI_EXTRA_STRUCTURAL_VISIT_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/extra/visit_error_context.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/native_function.h>
#include <tvm/ffi/reflection/type_attr.h>

#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN

/*! \brief The payload of a stopped visit (static type index 77; layout: Any value @24). */
class VisitInterruptObj : public Object {
 public:
  /*! \brief What the interrupting callback reported (None by default). */
  Any value;

  VisitInterruptObj() = default;
  explicit VisitInterruptObj(Any value) : value(std::move(value)) {}

  static constexpr int32_t _type_index = kTVMFFIVisitInterrupt;
  static constexpr bool _type_final = true;
  static constexpr uint32_t _type_child_slots = 0;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIVisitInterrupt, VisitInterruptObj,
                                     Object);
};

/*! \brief Reference to a VisitInterruptObj; never null. */
class VisitInterrupt : public ObjectRef {
 public:
  /*! \brief An interrupt without payload. */
  VisitInterrupt() : ObjectRef(make_object<VisitInterruptObj>()) {}
  /*! \brief An interrupt carrying value. */
  explicit VisitInterrupt(Any value)
      : ObjectRef(make_object<VisitInterruptObj>(std::move(value))) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(VisitInterrupt, ObjectRef, VisitInterruptObj);
};

/*! \brief Whether a walk calls its callback before (pre) or after (post) the children. */
enum class WalkOrder : int32_t { kPreOrder = 0, kPostOrder = 1 };

/*!
 * \brief What a walk callback asks for: go on (Advance), do not descend into
 *  this value (Skip; pre-order only), or stop everything (Interrupt).
 *  Stored as the int 0/1 or a VisitInterrupt; None reads as Advance.
 */
class WalkResult {
 public:
  static constexpr int32_t kAdvance = 0;
  static constexpr int32_t kSkip = 1;

  /*! \brief Advance. */
  WalkResult() : data_(static_cast<int64_t>(kAdvance)) {}
  WalkResult(VisitInterrupt interrupt) : data_(std::move(interrupt)) {}  // NOLINT(*)
  WalkResult(std::nullopt_t) : WalkResult() {}                           // NOLINT(*)
  WalkResult(const Optional<VisitInterrupt>& interrupt)                  // NOLINT(*)
      : data_(interrupt.has_value() ? Any(*interrupt) : Any(static_cast<int64_t>(kAdvance))) {}

  static WalkResult Advance() { return WalkResult(); }
  static WalkResult Skip() { return WalkResult(Any(static_cast<int64_t>(kSkip)), 0); }
  static WalkResult Interrupt(VisitInterrupt interrupt = VisitInterrupt()) {
    return WalkResult(std::move(interrupt));
  }

  bool IsInterrupt() const { return data_.type_index() == kTVMFFIVisitInterrupt; }
  bool IsSkip() const { return data_.type_index() == kTVMFFIInt && data_.cast<int64_t>() == kSkip; }
  bool IsAdvance() const { return !IsInterrupt() && !IsSkip(); }
  /*! \return The interrupt, or nullopt when this is not one. */
  Optional<VisitInterrupt> GetInterrupt() const {
    if (!IsInterrupt()) return std::nullopt;
    return data_.cast<VisitInterrupt>();
  }
  /*! \brief Exact read of the stored alternative (VisitInterrupt or int). */
  template <typename T>
  auto as() const {
    return data_.as<T>();
  }

 private:
  WalkResult(Any data, int) : data_(std::move(data)) {}
  Any data_;
  template <typename, typename>
  friend struct TypeTraits;
};

template <>
struct TypeTraits<WalkResult> : TypeTraitsBase {
  static void CopyToAnyView(const WalkResult& src, TVMFFIAny* r) {
    *r = *detail::AnyUnsafe::GetTVMFFIAny(src.data_);
  }
  static void MoveToAny(WalkResult src, TVMFFIAny* r) {
    *r = detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(src.data_));
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == kTVMFFIVisitInterrupt ||
           (src->type_index == kTVMFFIInt &&
            (src->v_int64 == WalkResult::kAdvance || src->v_int64 == WalkResult::kSkip));
  }
  static WalkResult CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return WalkResult(Any(AnyView::CopyFromTVMFFIAny(*src)), 0);
  }
  static WalkResult MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return WalkResult(detail::AnyUnsafe::MoveTVMFFIAnyToAny(src), 0);
  }
  static std::optional<WalkResult> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    if (src->type_index == kTVMFFINone) return WalkResult::Advance();
    return std::nullopt;
  }
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    return AnyView::CopyFromTVMFFIAny(*src).GetTypeKey();
  }
  static std::string TypeStr() { return "WalkResult"; }
  static std::string TypeSchema() {
    return detail::SchemaWithArgs(
        "Variant",
        {detail::SchemaOf(StaticTypeKey::kTVMFFIVisitInterrupt), detail::SchemaOf("int")});
  }
};

class StructuralVisitorObj;

/*!
 * \brief The native visit ABI: returns, as a raw owned cell, None to continue,
 *  a VisitInterrupt to stop, or an Error.
 */
using FStructuralVisitABI = TVMFFIAny (*)(StructuralVisitorObj* visitor, AnyView value) noexcept;

/*! \brief The visitor's dispatch table (ABI). */
struct StructuralVisitorVTable {
  FStructuralVisitABI visit;
};

/*!
 * \brief A `__s_visit__` hook as a value: its native adapter has the
 *  FStructuralVisitABI signature.
 *
 *   TypeAttrDef<MyNodeObj>().native_fn_attr<&VisitMyNode>(type_attr::kStructuralVisit);
 */
using FStructuralVisit =
    reflection::NativeFunctionView<Optional<VisitInterrupt>(StructuralVisitorObj*, AnyView)>;

namespace type_attr {
/*! \brief FStructuralVisit: replaces the default descent into the type's values. */
inline constexpr reflection::AttrKey<FStructuralVisit> kStructuralVisit{"__s_visit__"};
}  // namespace type_attr

namespace detail {
/*! \brief The entry of type_index in an attribute column, or nullptr when absent (None). */
inline const TVMFFIAny* TypeAttrEntry(const TVMFFITypeAttrColumn* column, int32_t type_index) {
  if (column == nullptr) return nullptr;
  int64_t slot = static_cast<int64_t>(type_index) - column->begin_index;
  if (slot < 0 || slot >= column->size) return nullptr;
  const TVMFFIAny* entry = column->data + slot;
  return entry->type_index == kTVMFFINone ? nullptr : entry;
}

/*! \brief The attribute column name, looked up once (it exists from start-up). */
template <const char* const* kName>
inline const TVMFFITypeAttrColumn* CachedTypeAttrColumn() {
  static const TVMFFITypeAttrColumn* column = [] {
    TVMFFIByteArray name{*kName, std::char_traits<char>::length(*kName)};
    return TVMFFIGetTypeAttrColumn(&name);
  }();
  if (column != nullptr) return column;
  // Created after first use: look it up again (never cached as missing).
  TVMFFIByteArray name{*kName, std::char_traits<char>::length(*kName)};
  return TVMFFIGetTypeAttrColumn(&name);
}

inline constexpr const char* kSVisitAttrName = "__s_visit__";

/*! \brief The kind a type registered in its metadata (Unsupported without metadata). */
inline TVMFFISEqHashKind SEqHashKindOf(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  if (info == nullptr || info->metadata == nullptr) return kTVMFFISEqHashKindUnsupported;
  return info->metadata->structural_eq_hash_kind;
}

/*! \brief The region a field opens (None: the field keeps the current region). */
inline TVMFFIDefRegionKind FieldDefRegion(const TVMFFIFieldInfo* field) {
  if (field->flags & kTVMFFIFieldFlagBitMaskSEqHashDefSimple) return kTVMFFIDefRegionKindSimple;
  if (field->flags & kTVMFFIFieldFlagBitMaskSEqHashDefPattern) return kTVMFFIDefRegionKindPattern;
  return kTVMFFIDefRegionKindNone;
}

/*! \brief Read a reflected field of obj as an owned value. */
inline Expected<Any> ReadReflectedField(const TVMFFIFieldInfo* field, const Object* obj) {
  Any out;
  void* addr = reinterpret_cast<char*>(const_cast<Object*>(obj)) + field->offset;
  if (field->getter == nullptr) {
    return Error("TypeError",
                 "Field `" + std::string(field->name.data, field->name.size) + "` has no getter",
                 "");
  }
  if (field->getter(addr, AnyUnsafe::GetTVMFFIAny(&out)) != 0) return MoveFromRaised();
  return out;
}

/*! \brief Turn any exception into an Error (for noexcept ABI boundaries). */
inline Error ErrorFromCurrentException() {
  try {
    throw;
  } catch (const Error& err) {
    return err;
  } catch (const std::exception& ex) {
    return Error("InternalError", ex.what(), "");
  } catch (...) {
    return Error("InternalError", "unknown C++ exception", "");
  }
}

/*!
 * \brief The extra callback arguments an engine's Parent supplies with StateTuple() (empty
 *  when it has none). Parents usually keep StateTuple() protected; engines befriend this.
 */
struct EngineStateAccess {
  template <typename Engine>
  static auto Get(Engine* engine, int) -> decltype(engine->StateTuple()) {
    return engine->StateTuple();
  }
  template <typename Engine>
  static std::tuple<> Get(Engine*, long) {  // NOLINT(runtime/int)
    return {};
  }
};

/*! \brief Parameter traits of an engine callback. */
template <typename F>
struct SCallbackTraits {
  using Sig = FuncSignature<std::decay_t<F>>;
  using ArgsTuple = typename Sig::ArgsTuple;
  using RetType = typename Sig::RetType;
  static constexpr size_t kNumArgs = Sig::kNumArgs;
  static_assert(kNumArgs >= 1, "a structural callback takes the value as its first parameter");
  using FirstArg = std::tuple_element_t<0, ArgsTuple>;
  using LastArg =
      std::remove_cv_t<std::remove_reference_t<std::tuple_element_t<kNumArgs - 1, ArgsTuple>>>;
  /*! \brief Whether the trailing parameter receives the current def region. */
  static constexpr bool kTakesRegion =
      kNumArgs >= 2 && std::is_same_v<LastArg, TVMFFIDefRegionKind>;
};

/*!
 * \brief Whether a callback whose value parameter is Param may be offered value: None only
 *  reaches a callback that takes an Optional.
 */
template <typename Param>
inline bool SCallbackMayTake(const AnyView& value) {
  return value.type_index() != kTVMFFINone ||
         is_optional_type_v<std::remove_cv_t<std::remove_reference_t<Param>>>;
}

/*!
 * \brief value as the callback parameter type Param when it matches exactly
 *  (Any/AnyView match everything; `const T*` matches T and its subclasses).
 */
template <typename Param>
inline auto SCallbackTryConvert(const AnyView& value) {
  using U = std::remove_cv_t<std::remove_reference_t<Param>>;
  if constexpr (std::is_same_v<U, Any> || std::is_same_v<U, AnyView>) {
    return std::optional<U>(U(value));
  } else if constexpr (std::is_pointer_v<U>) {
    using Obj = std::remove_cv_t<std::remove_pointer_t<U>>;
    static_assert(std::is_base_of_v<Object, Obj>,
                  "a pointer callback parameter must point to an Object subclass");
    const Obj* ptr = value.as<Obj>();
    return ptr != nullptr ? std::optional<U>(const_cast<U>(ptr)) : std::optional<U>();
  } else {
    return value.as<U>();
  }
}

template <typename CB, typename Arg, typename State, size_t... I>
inline decltype(auto) SCallbackInvokePrefix(CB& cb, Arg&& arg, State& state,
                                            TVMFFIDefRegionKind region, std::index_sequence<I...>) {
  if constexpr (SCallbackTraits<CB>::kTakesRegion) {
    return cb(std::forward<Arg>(arg), std::get<I>(state)..., region);
  } else {
    return cb(std::forward<Arg>(arg), std::get<I>(state)...);
  }
}

/*!
 * \brief Call cb(arg, state[0..k)..., [region]): a callback takes as many leading state
 *  entries as it has parameters between the value and the optional region.
 */
template <typename CB, typename Arg, typename State>
inline decltype(auto) SCallbackInvoke(CB& cb, Arg&& arg, State& state, TVMFFIDefRegionKind region) {
  using Traits = SCallbackTraits<CB>;
  constexpr size_t kNumState = Traits::kNumArgs - 1 - (Traits::kTakesRegion ? 1 : 0);
  static_assert(kNumState <= std::tuple_size_v<State>,
                "a structural callback takes more parameters than the engine supplies");
  return SCallbackInvokePrefix(cb, std::forward<Arg>(arg), state, region,
                               std::make_index_sequence<kNumState>());
}

/*! \brief A walk callback's result as Expected<WalkResult>. */
template <typename R>
inline Expected<WalkResult> ToWalkResult(R&& r) {
  using U = std::remove_cv_t<std::remove_reference_t<R>>;
  if constexpr (std::is_same_v<U, Expected<WalkResult>>) {
    return std::forward<R>(r);
  } else if constexpr (std::is_same_v<U, Expected<void>>) {
    if (r.is_err()) return r.error();
    return WalkResult::Advance();
  } else if constexpr (std::is_same_v<U, Expected<Optional<VisitInterrupt>>>) {
    if (r.is_err()) return r.error();
    return WalkResult(r.value());
  } else {
    return WalkResult(std::forward<R>(r));
  }
}

/*! \brief A visit callback's result as Expected<Optional<VisitInterrupt>>. */
template <typename R>
inline Expected<Optional<VisitInterrupt>> ToVisitResult(R&& r) {
  using U = std::remove_cv_t<std::remove_reference_t<R>>;
  if constexpr (std::is_same_v<U, Expected<Optional<VisitInterrupt>>>) {
    return std::forward<R>(r);
  } else if constexpr (std::is_same_v<U, Expected<void>>) {
    if (r.is_err()) return r.error();
    return Optional<VisitInterrupt>();
  } else if constexpr (std::is_same_v<U, Expected<WalkResult>>) {
    if (r.is_err()) return r.error();
    return r.value().GetInterrupt();
  } else if constexpr (std::is_same_v<U, WalkResult>) {
    return r.GetInterrupt();
  } else {
    return Optional<VisitInterrupt>(std::forward<R>(r));
  }
}

/*! \brief kind as a TVMFFIDefRegionKind; ValueError when it names none. */
inline TVMFFIDefRegionKind CheckDefRegionKind(int64_t kind) {
  if (kind < kTVMFFIDefRegionKindNone || kind > kTVMFFIDefRegionKindSimple) {
    TVM_FFI_THROW(ValueError) << "Invalid def region kind: " << kind
                              << " (expected 0 none, 1 pattern or 2 simple)";
  }
  return static_cast<TVMFFIDefRegionKind>(kind);
}

}  // namespace detail

/*!
 * \brief The state of a structural visit (layout is ABI: vtable_ @24,
 *  def_region_mode_ @32). Engines derive from it and install their vtable.
 */
class StructuralVisitorObj : public Object {
 public:
  /*! \brief Visit value through the vtable; never throws. */
  Expected<Optional<VisitInterrupt>> VisitExpected(AnyView value) {
    return detail::ExpectedUnsafe::MoveFromTVMFFIAny<Optional<VisitInterrupt>>(
        vtable_->visit(this, value));
  }
  /*! \brief Visit value; throws the Error of a failed visit. */
  Optional<VisitInterrupt> Visit(AnyView value) { return VisitExpected(value).value(); }

  /*! \return The definition region the visit is in. */
  TVMFFIDefRegionKind def_region_kind() const { return def_region_mode_; }

  /*!
   * \brief Run callback() with the region set to kind, restoring it after.
   *  Inside a Pattern region the region stays Pattern.
   */
  template <typename F>
  decltype(auto) WithDefRegionKind(TVMFFIDefRegionKind kind, F&& callback) {
    RegionScope scope(this, kind);
    return std::forward<F>(callback)();
  }

  /*!
   * \brief The default descent into value: its type's `__s_visit__` hook, or
   *  for an object without one its reflected fields (registration order,
   *  ancestors first; SEqHashIgnore fields skipped; def-region flags scope
   *  the region). PODs have nothing to visit.
   */
  Expected<Optional<VisitInterrupt>> DefaultVisitExpected(AnyView value) {
    int32_t type_index = value.type_index();
    const TVMFFIAny* hook =
        detail::TypeAttrEntry(detail::CachedTypeAttrColumn<&detail::kSVisitAttrName>(), type_index);
    if (hook != nullptr) {
      if (hook->type_index == kTVMFFIOpaquePtr) {
        FStructuralVisitABI fn = reinterpret_cast<FStructuralVisitABI>(hook->v_ptr);
        return detail::ExpectedUnsafe::MoveFromTVMFFIAny<Optional<VisitInterrupt>>(fn(this, value));
      }
      if (hook->type_index == kTVMFFIFunction) {
        Function fn = AnyView::CopyFromTVMFFIAny(*hook).cast<Function>();
        return fn.CallExpected<Optional<VisitInterrupt>>(SelfRef(), value);
      }
      return Error("TypeError", "__s_visit__ must be an opaque function pointer or ffi.Function",
                   "");
    }
    if (type_index < kTVMFFIStaticObjectBegin) return Optional<VisitInterrupt>();
    const Object* obj =
        reinterpret_cast<const Object*>(detail::AnyUnsafe::GetTVMFFIAny(value)->v_obj);
    if (def_region_mode_ == kTVMFFIDefRegionKindSimple &&
        detail::SEqHashKindOf(type_index) == kTVMFFISEqHashKindFreeVar) {
      // A variable defined in a simple region: its own fields are uses.
      return WithDefRegionKind(kTVMFFIDefRegionKindNone,
                               [&]() { return VisitReflectedFields(obj, type_index); });
    }
    return VisitReflectedFields(obj, type_index);
  }

  /*! \brief As DefaultVisitExpected; throws the Error of a failed visit. */
  Optional<VisitInterrupt> DefaultVisit(AnyView value) {
    return DefaultVisitExpected(value).value();
  }

  /*! \brief The type engine callbacks receive as their visitor (a layer may name itself). */
  using VisitorObjType = StructuralVisitorObj;

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.StructuralVisitor", StructuralVisitorObj, Object);

 protected:
  /*!
   * \brief A visitor dispatching through vtable. Layers between this class and an engine
   *  take the vtable in their constructor and pass it on; the engine supplies it.
   */
  explicit StructuralVisitorObj(const StructuralVisitorVTable* vtable) : vtable_(vtable) {}
  StructuralVisitorObj() = default;
  // Engines own state the base does not know about: a copy would dispatch into nothing.
  StructuralVisitorObj(const StructuralVisitorObj&) = delete;
  StructuralVisitorObj& operator=(const StructuralVisitorObj&) = delete;

  /*! \brief Dispatch table (ABI slot @24); set by the engine's constructor. */
  const StructuralVisitorVTable* vtable_ = nullptr;
  /*! \brief Current region (ABI slot @32, an int32). */
  TVMFFIDefRegionKind def_region_mode_ = kTVMFFIDefRegionKindNone;

  /*! \brief A new reference to this visitor (to pass it to Functions). */
  ObjectRef SelfRef() {
    return ObjectRef(
        detail::ObjectUnsafe::ObjectPtrFromUnowned<Object>(static_cast<Object*>(this)));
  }

 private:
  class RegionScope {
   public:
    RegionScope(StructuralVisitorObj* self, TVMFFIDefRegionKind kind)
        : self_(self), saved_(self->def_region_mode_) {
      if (saved_ != kTVMFFIDefRegionKindPattern) self_->def_region_mode_ = kind;
    }
    ~RegionScope() { self_->def_region_mode_ = saved_; }
    RegionScope(const RegionScope&) = delete;
    RegionScope& operator=(const RegionScope&) = delete;

   private:
    StructuralVisitorObj* self_;
    TVMFFIDefRegionKind saved_;
  };

  Expected<Optional<VisitInterrupt>> VisitReflectedFields(const Object* obj, int32_t type_index) {
    Expected<Optional<VisitInterrupt>> result = Optional<VisitInterrupt>();
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
    if (info == nullptr) return result;
    reflection::ForEachFieldInfoWithEarlyStop(info, [&](const TVMFFIFieldInfo* field) {
      if (field->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) return false;
      Expected<Any> field_value = detail::ReadReflectedField(field, obj);
      if (field_value.is_err()) {
        result = field_value.error();
        return true;
      }
      Any child = std::move(field_value).value();
      TVMFFIDefRegionKind region = detail::FieldDefRegion(field);
      if (region != kTVMFFIDefRegionKindNone) {
        result = WithDefRegionKind(region, [&]() { return VisitExpected(child); });
      } else {
        result = VisitExpected(child);
      }
      return result.type_index() != kTVMFFINone;
    });
    return result;
  }
};

/*! \brief Reference to a StructuralVisitorObj (as the visit globals receive it). */
class StructuralVisitor : public ObjectRef {
 public:
  /*! \brief A reference to a visitor or engine object. */
  explicit StructuralVisitor(ObjectPtr<StructuralVisitorObj> n) : ObjectRef(std::move(n)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(StructuralVisitor, ObjectRef, StructuralVisitorObj);
};

/*!
 * \brief Return from the enclosing function when a visit result is an Error
 *  or an interrupt (anything but None).
 */
#define TVM_FFI_S_VISIT_MAYBE_EARLY_RETURN(expr)                    \
  do {                                                              \
    auto _tvm_ffi_s_visit_result = (expr);                          \
    if (::tvm::ffi::detail::SVisitStops(_tvm_ffi_s_visit_result)) { \
      return _tvm_ffi_s_visit_result;                               \
    }                                                               \
  } while (0)

namespace detail {
/*! \brief Whether a visit result ends the visit: an error or an interrupt. */
inline bool SVisitStops(const Expected<Optional<VisitInterrupt>>& r) {
  return r.type_index() != kTVMFFINone;
}
inline bool SVisitStops(const Optional<VisitInterrupt>& r) { return r.has_value(); }
}  // namespace detail

/*!
 * \brief Base of the walk engines: visits a value by calling the Derived
 *  engine's MatchAndCall(value) → Expected<WalkResult> (Advance when nothing
 *  matched) before (pre-order) or after (post-order) the default descent.
 *  None values are skipped; every error leaving a node gets the node appended
 *  to its VisitErrorContext.
 */
template <typename Derived, typename Parent, WalkOrder order>
class StructuralWalkEngineBase : public Parent {
  static_assert(std::is_base_of_v<StructuralVisitorObj, Parent>,
                "the Parent of a walk engine must derive from StructuralVisitorObj");

 public:
  StructuralWalkEngineBase() : Parent(VTable()) {}

 protected:
  static const StructuralVisitorVTable* VTable() {
    static const StructuralVisitorVTable vtable{&VisitABI};
    return &vtable;
  }

 private:
  static TVMFFIAny VisitABI(StructuralVisitorObj* self, AnyView value) noexcept {
    auto* engine = static_cast<StructuralWalkEngineBase*>(static_cast<Parent*>(self));
    Expected<Optional<VisitInterrupt>> result = engine->VisitNode(value);
    return detail::ExpectedUnsafe::MoveToTVMFFIAny(std::move(result));
  }

  Expected<Optional<VisitInterrupt>> VisitNode(AnyView value) noexcept {
    if (value.type_index() == kTVMFFINone) return Optional<VisitInterrupt>();
    try {
      Expected<Optional<VisitInterrupt>> result = Step(value);
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

  Expected<Optional<VisitInterrupt>> Step(AnyView value) {
    if constexpr (order == WalkOrder::kPreOrder) {
      Expected<WalkResult> r = static_cast<Derived*>(this)->MatchAndCall(value);
      if (r.is_err()) return r.error();
      WalkResult w = std::move(r).value();
      if (w.IsInterrupt()) return w.GetInterrupt();
      if (w.IsSkip()) return Optional<VisitInterrupt>();
      return this->DefaultVisitExpected(value);
    } else {
      Expected<Optional<VisitInterrupt>> d = this->DefaultVisitExpected(value);
      if (d.type_index() != kTVMFFINone) return d;
      Expected<WalkResult> r = static_cast<Derived*>(this)->MatchAndCall(value);
      if (r.is_err()) return r.error();
      return r.value().GetInterrupt();
    }
  }
};

/*!
 * \brief Walk engine over C++ callbacks. Each callback takes the value as its
 *  first parameter (its type selects the values it sees; the first matching
 *  callback in declaration order runs), then the entries of the Parent's
 *  StateTuple(), then optionally a TVMFFIDefRegionKind. It returns void,
 *  WalkResult, Optional<VisitInterrupt> or an Expected of those.
 */
template <typename Parent, WalkOrder order, typename... Callbacks>
class StructuralWalkEngine
    : public StructuralWalkEngineBase<StructuralWalkEngine<Parent, order, Callbacks...>, Parent,
                                      order> {
 public:
  explicit StructuralWalkEngine(Callbacks... callbacks) : callbacks_(std::move(callbacks)...) {}

  /*! \brief Run the first callback whose value parameter matches; Advance if none. */
  Expected<WalkResult> MatchAndCall(const AnyView& value) { return Match<0>(value); }

 private:
  template <size_t I>
  Expected<WalkResult> Match(const AnyView& value) {
    if constexpr (I == sizeof...(Callbacks)) {
      return WalkResult::Advance();
    } else {
      using CB = std::tuple_element_t<I, std::tuple<Callbacks...>>;
      using Traits = detail::SCallbackTraits<CB>;
      auto arg = detail::SCallbackTryConvert<typename Traits::FirstArg>(value);
      if (!arg.has_value()) return Match<I + 1>(value);
      auto state = detail::EngineStateAccess::Get(this, 0);
      if constexpr (std::is_void_v<typename Traits::RetType>) {
        detail::SCallbackInvoke(std::get<I>(callbacks_), std::move(*arg), state,
                                this->def_region_kind());
        return WalkResult::Advance();
      } else {
        return detail::ToWalkResult(detail::SCallbackInvoke(
            std::get<I>(callbacks_), std::move(*arg), state, this->def_region_kind()));
      }
    }
  }

  std::tuple<Callbacks...> callbacks_;
  friend struct detail::EngineStateAccess;
};

/*!
 * \brief Visit engine over C++ callbacks that own the descent: a callback
 *  takes the value, then the StructuralVisitorObj* (and the Parent's state
 *  entries, and optionally the region), and calls visitor->Visit(child) or
 *  DefaultVisitExpected(value) itself. It returns void,
 *  Optional<VisitInterrupt> or Expected<Optional<VisitInterrupt>>. A value
 *  no callback matches gets the default descent; None is skipped.
 */
template <typename Parent, typename... Callbacks>
class StructuralVisitEngine : public Parent {
  static_assert(std::is_base_of_v<StructuralVisitorObj, Parent>,
                "the Parent of a visit engine must derive from StructuralVisitorObj");

 public:
  explicit StructuralVisitEngine(Callbacks... callbacks)
      : Parent(VTable()), callbacks_(std::move(callbacks)...) {}

 private:
  static const StructuralVisitorVTable* VTable() {
    static const StructuralVisitorVTable vtable{&VisitABI};
    return &vtable;
  }

  static TVMFFIAny VisitABI(StructuralVisitorObj* self, AnyView value) noexcept {
    auto* engine = static_cast<StructuralVisitEngine*>(static_cast<Parent*>(self));
    Expected<Optional<VisitInterrupt>> result = engine->VisitNode(value);
    return detail::ExpectedUnsafe::MoveToTVMFFIAny(std::move(result));
  }

  Expected<Optional<VisitInterrupt>> VisitNode(AnyView value) noexcept {
    if (value.type_index() == kTVMFFINone) return Optional<VisitInterrupt>();
    try {
      Expected<Optional<VisitInterrupt>> result = Match<0>(value);
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
  Expected<Optional<VisitInterrupt>> Match(const AnyView& value) {
    if constexpr (I == sizeof...(Callbacks)) {
      return this->DefaultVisitExpected(value);
    } else {
      using CB = std::tuple_element_t<I, std::tuple<Callbacks...>>;
      using Traits = detail::SCallbackTraits<CB>;
      auto arg = detail::SCallbackTryConvert<typename Traits::FirstArg>(value);
      if (!arg.has_value()) return Match<I + 1>(value);
      using VisitorObj = typename Parent::VisitorObjType;
      auto state = std::tuple_cat(std::tuple<VisitorObj*>(static_cast<VisitorObj*>(this)),
                                  detail::EngineStateAccess::Get(this, 0));
      if constexpr (std::is_void_v<typename Traits::RetType>) {
        detail::SCallbackInvoke(std::get<I>(callbacks_), std::move(*arg), state,
                                this->def_region_kind());
        return Optional<VisitInterrupt>();
      } else {
        return detail::ToVisitResult(detail::SCallbackInvoke(
            std::get<I>(callbacks_), std::move(*arg), state, this->def_region_kind()));
      }
    }
  }

  std::tuple<Callbacks...> callbacks_;
  friend struct detail::EngineStateAccess;
};

/*! \brief The Parent of the engines behind StructuralWalk/StructuralVisit: no extra state. */
class StructuralVisitorNoState : public StructuralVisitorObj {
 public:
  explicit StructuralVisitorNoState(const StructuralVisitorVTable* vtable)
      : StructuralVisitorObj(vtable) {}
};

/*!
 * \brief Walk root calling the callbacks at every occurrence of every value
 *  (no dedup; None skipped). Pre-order: a callback's Skip prunes the value's
 *  children. Errors thrown by callbacks are returned, with the visited nodes
 *  recorded in the error's VisitErrorContext.
 * \return nullopt when the walk finished, the VisitInterrupt that stopped it,
 *  or the Error.
 */
template <WalkOrder order = WalkOrder::kPostOrder, typename... Callbacks>
inline Expected<Optional<VisitInterrupt>> StructuralWalkExpected(const Any& root,
                                                                 Callbacks... callbacks) {
  using Engine = StructuralWalkEngine<StructuralVisitorNoState, order, Callbacks...>;
  ObjectPtr<Engine> engine = make_object<Engine>(std::move(callbacks)...);
  return engine->VisitExpected(root);
}

/*! \brief As StructuralWalkExpected; throws the Error. */
template <WalkOrder order = WalkOrder::kPostOrder, typename... Callbacks>
inline Optional<VisitInterrupt> StructuralWalk(const Any& root, Callbacks... callbacks) {
  return StructuralWalkExpected<order>(root, std::move(callbacks)...).value();
}

/*!
 * \brief Visit root with callbacks (value, StructuralVisitorObj*) that own the
 *  descent; values no callback matches get the default descent.
 */
template <typename... Callbacks>
inline Expected<Optional<VisitInterrupt>> StructuralVisitExpected(const Any& root,
                                                                  Callbacks... callbacks) {
  using Engine = StructuralVisitEngine<StructuralVisitorNoState, Callbacks...>;
  ObjectPtr<Engine> engine = make_object<Engine>(std::move(callbacks)...);
  return engine->VisitExpected(root);
}

/*! \brief As StructuralVisitExpected; throws the Error. */
template <typename... Callbacks>
inline Optional<VisitInterrupt> StructuralVisit(const Any& root, Callbacks... callbacks) {
  return StructuralVisitExpected(root, std::move(callbacks)...).value();
}

TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_EXTRA_STRUCTURAL_VISIT_H_
