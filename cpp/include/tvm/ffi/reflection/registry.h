/*
 * Registration of global functions, reflected object types (fields, methods,
 * constructors, type attributes) and their metadata.
 *
 *   TVM_FFI_STATIC_INIT_BLOCK() {
 *     namespace refl = tvm::ffi::reflection;
 *     refl::GlobalDef()
 *         .def("my.add", [](int a, int b) { return a + b; }, "Add two ints.")
 *         .def_packed("my.sum", [](const AnyView* args, int32_t n, Any* rv) { ... });
 *     refl::ObjectDef<PointObj>("A 2-d point.")
 *         .def_ro("x", &PointObj::x, "x coordinate", refl::DefaultValue(0))
 *         .def_rw("y", &PointObj::y, refl::Metadata{{"unit", "m"}})
 *         .def("norm", &PointObj::Norm)
 *         .def(refl::init<int64_t, int64_t>());
 *   }
 *
 * Each field, method and global function carries the metadata JSON
 * {"type_schema":"<schema as a JSON string>", <Metadata entries>...}; its
 * docstring (a string literal argument) goes to the record's doc. Arguments
 * that are neither traits (classes derived from InfoTrait) nor string
 * literals are ignored.
 */
#ifndef TVM_FFI_REFLECTION_REGISTRY_H_
#define TVM_FFI_REFLECTION_REGISTRY_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/base.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/creator.h>
#include <tvm/ffi/reflection/native_function.h>
#include <tvm/ffi/reflection/overload_cast.h>
#include <tvm/ffi/reflection/type_attr.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace reflection {

/*! \brief Base of every extra registration argument that changes the registered info. */
struct InfoTrait {};

/*! \brief A field record under construction: the C struct plus pending metadata entries. */
struct FieldInfoBuilder : public TVMFFIFieldInfo {
  std::vector<std::pair<String, Any>> metadata_;
  /*! \brief Owns the value default_value_or_factory views. */
  Any default_value_holder_;
};

/*! \brief A method record under construction: the C struct plus pending metadata entries. */
struct MethodInfoBuilder : public TVMFFIMethodInfo {
  std::vector<std::pair<String, Any>> metadata_;
};

/*!
 * \brief User metadata entries appended after "type_schema": values may be
 *  int, bool or string.
 */
class Metadata : public InfoTrait {
 public:
  Metadata(std::initializer_list<std::pair<String, Any>> entries) : entries_(entries) {}

  void Apply(FieldInfoBuilder* info) const { Append(&info->metadata_); }
  void Apply(MethodInfoBuilder* info) const { Append(&info->metadata_); }
  const std::vector<std::pair<String, Any>>& entries() const { return entries_; }

 private:
  void Append(std::vector<std::pair<String, Any>>* out) const {
    out->insert(out->end(), entries_.begin(), entries_.end());
  }
  std::vector<std::pair<String, Any>> entries_;
};

/*! \brief The field's default value (sets kTVMFFIFieldFlagBitMaskHasDefault). */
class DefaultValue : public InfoTrait {
 public:
  explicit DefaultValue(Any value) : value_(std::move(value)) {}
  void Apply(FieldInfoBuilder* info) const {
    info->flags |= kTVMFFIFieldFlagBitMaskHasDefault;
    info->flags &= ~static_cast<int64_t>(kTVMFFIFieldFlagBitMaskDefaultFromFactory);
    info->default_value_holder_ = value_;
  }

 private:
  Any value_;
};
/*! \brief Alias of DefaultValue. */
using default_value = DefaultValue;

/*! \brief A nullary Function making the field's default for each new object. */
class DefaultFactory : public InfoTrait {
 public:
  explicit DefaultFactory(Function factory) : factory_(std::move(factory)) {}
  void Apply(FieldInfoBuilder* info) const {
    info->flags |= kTVMFFIFieldFlagBitMaskHasDefault | kTVMFFIFieldFlagBitMaskDefaultFromFactory;
    info->default_value_holder_ = factory_;
  }

 private:
  Function factory_;
};
/*! \brief Alias of DefaultFactory. */
using default_factory = DefaultFactory;

