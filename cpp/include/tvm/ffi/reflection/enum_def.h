/*
 * EnumDef<EnumClsObj>: registers the singletons of a C++ enum type.
 *
 *   class OpcodeObj : public StrEnumObj {
 *    public:
 *     TVM_FFI_DECLARE_OBJECT_INFO_FINAL("my.Opcode", OpcodeObj, StrEnumObj);
 *   };
 *   class PriorityObj : public IntEnumObj {
 *    public:
 *     TVM_FFI_DECLARE_OBJECT_INFO_FINAL("my.Priority", PriorityObj, IntEnumObj);
 *   };
 *   TVM_FFI_STATIC_INIT_BLOCK() {
 *     refl::ObjectDef<OpcodeObj>();
 *     refl::EnumDef<OpcodeObj>("+").set_attr("arity", 2);   // int index 0
 *     refl::ObjectDef<PriorityObj>();
 *     refl::EnumDef<PriorityObj>("low", 10);                // IntEnum: explicit int index
 *   }
 *
 * Each entry is appended to the type's EnumState (type attribute
 * `__ffi_enum__`, created on first use) and indexed by its int and str index.
 */
#ifndef TVM_FFI_REFLECTION_ENUM_DEF_H_
#define TVM_FFI_REFLECTION_ENUM_DEF_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/enum.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/reflection/native_function.h>
#include <tvm/ffi/reflection/type_attr.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN
namespace type_attr {
/*! \brief EnumState: the singletons, indexes and attribute tables of an enum type. */
inline constexpr reflection::AttrKey<EnumState> kEnumState{ffi::detail::kEnumStateAttrName};
}  // namespace type_attr

namespace reflection {

/*! \brief Registers one entry of the enum type EnumClsObj (a subclass of EnumObj). */
template <typename EnumClsObj>
class EnumDef {
  static_assert(std::is_base_of_v<EnumObj, EnumClsObj>,
                "EnumDef: EnumClsObj must derive from EnumObj");
  static constexpr bool kIsIntEnum = std::is_base_of_v<IntEnumObj, EnumClsObj>;

 public:
  /*! \brief An entry named `name` whose int index is the number of entries so far. */
  explicit EnumDef(const char* name) {
    static_assert(!kIsIntEnum,
                  "EnumDef: an IntEnum entry needs its int index, EnumDef(name, index)");
    EnumState state = GetOrCreateState();
    Register(state, static_cast<int64_t>(state->entries.size()), String(name));
  }

  /*! \brief An IntEnum entry named `name` with int index (value) `index`. */
  EnumDef(const char* name, int64_t index) {
    static_assert(kIsIntEnum, "EnumDef: only IntEnum entries take an explicit int index");
    Register(GetOrCreateState(), index, String(name));
  }

  /*! \brief Set attribute `name` of this entry: attrs[name][entry] = value. */
  template <typename V>
  EnumDef& set_attr(const char* name, V&& value) {
    SetAttrValue(String(name), Any(std::forward<V>(value)));
    return *this;
  }

  /*! \brief As set_attr(key.name, value), the value converted to the key's type first. */
  template <typename T, typename V>
  EnumDef& set_attr(const AttrKey<T>& key, V&& value) {
    if constexpr (std::is_same_v<T, Any> || std::is_same_v<T, AnyView>) {
      SetAttrValue(String(key.name), Any(value));
    } else {
      SetAttrValue(String(key.name), Any(T(std::forward<V>(value))));
    }
    return *this;
  }

  /*! \brief Store the native adapter of Fn as this entry's attribute key.name. */
  template <auto Fn, typename FType>
  EnumDef& set_native_fn_attr(const AttrKey<NativeFunctionView<FType>>& key) {
    SetAttrValue(String(key.name), Any(NativeFunctionView<FType>::template FromNative<Fn>()));
    return *this;
  }

  /*! \return The registered singleton. */
  const Enum& entry() const { return entry_; }

  /*!
   * \return Whether the enum has an entry named `name`; TypeError when the
   *  type's `__ffi_enum__` attribute is not an EnumState.
   */
  static bool IsDefined(const String& name) {
    std::optional<EnumState> state =
        ffi::detail::GetEnumState(EnumClsObj::_GetOrAllocRuntimeTypeIndex());
    return state.has_value() && (*state)->indexes.count(Any(name)) != 0;
  }

 private:
  static EnumState GetOrCreateState() {
    int32_t type_index = EnumClsObj::_GetOrAllocRuntimeTypeIndex();
    if (std::optional<EnumState> state = ffi::detail::GetEnumState(type_index)) return *state;
    EnumState state;
    TVMFFIByteArray name{type_attr::kEnumState.name,
                         std::char_traits<char>::length(type_attr::kEnumState.name)};
    AnyView view(state);
    TVM_FFI_CHECK_SAFE_CALL(
        TVMFFITypeRegisterAttr(type_index, &name, ffi::detail::AnyUnsafe::GetTVMFFIAny(view)));
    return state;
  }

  static ObjectPtr<EnumObj> MakeSingleton(int64_t int_index, const String& str_index) {
    ObjectPtr<EnumObj> obj;
    if constexpr (std::is_constructible_v<EnumClsObj, int64_t, String>) {
      obj = make_object<EnumClsObj>(int_index, str_index);
    } else if constexpr (std::is_constructible_v<EnumClsObj, UnsafeInit>) {
      obj = make_object<EnumClsObj>(UnsafeInit{});
    } else if constexpr (std::is_default_constructible_v<EnumClsObj>) {
      obj = make_object<EnumClsObj>();
    } else {
      // No usable constructor: the class adds no members, so its base's layout is the class's.
      static_assert(sizeof(EnumClsObj) == sizeof(EnumObj),
                    "EnumDef: give EnumClsObj a constructor (int64_t, String) or (UnsafeInit)");
      obj = make_object<EnumObj>(UnsafeInit{});
    }
    obj->_int_index = int_index;
    obj->_str_index = str_index;
    // The header names the enum class even when a base class was allocated.
    reinterpret_cast<TVMFFIObject*>(static_cast<Object*>(obj.get()))->type_index =
        EnumClsObj::_GetOrAllocRuntimeTypeIndex();
    return obj;
  }

  void Register(const EnumState& state, int64_t int_index, const String& str_index) {
    EnumStateObj* s = const_cast<EnumStateObj*>(state.get());
    if (s->indexes.count(Any(int_index)) != 0 || s->indexes.count(Any(str_index)) != 0) {
      TVM_FFI_THROW(ValueError) << "Duplicate enum index for type `" << EnumClsObj::_type_key
                                << "`";
    }
    entry_ = Enum(MakeSingleton(int_index, str_index));
    s->entries.push_back(entry_);
    s->indexes.Set(Any(int_index), entry_);
    s->indexes.Set(Any(str_index), entry_);
  }

  void SetAttrValue(const String& name, Any value) {
    EnumState state = GetOrCreateState();
    EnumStateObj* s = const_cast<EnumStateObj*>(state.get());
    std::optional<Dict<ObjectRef, Any>> column = s->attrs.Get(name);
    if (!column.has_value()) {
      column = Dict<ObjectRef, Any>();
      s->attrs.Set(name, *column);
    }
    column->Set(entry_, std::move(value));
  }

  Enum entry_{UnsafeInit{}};
};

}  // namespace reflection
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_REFLECTION_ENUM_DEF_H_
