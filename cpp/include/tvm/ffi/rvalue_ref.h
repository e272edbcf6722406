/*
 * RValueRef<R>: hand a reference to a callee that may take it over.
 *
 * Passed as an argument, an RValueRef is the ObjectRValueRef view (type index
 * 10) of the caller's reference slot. A callee parameter of type RValueRef<R>
 * then steals the reference when the object is an R (the caller's slot becomes
 * null, so the callee holds the only reference and can mutate in place);
 * otherwise it receives a converted copy.
 *
 *   Function f = Function::FromTyped([](RValueRef<Array<int>> ref) {
 *     Array<int> arr = *std::move(ref);   // unique when the caller gave it up
 *     ...
 *   });
 *   f(RValueRef<Array<int>>(std::move(arr)));   // arr is null afterwards
 */
#ifndef TVM_FFI_RVALUE_REF_H_
#define TVM_FFI_RVALUE_REF_H_

#include <tvm/ffi/object.h>
#include <tvm/ffi/type_traits.h>

#include <optional>
#include <string>
#include <type_traits>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN

/*! \brief A reference of type TObjRef offered to be moved into a callee. */
template <typename TObjRef>
class RValueRef {
  static_assert(std::is_base_of_v<ObjectRef, TObjRef>, "RValueRef<R>: R must be an ObjectRef");

 public:
  using ContainerType = typename TObjRef::ContainerType;

  /*! \brief Take the reference from data. */
  explicit RValueRef(TObjRef&& data) : data_(std::move(data)) {}
  /*! \return The reference, moved out (this becomes null). */
  TObjRef operator*() && { return std::move(data_); }

 private:
  TObjRef data_;
  template <typename, typename>
  friend struct TypeTraits;
};

template <typename TObjRef>
inline constexpr bool use_default_type_traits_v<RValueRef<TObjRef>> = false;

/*!
 * \brief An RValueRef is only a function argument: passed as an ObjectRValueRef
 *  view of its slot; read by stealing a matching object or converting a copy.
 */
template <typename TObjRef>
struct TypeTraits<RValueRef<TObjRef>> : TypeTraitsBase {
  static constexpr bool storage_enabled = false;

  static void CopyToAnyView(const RValueRef<TObjRef>& src, TVMFFIAny* r) {
    r->type_index = kTVMFFIObjectRValueRef;
    r->zero_padding = 0;
    r->v_int64 = 0;
    r->v_ptr = &detail::ObjectUnsafe::GetObjectPtrMutable(
        const_cast<ObjectRef&>(static_cast<const ObjectRef&>(src.data_)));
  }
  static void MoveToAny(RValueRef<TObjRef> src, TVMFFIAny* r) {
    if (!src.data_.defined()) {
      TVM_FFI_THROW(InternalError) << "RValueRef already moved";
    }
    TypeTraits<TObjRef>::MoveToAny(std::move(src.data_), r);
  }
  // Never stored, so nothing passes the strict check: reading goes through TryCastFromAnyView.
  static bool CheckAnyStrict(const TVMFFIAny*) { return false; }
  static RValueRef<TObjRef> CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return *TryCastFromAnyView(src);
  }
  static RValueRef<TObjRef> MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return *TryCastFromAnyView(src);
  }
  static std::optional<RValueRef<TObjRef>> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index != kTVMFFIObjectRValueRef) {
      std::optional<TObjRef> copy = TypeTraits<TObjRef>::TryCastFromAnyView(src);
      if (!copy.has_value()) return std::nullopt;
      return RValueRef<TObjRef>(*std::move(copy));
    }
    TVMFFIObject** slot = static_cast<TVMFFIObject**>(src->v_ptr);
    TVMFFIAny cell = InnerCell(*slot);
    if (TypeTraits<TObjRef>::CheckAnyStrict(&cell)) {
      // Steal the caller's reference: its slot becomes null.
      TVMFFIObject* obj = *slot;
      *slot = nullptr;
      return RValueRef<TObjRef>(detail::ObjectUnsafe::ObjectRefFromObjectPtr<TObjRef>(
          detail::ObjectUnsafe::ObjectPtrFromOwned<Object>(obj)));
    }
    std::optional<TObjRef> copy = TypeTraits<TObjRef>::TryCastFromAnyView(&cell);
    if (!copy.has_value()) return std::nullopt;
    return RValueRef<TObjRef>(*std::move(copy));
  }
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    if (src->type_index != kTVMFFIObjectRValueRef) {
      return TypeTraits<TObjRef>::GetMismatchTypeInfo(src);
    }
    TVMFFIAny cell = InnerCell(*static_cast<TVMFFIObject**>(src->v_ptr));
    return "RValueRef<" + TypeTraits<TObjRef>::GetMismatchTypeInfo(&cell) + ">";
  }
  static std::string TypeStr() { return "RValueRef<" + TypeTraits<TObjRef>::TypeStr() + ">"; }
  static std::string TypeSchema() {
    return detail::SchemaWithArgs("ObjectRValueRef", {TypeTraits<TObjRef>::TypeSchema()});
  }

 private:
  // The object of the caller's slot as an ordinary cell (None when the slot is null).
  static TVMFFIAny InnerCell(TVMFFIObject* obj) {
    TVMFFIAny cell;
    if (obj == nullptr) {
      detail::SetNone(&cell);
    } else {
      cell.type_index = obj->type_index;
      cell.zero_padding = 0;
      cell.v_obj = obj;
    }
    return cell;
  }
};

TVM_FFI_NAMESPACE_END
#endif  // TVM_FFI_RVALUE_REF_H_