/*! \brief ORs a flag into the field's flags. */
class AttachFieldFlag : public InfoTrait {
 public:
  explicit AttachFieldFlag(int32_t flag) : flag_(flag) {}
  /*! \brief The field opens a pattern definition region for structural equality. */
  static AttachFieldFlag SEqHashDefPattern() {
    return AttachFieldFlag(kTVMFFIFieldFlagBitMaskSEqHashDefPattern);
  }
  /*! \brief The field opens a simple definition region (only the variable itself is defined). */
  static AttachFieldFlag SEqHashDefSimple() {
    return AttachFieldFlag(kTVMFFIFieldFlagBitMaskSEqHashDefSimple);
  }
  /*! \brief The field is skipped by structural equality, hashing, visiting and mutation. */
  static AttachFieldFlag SEqHashIgnore() {
    return AttachFieldFlag(kTVMFFIFieldFlagBitMaskSEqHashIgnore);
  }
  void Apply(FieldInfoBuilder* info) const { info->flags |= flag_; }

 private:
  int32_t flag_;
};

namespace trait_detail {
/*! \brief A trait that sets `flag` when its bool equals `set_when`. */
template <int32_t flag, bool set_when>
class BoolFieldFlag : public InfoTrait {
 public:
  explicit BoolFieldFlag(bool value) : value_(value) {}
  void Apply(FieldInfoBuilder* info) const {
    if (value_ == set_when) info->flags |= flag;
  }

 private:
  bool value_;
};
}  // namespace trait_detail

/*! \brief repr(false): the field is hidden from ReprPrint. */
class repr : public trait_detail::BoolFieldFlag<kTVMFFIFieldFlagBitMaskReprOff, false> {
 public:
  explicit repr(bool value) : BoolFieldFlag(value) {}
};
/*! \brief compare(false): the field is skipped by recursive comparison and hashing. */
class compare : public trait_detail::BoolFieldFlag<kTVMFFIFieldFlagBitMaskCompareOff, false> {
 public:
  explicit compare(bool value) : BoolFieldFlag(value) {}
};
/*! \brief hash(false): the field is skipped by recursive hashing. */
class hash : public trait_detail::BoolFieldFlag<kTVMFFIFieldFlagBitMaskHashOff, false> {
 public:
  explicit hash(bool value) : BoolFieldFlag(value) {}
};
/*! \brief kw_only(true): the field is keyword-only in the generated __ffi_init__. */
class kw_only : public trait_detail::BoolFieldFlag<kTVMFFIFieldFlagBitMaskKwOnly, true> {
 public:
  explicit kw_only(bool value) : BoolFieldFlag(value) {}
};

/*!
 * \brief Two uses: `def(init<Args...>())` registers the constructor
 *  make_object<Class>(Args...) as __ffi_init__; `init(false)` (an init<>) as a
 *  field trait leaves the field out of the generated __ffi_init__, and as an
 *  ObjectDef argument suppresses the generated __ffi_init__.
 */
template <typename... Args>
class init : public InfoTrait {
 public:
  init() = default;
  explicit init(bool value) : value_(value) {}
  void Apply(FieldInfoBuilder* info) const {
    if (!value_) info->flags |= kTVMFFIFieldFlagBitMaskInitOff;
  }
  bool value() const { return value_; }

 private:
  bool value_ = true;
};
init(bool) -> init<>;

}  // namespace reflection

