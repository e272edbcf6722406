/*
 * GetRef and GetObjectPtr: new owning handles to an object known by a raw pointer.
 *
 *   const MyObj* p = ref.get();
 *   MyRef again = GetRef<MyRef>(p);                  // a new reference
 *   Optional<MyRef> maybe = GetRef<Optional<MyRef>>(nullable_ptr);
 *   ObjectPtr<Object> q = GetObjectPtr<Object>(p);
 */
#ifndef TVM_FFI_CAST_H_
#define TVM_FFI_CAST_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>

#include <type_traits>

TVM_FFI_NAMESPACE_BEGIN

/*!
 * \brief A new reference of type RefType to an existing object. RefType may
 *  be Optional<R> (a null pointer gives an empty Optional). A null pointer
 *  gives a null RefType when RefType is nullable, else InternalError.
 */
template <typename RefType, typename ObjType>
inline RefType GetRef(const ObjType* ptr) {
  if constexpr (is_optional_type_v<RefType>) {
    using Ref = typename RefType::value_type;
    if (ptr == nullptr) return RefType();
    return RefType(GetRef<Ref>(ptr));
  } else {
    // A typed container's objects are only checked at run time, so containment is either
    // declared (object_ref_contains_v) or the object is of the container's class.
    static_assert(object_ref_contains_v<RefType, ObjType> ||
                      std::is_base_of_v<typename RefType::ContainerType, ObjType>,
                  "GetRef: the reference type cannot hold this object type");
    if (ptr == nullptr) {
      if constexpr (!RefType::_type_is_nullable) {
        TVM_FFI_THROW(InternalError) << "Check not null: ptr";
      }
    }
    return detail::ObjectUnsafe::ObjectRefFromObjectPtr<RefType>(
        detail::ObjectUnsafe::ObjectPtrFromUnowned<Object>(
            const_cast<Object*>(static_cast<const Object*>(ptr))));
  }
}

/*! \brief A new strong pointer of type ObjectPtr<BaseType> to an existing object. */
template <typename BaseType, typename ObjType>
inline ObjectPtr<BaseType> GetObjectPtr(ObjType* ptr) {
  static_assert(std::is_base_of_v<BaseType, ObjType>,
                "GetObjectPtr: BaseType must be a base class of the object type");
  return detail::ObjectUnsafe::ObjectPtrFromUnowned<BaseType>(
      const_cast<Object*>(static_cast<const Object*>(ptr)));
}

TVM_FFI_NAMESPACE_END
#endif  // TVM_FFI_CAST_H_