namespace detail {

/*! \brief Whether T has Apply(Builder*) (a trait that applies to that record). */
template <typename T, typename Builder, typename = void>
struct TraitAppliesTo : std::false_type {};
template <typename T, typename Builder>
struct TraitAppliesTo<
    T, Builder,
    std::void_t<decltype(std::declval<const T&>().Apply(static_cast<Builder*>(nullptr)))>>
    : std::true_type {};

/*! \brief Whether an argument is a docstring: a char array (a literal), not a pointer. */
template <typename Extra>
constexpr bool kIsDocArg =
    std::is_array_v<std::remove_reference_t<Extra>> &&
    std::is_same_v<std::remove_cv_t<std::remove_extent_t<std::remove_reference_t<Extra>>>, char>;

/*! \brief Apply one extra registration argument to a field/method record. */
template <typename Builder, typename Extra>
inline void ApplyExtraInfoTrait(Builder* info, Extra&& extra) {
  using T = std::remove_cv_t<std::remove_reference_t<Extra>>;
  if constexpr (kIsDocArg<Extra>) {
    info->doc = TVMFFIByteArray{extra, std::strlen(extra)};
  } else if constexpr (std::is_base_of_v<reflection::InfoTrait, T>) {
    if constexpr (TraitAppliesTo<T, Builder>::value) extra.Apply(info);
  }
}

/*!
 * \brief {"type_schema":"<schema>",<entries>...}: compact JSON, keys written
 *  as given, values int, bool or string (TypeError otherwise).
 */
inline std::string MakeReflectionMetadata(const std::string& type_schema,
                                          const std::vector<std::pair<String, Any>>& entries) {
  std::string out = "{\"type_schema\":\"" + JsonEscape(type_schema) + "\"";
  for (const auto& kv : entries) {
    std::string key(kv.first.data(), kv.first.size());
    const Any& value = kv.second;
    out += ",\"" + key + "\":";
    switch (value.type_index()) {
      case kTVMFFIBool:
        out += value.cast<bool>() ? "true" : "false";
        break;
      case kTVMFFIInt:
        out += std::to_string(value.cast<int64_t>());
        break;
      case kTVMFFISmallStr:
      case kTVMFFIStr: {
        String s = value.cast<String>();
        out += "\"" + JsonEscape(std::string_view(s.data(), s.size())) + "\"";
        break;
      }
      default:
        TVM_FFI_THROW(TypeError) << "Metadata can be only int, bool or string, but on key `" << key
                                 << "`, the type is " << value.GetTypeKey();
    }
  }
  out += "}";
  return out;
}

/*!
 * \brief The callable registered for a method: member-function pointers become
 *  functions taking the object first (`const C*` for Object subclasses, the
 *  reference itself for ObjectRef subclasses); anything else is kept.
 */
template <typename C, typename R, typename... Args>
inline auto WrapMemberFunction(R (C::*fn)(Args...) const) {
  if constexpr (std::is_base_of_v<ObjectRef, C>) {
    return
        [fn](const C& self, Args... args) -> R { return (self.*fn)(std::forward<Args>(args)...); };
  } else {
    return
        [fn](const C* self, Args... args) -> R { return (self->*fn)(std::forward<Args>(args)...); };
  }
}
template <typename C, typename R, typename... Args>
inline auto WrapMemberFunction(R (C::*fn)(Args...)) {
  if constexpr (std::is_base_of_v<ObjectRef, C>) {
    return [fn](C self, Args... args) -> R { return (self.*fn)(std::forward<Args>(args)...); };
  } else {
    // The object is passed as a const pointer (readable whatever _type_mutable says).
    return [fn](const C* self, Args... args) -> R {
      return (const_cast<C*>(self)->*fn)(std::forward<Args>(args)...);
    };
  }
}
template <typename C, typename R, typename... Args>
inline auto WrapMemberFunction(R (C::*fn)(Args...) const noexcept) {
  return WrapMemberFunction(reinterpret_cast<R (C::*)(Args...) const>(fn));
}
template <typename C, typename R, typename... Args>
inline auto WrapMemberFunction(R (C::*fn)(Args...) noexcept) {
  return WrapMemberFunction(reinterpret_cast<R (C::*)(Args...)>(fn));
}

template <typename Func>
inline auto WrapMethodCallable(Func&& func) {
  using F = std::decay_t<Func>;
  if constexpr (std::is_member_function_pointer_v<F>) {
    return WrapMemberFunction(func);
  } else {
    return F(std::forward<Func>(func));
  }
}

template <typename T>
struct IsReflectionTemplate : std::false_type {};
template <typename T, typename E>
struct IsReflectionTemplate<Optional<T, E>> : std::true_type {};
template <typename... Ts>
struct IsReflectionTemplate<Variant<Ts...>> : std::true_type {};

template <typename T>
struct IsTypedFunctionLike : std::false_type {};
template <typename F>
struct IsTypedFunctionLike<TypedFunction<F>> : std::true_type {};
template <typename F>
struct IsTypedFunctionLike<std::function<F>> : std::true_type {};

template <typename T>
struct IsStdSequence : std::false_type {};
template <typename T, typename A>
struct IsStdSequence<std::vector<T, A>> : std::true_type {};

template <typename T>
struct IsStdMap : std::false_type {};
template <typename K, typename V, typename C, typename A>
struct IsStdMap<std::map<K, V, C, A>> : std::true_type {};
template <typename K, typename V, typename H, typename E, typename A>
struct IsStdMap<std::unordered_map<K, V, H, E, A>> : std::true_type {};

template <typename T>
struct IsObjectPtrLike : std::false_type {};
template <typename T>
struct IsObjectPtrLike<ObjectPtr<T>> : std::true_type {};
template <typename T>
struct IsObjectPtrLike<Arc<T>> : std::true_type {};

/*!
 * \brief The field_static_type_index recorded for a member of type T: the POD
 *  kind, 71 for Array/std::vector, 75 for List, 69 for Shape, 68 for typed
 *  functions, 72 for std::map/std::unordered_map, 64 for any other object
 *  reference, -1 (Any) for Any, strings, Optional, Variant and the rest.
 *  Serialization decides from it whether a field is stored inline.
 */
template <typename T>
inline int32_t ReflectionFieldStaticTypeIndex() {
  if constexpr (std::is_same_v<T, Any> || std::is_same_v<T, String> || std::is_same_v<T, Bytes> ||
                IsReflectionTemplate<T>::value) {
    return kTVMFFIAny;
  } else if constexpr (IsTypedFunctionLike<T>::value) {
    return kTVMFFIFunction;
  } else if constexpr (IsStdSequence<T>::value) {
    return kTVMFFIArray;
  } else if constexpr (IsStdMap<T>::value) {
    return kTVMFFIMap;
  } else if constexpr (IsObjectPtrLike<T>::value) {
    return kTVMFFIObject;
  } else if constexpr (std::is_same_v<T, DLDataType>) {
    return kTVMFFIDataType;
  } else if constexpr (std::is_same_v<T, TVMFFIByteArray*> ||
                       std::is_same_v<T, const TVMFFIByteArray*>) {
    return kTVMFFIByteArrayPtr;
  } else if constexpr (std::is_base_of_v<ObjectRef, T>) {
    int32_t index = T::ContainerType::RuntimeTypeIndex();
    if (index == kTVMFFIArray || index == kTVMFFIList || index == kTVMFFIShape) return index;
    if (index == kTVMFFIStr || index == kTVMFFIBytes) return kTVMFFIAny;
    return kTVMFFIObject;
  } else {
    return TypeToFieldStaticTypeIndex<T>::value;
  }
}

/*! \brief The getter registered for a field of type T. */
template <typename T>
int ReflectionFieldGetter(void* field, TVMFFIAny* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  *result = AnyUnsafe::MoveAnyToTVMFFIAny(Any(*static_cast<const T*>(field)));
  TVM_FFI_SAFE_CALL_END();
}

/*! \brief The setter registered for a field of type T: converts with T's rules. */
template <typename T>
int ReflectionFieldSetter(void* field, const TVMFFIAny* value) {
  TVM_FFI_SAFE_CALL_BEGIN();
  using U = std::remove_const_t<T>;
  U* target = const_cast<U*>(static_cast<const U*>(field));
  if constexpr (std::is_same_v<U, Any>) {
    *target = AnyView::CopyFromTVMFFIAny(*value);
  } else {
    AnyView view = AnyView::CopyFromTVMFFIAny(*value);
    std::optional<U> converted = view.try_cast<U>();
    if (!converted.has_value()) {
      TVM_FFI_THROW(TypeError) << "Cannot convert from type `" << view.GetTypeKey() << "` to `"
                               << TypeTraits<U>::TypeStr() << "`";
    }
    *target = std::move(*converted);
  }
  TVM_FFI_SAFE_CALL_END();
}

/*! \brief The metadata creator of Class: default or UnsafeInit construction. */
template <typename Class>
int ReflectionObjectCreator(TVMFFIObjectHandle* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  ObjectPtr<Class> obj;
  if constexpr (std::is_default_constructible_v<Class>) {
    obj = make_object<Class>();
  } else {
    obj = make_object<Class>(UnsafeInit{});
  }
  *result = ObjectUnsafe::MoveObjectPtrToHandle(std::move(obj));
  TVM_FFI_SAFE_CALL_END();
}

/*! \brief Whether ObjectDef can install a creator for Class. */
template <typename Class>
constexpr bool kHasReflectionCreator =
    std::is_default_constructible_v<Class> || std::is_constructible_v<Class, UnsafeInit>;

/*!
 * \brief Register the attribute `name` of a type: a value, or a callable (a member function
 *  included) wrapped as Function.
 */
template <typename T>
inline void RegisterTypeAttrValue(int32_t type_index, std::string_view type_key,
                                  std::string_view name, T&& value) {
  using U = std::remove_cv_t<std::remove_reference_t<T>>;
  TVMFFIByteArray name_bytes{name.data(), name.size()};
  if constexpr (std::is_same_v<U, Any> || std::is_same_v<U, AnyView> || kCanStoreInAny<U>) {
    AnyView view(value);
    TVM_FFI_CHECK_SAFE_CALL(
        TVMFFITypeRegisterAttr(type_index, &name_bytes, AnyUnsafe::GetTVMFFIAny(view)));
  } else {
    // A member function becomes a function of (self, args...), as ObjectDef::def makes it.
    Function f = Function::FromTyped(WrapMethodCallable(std::forward<T>(value)),
                                     std::string(type_key) + "." + std::string(name));
    AnyView view(f);
    TVM_FFI_CHECK_SAFE_CALL(
        TVMFFITypeRegisterAttr(type_index, &name_bytes, AnyUnsafe::GetTVMFFIAny(view)));
  }
}

/*! \brief The __ffi_convert__ Function of TSelf. */
template <typename TSelf>
inline Function MakeConvertFunction(std::string name) {
  return Function::FromTyped(
      [](AnyView value) -> Any { return FFIConvertFromAnyViewToObjectRef<TSelf>(value); },
      std::move(name));
}

}  // namespace detail

namespace reflection {

/*! \brief Chainable registration of global functions. */
class GlobalDef {
 public:
  /*! \param allow_override Replace existing registrations instead of raising. */
  explicit GlobalDef(bool allow_override = false) : allow_override_(allow_override) {}

  /*! \brief Register a typed callable (lambda, function pointer, functor) as name. */
  template <typename TCallable, typename... Extra>
  GlobalDef& def(std::string_view name, TCallable&& callable, Extra&&... extra) {
    using F = std::decay_t<TCallable>;
    std::string schema = ffi::detail::FuncSignature<F>::Schema();
    Function f = Function::FromTyped(F(std::forward<TCallable>(callable)), std::string(name));
    Register(name, f, schema, std::forward<Extra>(extra)...);
    return *this;
  }

  /*! \brief Register a packed callable void(const AnyView*, int32_t, Any*) as name. */
  template <typename TCallable, typename... Extra>
  GlobalDef& def_packed(std::string_view name, TCallable&& callable, Extra&&... extra) {
    Function f = Function::FromPacked(std::forward<TCallable>(callable));
    Register(name, f, "{\"type\":\"ffi.Function\"}", std::forward<Extra>(extra)...);
    return *this;
  }

  /*!
   * \brief Like def, but a member-function pointer becomes a function whose
   *  first argument is the object.
   */
  template <typename TCallable, typename... Extra>
  GlobalDef& def_method(std::string_view name, TCallable&& callable, Extra&&... extra) {
    return def(name, ffi::detail::WrapMethodCallable(std::forward<TCallable>(callable)),
               std::forward<Extra>(extra)...);
  }

  /*! \brief Register an existing Function (e.g. a TypedFunction's) as name. */
  template <typename... Extra>
  GlobalDef& def_function(std::string_view name, const Function& f, Extra&&... extra) {
    Register(name, f, "{\"type\":\"ffi.Function\"}", std::forward<Extra>(extra)...);
    return *this;
  }

 private:
  template <typename... Extra>
  void Register(std::string_view name, const Function& f, const std::string& schema,
                Extra&&... extra) {
    MethodInfoBuilder info;
    info.name = TVMFFIByteArray{name.data(), name.size()};
    info.doc = TVMFFIByteArray{nullptr, 0};
    info.flags = 0;
    (ffi::detail::ApplyExtraInfoTrait(&info, std::forward<Extra>(extra)), ...);
    std::string metadata = ffi::detail::MakeReflectionMetadata(schema, info.metadata_);
    info.metadata = TVMFFIByteArray{metadata.data(), metadata.size()};
    TypeTraits<Function>::CopyToAnyView(f, &info.method);
    TVM_FFI_CHECK_SAFE_CALL(TVMFFIFunctionSetGlobalFromMethodInfo(&info, allow_override_ ? 1 : 0));
  }

  bool allow_override_;
};

/*!
 * \brief Registers the reflection records of the object type Class: metadata
 *  (at construction), fields, methods, constructors and type attributes, and
 *  (at destruction) the standard attributes __ffi_shallow_copy__,
 *  __ffi_new__, the generated __ffi_init__ and __ffi_type_final__. Use as a
 *  temporary in a static initialisation block; at most one per type.
 */
template <typename Class>
class ObjectDef {
 public:
  /*!
   * \param extra a string literal (the type's doc) and/or init(false) (no
   *  generated __ffi_init__); anything else is ignored.
   */
  template <typename... Extra>
  explicit ObjectDef(Extra&&... extra)
      : type_index_(Class::_GetOrAllocRuntimeTypeIndex()), type_key_(Class::_type_key) {
    static_assert(std::is_base_of_v<Object, Class>, "ObjectDef: Class must derive from Object");
    TVMFFIByteArray doc{nullptr, 0};
    (ApplyTypeExtra(&doc, std::forward<Extra>(extra)), ...);
    TVMFFITypeMetadata metadata;
    metadata.doc = doc;
    metadata.creator = nullptr;
    if constexpr (ffi::detail::kHasReflectionCreator<Class>) {
      metadata.creator = ffi::detail::ReflectionObjectCreator<Class>;
    }
    metadata.total_size = static_cast<int32_t>(sizeof(Class));
    metadata.structural_eq_hash_kind = Class::_type_s_eq_hash_kind;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterMetadata(type_index_, &metadata));
  }
  ObjectDef(const ObjectDef&) = delete;
  ObjectDef& operator=(const ObjectDef&) = delete;
  ObjectDef(ObjectDef&&) = delete;
  ObjectDef& operator=(ObjectDef&&) = delete;

  ~ObjectDef() noexcept(false) {
    if constexpr (std::is_copy_constructible_v<Class>) {
      ffi::detail::RegisterTypeAttrValue(
          type_index_, type_key_, type_attr::kShallowCopy.name,
          Function::FromTyped(
              [](const Class* self) -> ObjectRef { return ObjectRef(make_object<Class>(*self)); },
              std::string(type_key_) + "." + type_attr::kShallowCopy.name));
    }
    if constexpr (ffi::detail::kHasReflectionCreator<Class>) {
      ffi::detail::RegisterTypeAttrValue(
          type_index_, type_key_, type_attr::kNew.name,
          Function::FromTyped(
              []() -> ObjectRef {
                TVMFFIObjectHandle handle = nullptr;
                TVM_FFI_CHECK_SAFE_CALL(ffi::detail::ReflectionObjectCreator<Class>(&handle));
                return ObjectRef(ffi::detail::ObjectUnsafe::ObjectPtrFromOwned<Object>(
                    static_cast<TVMFFIObject*>(handle)));
              },
              std::string(type_key_) + "." + type_attr::kNew.name));
      if (auto_init_ && !has_explicit_init_) {
        if (std::optional<Function> register_init = Function::GetGlobal("ffi._RegisterFFIInit")) {
          (*register_init)(type_index_);
        }
      }
    }
    ffi::detail::RegisterTypeAttrValue(type_index_, type_key_, type_attr::kTypeFinal.name,
                                       static_cast<bool>(Class::_type_final));
  }

  /*! \brief A read-only field (member of Class or of one of its bases). */
  template <typename T, typename BaseClass, typename... Extra>
  ObjectDef& def_ro(const char* name, T BaseClass::* field_ptr, Extra&&... extra) {
    RegisterField(name, field_ptr, false, std::forward<Extra>(extra)...);
    return *this;
  }

  /*! \brief A writable field; Class must declare _type_mutable = true. */
  template <typename T, typename BaseClass, typename... Extra>
  ObjectDef& def_rw(const char* name, T BaseClass::* field_ptr, Extra&&... extra) {
    static_assert(Class::_type_mutable, "def_rw requires the class to set _type_mutable = true");
    RegisterField(name, field_ptr, true, std::forward<Extra>(extra)...);
    return *this;
  }

  /*!
   * \brief An instance method: a member-function pointer, or a callable whose
   *  first parameter is the object (`const Class*` or a reference class).
   */
  template <typename Func, typename... Extra>
  ObjectDef& def(const char* name, Func&& func, Extra&&... extra) {
    RegisterMethod(name, false, ffi::detail::WrapMethodCallable(std::forward<Func>(func)),
                   std::forward<Extra>(extra)...);
    return *this;
  }

  /*! \brief A static method (no object parameter). */
  template <typename Func, typename... Extra>
  ObjectDef& def_static(const char* name, Func&& func, Extra&&... extra) {
    RegisterMethod(name, true, std::forward<Func>(func), std::forward<Extra>(extra)...);
    return *this;
  }

  /*!
   * \brief The constructor make_object<Class>(Args...) as the static method
   *  __ffi_init__ and the __ffi_init__ attribute (no __ffi_init__ is generated then).
   */
  template <typename... Args, typename... Extra>
  ObjectDef& def(init<Args...>, Extra&&... extra) {
    auto ctor = [](Args... args) -> ObjectRef {
      return ObjectRef(make_object<Class>(std::forward<Args>(args)...));
    };
    Function f =
        RegisterMethod(type_attr::kInit.name, true, std::move(ctor), std::forward<Extra>(extra)...);
    ffi::detail::RegisterTypeAttrValue(type_index_, type_key_, type_attr::kInit.name, f);
    has_explicit_init_ = true;
    return *this;
  }

  /*! \brief A type attribute: a value as is, a callable wrapped as Function "<key>.<name>". */
  template <typename T>
  ObjectDef& def_type_attr(const char* name, T&& value) {
    ffi::detail::RegisterTypeAttrValue(type_index_, type_key_, name, std::forward<T>(value));
    return *this;
  }

  /*! \brief __ffi_convert__: accepts exactly TSelf values (TypeError otherwise). */
  template <typename TSelf>
  ObjectDef& def_convert() {
    static_assert(std::is_same_v<typename TSelf::ContainerType, Class>,
                  "def_convert: TSelf::ContainerType must be the registered class");
    ffi::detail::RegisterTypeAttrValue(
        type_index_, type_key_, type_attr::kConvert.name,
        ffi::detail::MakeConvertFunction<TSelf>(std::string(type_key_) + "." +
                                                type_attr::kConvert.name));
    return *this;
  }

 protected:
  // Protected for OverloadObjectDef (reflection/overload.h), which shares these records.
  template <typename Extra>
  void ApplyTypeExtra(TVMFFIByteArray* doc, Extra&& extra) {
    using T = std::remove_cv_t<std::remove_reference_t<Extra>>;
    if constexpr (ffi::detail::kIsDocArg<Extra>) {
      *doc = TVMFFIByteArray{extra, std::strlen(extra)};
    } else if constexpr (std::is_same_v<T, init<>>) {
      if (!extra.value()) auto_init_ = false;
    }
  }

  template <typename T, typename BaseClass, typename... Extra>
  void RegisterField(const char* name, T BaseClass::* field_ptr, bool writable, Extra&&... extra) {
    static_assert(std::is_base_of_v<BaseClass, Class>,
                  "ObjectDef: the field must be a member of the class or of one of its bases");
    using FieldType = std::remove_const_t<T>;
    T Class::* class_field_ptr = field_ptr;
    FieldInfoBuilder info;
    info.name = TVMFFIByteArray{name, std::strlen(name)};
    info.doc = TVMFFIByteArray{nullptr, 0};
    info.flags = writable ? kTVMFFIFieldFlagBitMaskWritable : 0;
    info.size = static_cast<int64_t>(sizeof(T));
    info.alignment = static_cast<int64_t>(alignof(T));
    info.offset = GetFieldByteOffsetToObject<Class>(class_field_ptr);
    info.getter = ffi::detail::ReflectionFieldGetter<FieldType>;
    info.setter = reinterpret_cast<void*>(ffi::detail::ReflectionFieldSetter<FieldType>);
    info.field_static_type_index = ffi::detail::ReflectionFieldStaticTypeIndex<FieldType>();
    (ffi::detail::ApplyExtraInfoTrait(&info, std::forward<Extra>(extra)), ...);
    info.default_value_or_factory =
        *ffi::detail::AnyUnsafe::GetTVMFFIAny(info.default_value_holder_);
    std::string metadata = ffi::detail::MakeReflectionMetadata(
        ffi::detail::TypeSchema<FieldType>::v(), info.metadata_);
    info.metadata = TVMFFIByteArray{metadata.data(), metadata.size()};
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterField(type_index_, &info));
  }

  template <typename Func, typename... Extra>
  Function RegisterMethod(const char* name, bool is_static, Func&& func, Extra&&... extra) {
    using F = std::decay_t<Func>;
    std::string schema = ffi::detail::FuncSignature<F>::Schema();
    Function f = Function::FromTyped(F(std::forward<Func>(func)),
                                     std::string(type_key_) + "." + std::string(name));
    MethodInfoBuilder info;
    info.name = TVMFFIByteArray{name, std::strlen(name)};
    info.doc = TVMFFIByteArray{nullptr, 0};
    info.flags = is_static ? kTVMFFIFieldFlagBitMaskIsStaticMethod : 0;
    (ffi::detail::ApplyExtraInfoTrait(&info, std::forward<Extra>(extra)), ...);
    std::string metadata = ffi::detail::MakeReflectionMetadata(schema, info.metadata_);
    info.metadata = TVMFFIByteArray{metadata.data(), metadata.size()};
    TypeTraits<Function>::CopyToAnyView(f, &info.method);
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterMethod(type_index_, &info));
    return f;
  }

  int32_t type_index_;
  const char* type_key_;
  bool has_explicit_init_ = false;
  bool auto_init_ = true;
};

/*!
 * \brief Registers type attributes of Class without the other records (no
 *  metadata, so it may be used alongside an ObjectDef or for built-in types).
 */
template <typename Class>
class TypeAttrDef {
 public:
  TypeAttrDef() : type_index_(Class::_GetOrAllocRuntimeTypeIndex()), type_key_(Class::_type_key) {
    static_assert(std::is_base_of_v<Object, Class>, "TypeAttrDef: Class must derive from Object");
  }

  /*! \brief A value as is, a callable wrapped as Function "<key>.<name>". */
  template <typename T>
  TypeAttrDef& def(const char* name, T&& value) {
    ffi::detail::RegisterTypeAttrValue(type_index_, type_key_, name, std::forward<T>(value));
    return *this;
  }

  /*! \brief __ffi_convert__: accepts exactly TSelf values (TypeError otherwise). */
  template <typename TSelf>
  TypeAttrDef& def_convert() {
    static_assert(std::is_same_v<typename TSelf::ContainerType, Class>,
                  "def_convert: TSelf::ContainerType must be the registered class");
    ffi::detail::RegisterTypeAttrValue(
        type_index_, type_key_, type_attr::kConvert.name,
        ffi::detail::MakeConvertFunction<TSelf>(std::string(type_key_) + "." +
                                                type_attr::kConvert.name));
    return *this;
  }

  /*! \brief The value converted to the key's type T first. */
  template <typename T, typename V>
  TypeAttrDef& attr(const AttrKey<T>& key, V&& value) {
    if constexpr (std::is_same_v<T, Any> || std::is_same_v<T, AnyView>) {
      ffi::detail::RegisterTypeAttrValue(type_index_, type_key_, key.name, Any(value));
    } else {
      ffi::detail::RegisterTypeAttrValue(type_index_, type_key_, key.name,
                                         T(std::forward<V>(value)));
    }
    return *this;
  }

  /*! \brief Same as def(name, value). */
  template <typename V>
  TypeAttrDef& attr(const char* name, V&& value) {
    return def(name, std::forward<V>(value));
  }

  /*! \brief The native adapter of Fn as the hook key.name (reflection/native_function.h). */
  template <auto Fn, typename FType>
  TypeAttrDef& native_fn_attr(const AttrKey<NativeFunctionView<FType>>& key) {
    ffi::detail::RegisterTypeAttrValue(type_index_, type_key_, key.name,
                                       NativeFunctionView<FType>::template FromNative<Fn>());
    return *this;
  }

 private:
  int32_t type_index_;
  const char* type_key_;
};

}  // namespace reflection
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_REFLECTION_REGISTRY_H_
