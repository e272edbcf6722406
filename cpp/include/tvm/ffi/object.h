/*
 * The object system: Object, ObjectPtr<T>, Arc<T>, WeakObjectPtr<T>, ObjectRef.
 *
 * Every heap value of tvm-ffi (strings, arrays, functions, user types) is an
 * Object: a class whose first member is the 24-byte TVMFFIObject header of the
 * C ABI (reference counts, type index, deleter). Counting is intrusive and
 * follows abi.md §2.3 exactly, because compiled code of every implementation
 * does it inline.
 *
 * Usage:
 *   class MyObj : public Object {
 *    public:
 *     int64_t value;
 *     TVM_FFI_DECLARE_OBJECT_INFO_FINAL("my.Obj", MyObj, Object);
 *   };
 *   class MyRef : public ObjectRef {
 *    public:
 *     TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(MyRef, ObjectRef, MyObj);
 *   };
 *   Arc<MyObj> p = make_arc<MyObj>();      // memory.h; never null
 *   ObjectPtr<MyObj> q = p;                // nullable
 *   if (ref->IsInstance<MyObj>()) ...      // O(1) over any hierarchy
 */
#ifndef TVM_FFI_OBJECT_H_
#define TVM_FFI_OBJECT_H_

#include <tvm/ffi/base.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN

/*! \brief Tag for the controlled, unchecked construction of non-null handles. */
struct UnsafeInit {};

namespace details {
struct ObjectUnsafe;
/*! \brief Combined count of a fresh object: strong 1, weak 1. */
constexpr uint64_t kCombinedRefCountBothOne = (uint64_t{1} << 32) | uint64_t{1};
constexpr uint64_t kCombinedRefCountWeakOne = uint64_t{1} << 32;
/*!
 * \brief Memory order of reference-count decrements. Release plus an acquire
 *  fence before deletion is enough, but ThreadSanitizer does not model fences
 *  and would report the deletion as a race, so its builds use acq_rel.
 */
#if defined(__SANITIZE_THREAD__)
constexpr int kRefCountReleaseOrder = __ATOMIC_ACQ_REL;
#else
constexpr int kRefCountReleaseOrder = __ATOMIC_RELEASE;
#endif
}  // namespace details

/*! \brief Base class of all heap objects; starts with the C ABI header. */
class Object {
 public:
  Object() {
    header_.combined_ref_count = 0;
    header_.type_index = 0;
    header_.__padding = 0;
    header_.deleter = nullptr;
  }
  // The header belongs to the allocation, never to a value being copied.
  Object(const Object&) : Object() {}
  Object& operator=(const Object&) { return *this; }

  /*! \return The runtime type index. */
  int32_t type_index() const { return header_.type_index; }
  /*! \return The registered type key of the runtime type. */
  std::string GetTypeKey() const {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(header_.type_index);
    return info ? std::string(info->type_key.data, info->type_key.size) : std::string("<unknown>");
  }
  /*! \return Whether this object is an instance of TargetType (or a subclass). */
  template <typename TargetType>
  bool IsInstance() const;
  /*! \return The strong reference count (for tests and debugging). */
  int32_t use_count() const {
    return static_cast<int32_t>(__atomic_load_n(&header_.combined_ref_count, __ATOMIC_RELAXED) &
                                0xFFFFFFFFu);
  }
  /*! \return The weak reference count (including the one held by strong refs). */
  int32_t weak_count() const {
    return static_cast<int32_t>(__atomic_load_n(&header_.combined_ref_count, __ATOMIC_RELAXED) >>
                                32);
  }

  // Type information of the root type.
  static constexpr const char* _type_key = "ffi.Object";
  static constexpr int32_t _type_index = kTVMFFIObject;
  static constexpr int32_t _type_depth = 0;
  static constexpr bool _type_final = false;
  static constexpr int32_t _type_child_slots = 0;
  static constexpr bool _type_child_slots_can_overflow = true;
  static constexpr bool _type_mutable = false;
  static int32_t RuntimeTypeIndex() { return kTVMFFIObject; }
  static int32_t _GetOrAllocRuntimeTypeIndex() { return kTVMFFIObject; }

 protected:
  TVMFFIObject header_;

  void IncRef() { __atomic_fetch_add(&header_.combined_ref_count, 1, __ATOMIC_RELAXED); }

  // The release rule of abi.md §2.3.
  void DecRef() {
    uint64_t old =
        __atomic_fetch_sub(&header_.combined_ref_count, 1, details::kRefCountReleaseOrder);
    if (old == details::kCombinedRefCountBothOne) {
      __atomic_thread_fence(__ATOMIC_ACQUIRE);
      header_.deleter(this, kTVMFFIObjectDeleterFlagBitMaskBoth);
    } else if ((old & 0xFFFFFFFFu) == 1) {
      __atomic_thread_fence(__ATOMIC_ACQUIRE);
      header_.deleter(this, kTVMFFIObjectDeleterFlagBitMaskStrong);
      uint64_t old_weak =
          __atomic_fetch_sub(&header_.combined_ref_count, details::kCombinedRefCountWeakOne,
                             details::kRefCountReleaseOrder);
      if (old_weak == details::kCombinedRefCountWeakOne) {
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        header_.deleter(this, kTVMFFIObjectDeleterFlagBitMaskWeak);
      }
    }
  }

  void IncWeakRef() {
    __atomic_fetch_add(&header_.combined_ref_count, details::kCombinedRefCountWeakOne,
                       __ATOMIC_RELAXED);
  }

  void DecWeakRef() {
    uint64_t old = __atomic_fetch_sub(&header_.combined_ref_count,
                                      details::kCombinedRefCountWeakOne,
                                      details::kRefCountReleaseOrder);
    if (old == details::kCombinedRefCountWeakOne) {
      __atomic_thread_fence(__ATOMIC_ACQUIRE);
      header_.deleter(this, kTVMFFIObjectDeleterFlagBitMaskWeak);
    }
  }

  // Takes a strong reference if the object is still alive (for weak pointers).
  bool TryPromoteWeakPtr() {
    uint64_t old = __atomic_load_n(&header_.combined_ref_count, __ATOMIC_RELAXED);
    while ((old & 0xFFFFFFFFu) != 0) {
      if (__atomic_compare_exchange_n(&header_.combined_ref_count, &old, old + 1, true,
                                      __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
        return true;
      }
    }
    return false;
  }

  template <typename>
  friend class ObjectPtr;
  template <typename>
  friend class WeakObjectPtr;
  friend struct details::ObjectUnsafe;
};

namespace details {
template <typename T>
constexpr bool kIsUnqualifiedPointee =
    !std::is_const_v<T> && !std::is_volatile_v<T> && !std::is_reference_v<T>;
}  // namespace details

/*!
 * \brief Nullable owning pointer to an object (one pointer wide). Maps null to
 *  None when converted to Any; its schema is Optional[T].
 */
template <typename T>
class ObjectPtr {
  static_assert(details::kIsUnqualifiedPointee<T>,
                "ObjectPtr<T>/Arc<T>: T must be an unqualified Object subclass "
                "(no const, volatile or reference pointee)");

 public:
  using element_type = T;

  ObjectPtr() noexcept = default;
  ObjectPtr(std::nullptr_t) noexcept {}  // NOLINT(runtime/explicit)
  ObjectPtr(const ObjectPtr& other) noexcept : data_(other.data_) { IncRefIfNotNull(); }
  ObjectPtr(ObjectPtr&& other) noexcept : data_(other.data_) { other.data_ = nullptr; }
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  ObjectPtr(const ObjectPtr<U>& other) noexcept  // NOLINT(runtime/explicit)
      : data_(other.data_) {
    IncRefIfNotNull();
  }
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  ObjectPtr(ObjectPtr<U>&& other) noexcept  // NOLINT(runtime/explicit)
      : data_(other.data_) {
    other.data_ = nullptr;
  }
  ~ObjectPtr() { reset(); }

  ObjectPtr& operator=(const ObjectPtr& other) noexcept {
    ObjectPtr(other).swap(*this);
    return *this;
  }
  ObjectPtr& operator=(ObjectPtr&& other) noexcept {
    ObjectPtr(std::move(other)).swap(*this);
    return *this;
  }
  ObjectPtr& operator=(std::nullptr_t) noexcept {
    reset();
    return *this;
  }

  void swap(ObjectPtr& other) noexcept { std::swap(data_, other.data_); }
  T* get() const noexcept { return static_cast<T*>(data_); }
  T* operator->() const noexcept { return get(); }
  T& operator*() const noexcept { return *get(); }
  explicit operator bool() const noexcept { return data_ != nullptr; }
  /*! \return The strong count, 0 for null. */
  int use_count() const noexcept { return data_ ? data_->use_count() : 0; }
  bool unique() const noexcept { return use_count() == 1; }
  void reset() noexcept {
    if (data_ != nullptr) {
      Object* d = data_;
      data_ = nullptr;
      d->DecRef();
    }
  }

  bool operator==(const ObjectPtr& o) const noexcept { return data_ == o.data_; }
  bool operator!=(const ObjectPtr& o) const noexcept { return data_ != o.data_; }
  bool operator==(std::nullptr_t) const noexcept { return data_ == nullptr; }
  bool operator!=(std::nullptr_t) const noexcept { return data_ != nullptr; }

 protected:
  void IncRefIfNotNull() {
    if (data_ != nullptr) data_->IncRef();
  }
  // Stored as Object* so conversions between ObjectPtr<T> and ObjectPtr<U> are free.
  Object* data_{nullptr};

  template <typename>
  friend class ObjectPtr;
  template <typename>
  friend class WeakObjectPtr;
  friend struct details::ObjectUnsafe;
  friend class ObjectRef;
};

/*!
 * \brief Non-null owning pointer to an object. Has no default or null
 *  constructor; make it with make_arc<T>(args...). Rejects None when
 *  converted from Any; its schema is the bare object type.
 *
 *  A moved-from Arc, and one made with Arc(UnsafeInit{}) for reflection's
 *  construct-then-populate path, is empty and must be populated before use.
 */
template <typename T>
class Arc : public ObjectPtr<T> {
 public:
  explicit Arc(UnsafeInit) noexcept {}
  Arc(const Arc& other) noexcept = default;
  Arc(Arc&& other) noexcept = default;
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  Arc(const Arc<U>& other) noexcept : ObjectPtr<T>(other) {}  // NOLINT(runtime/explicit)
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  Arc(Arc<U>&& other) noexcept : ObjectPtr<T>(std::move(other)) {}  // NOLINT(runtime/explicit)
  Arc(std::nullptr_t) = delete;
  Arc& operator=(const Arc&) noexcept = default;
  Arc& operator=(Arc&&) noexcept = default;
  Arc& operator=(std::nullptr_t) = delete;

  /*!
   * \brief Wrap a non-null ObjectPtr without a check (the caller guarantees it).
   */
  static Arc FromObjectPtrUnsafe(ObjectPtr<T> ptr) noexcept {
    Arc result{UnsafeInit{}};
    static_cast<ObjectPtr<T>&>(result) = std::move(ptr);
    return result;
  }
};

/*! \brief Weak pointer: does not keep the object alive; lock() promotes it. */
template <typename T>
class WeakObjectPtr {
  static_assert(details::kIsUnqualifiedPointee<T>,
                "WeakObjectPtr<T>: T must be an unqualified Object subclass");

 public:
  WeakObjectPtr() = default;
  WeakObjectPtr(const ObjectPtr<T>& p) : data_(p.data_) {  // NOLINT(runtime/explicit)
    if (data_) data_->IncWeakRef();
  }
  WeakObjectPtr(const WeakObjectPtr& o) : data_(o.data_) {
    if (data_) data_->IncWeakRef();
  }
  WeakObjectPtr(WeakObjectPtr&& o) noexcept : data_(o.data_) { o.data_ = nullptr; }
  ~WeakObjectPtr() { reset(); }
  WeakObjectPtr& operator=(WeakObjectPtr o) noexcept {
    std::swap(data_, o.data_);
    return *this;
  }
  void reset() {
    if (data_) {
      Object* d = data_;
      data_ = nullptr;
      d->DecWeakRef();
    }
  }
  /*! \return Whether the object has been destroyed (or this is empty). */
  bool expired() const { return data_ == nullptr || data_->use_count() == 0; }
  /*! \return A strong pointer, or null when the object is gone. */
  ObjectPtr<T> lock() const {
    ObjectPtr<T> result;
    if (data_ != nullptr && data_->TryPromoteWeakPtr()) result.data_ = data_;
    return result;
  }

 private:
  Object* data_{nullptr};
};

/*! \brief Base of all reference classes (Function, Array, user refs). */
class ObjectRef {
 public:
  ObjectRef() = default;
  explicit ObjectRef(ObjectPtr<Object> data) : data_(std::move(data)) {}
  explicit ObjectRef(UnsafeInit) {}

  /*! \return Whether both refer to the same object. */
  bool same_as(const ObjectRef& other) const { return data_ == other.data_; }
  bool operator==(const ObjectRef& other) const { return data_ == other.data_; }
  bool operator!=(const ObjectRef& other) const { return data_ != other.data_; }
  bool operator<(const ObjectRef& other) const { return data_.get() < other.data_.get(); }
  /*! \return Whether the reference is non-null. */
  bool defined() const { return data_ != nullptr; }
  const Object* get() const { return data_.get(); }
  const Object* operator->() const { return get(); }
  int use_count() const { return data_.use_count(); }
  bool unique() const { return data_.unique(); }
  /*! \return The type index, kTVMFFINone for a null reference. */
  int32_t type_index() const { return data_ ? data_->type_index() : kTVMFFINone; }
  std::string GetTypeKey() const { return data_ ? data_->GetTypeKey() : std::string("None"); }
  /*! \return The object as ObjectType if it is one, else nullptr. */
  template <typename ObjectType, typename = std::enable_if_t<std::is_base_of_v<Object, ObjectType>>>
  const ObjectType* as() const {
    if (data_ != nullptr && data_->IsInstance<ObjectType>()) {
      return static_cast<const ObjectType*>(data_.get());
    }
    return nullptr;
  }

  using ContainerType = Object;
  static constexpr bool _type_is_nullable = true;

 protected:
  ObjectPtr<Object> data_;
  friend struct details::ObjectUnsafe;
};

/*! \brief Hash by identity (for unordered containers of references). */
struct ObjectPtrHash {
  size_t operator()(const ObjectRef& a) const { return std::hash<const void*>()(a.get()); }
  template <typename T>
  size_t operator()(const ObjectPtr<T>& a) const {
    return std::hash<const void*>()(a.get());
  }
};
/*! \brief Equality by identity. */
struct ObjectPtrEqual {
  bool operator()(const ObjectRef& a, const ObjectRef& b) const { return a.same_as(b); }
  template <typename T>
  bool operator()(const ObjectPtr<T>& a, const ObjectPtr<T>& b) const {
    return a == b;
  }
};

namespace details {
/*! \brief Unchecked conversions between raw handles and owning pointers. */
struct ObjectUnsafe {
  static TVMFFIObject* GetHeader(const Object* obj) {
    return const_cast<TVMFFIObject*>(&obj->header_);
  }
  static void IncRef(TVMFFIObject* obj) { reinterpret_cast<Object*>(obj)->IncRef(); }
  static void DecRef(TVMFFIObject* obj) { reinterpret_cast<Object*>(obj)->DecRef(); }
  // Adopts a reference already owned by the caller.
  template <typename T>
  static ObjectPtr<T> ObjectPtrFromOwned(Object* obj) {
    ObjectPtr<T> p;
    p.data_ = obj;
    return p;
  }
  template <typename T>
  static ObjectPtr<T> ObjectPtrFromOwned(TVMFFIObject* obj) {
    return ObjectPtrFromOwned<T>(reinterpret_cast<Object*>(obj));
  }
  // Takes a new reference.
  template <typename T>
  static ObjectPtr<T> ObjectPtrFromUnowned(Object* obj) {
    ObjectPtr<T> p;
    p.data_ = obj;
    p.IncRefIfNotNull();
    return p;
  }
  template <typename T>
  static ObjectPtr<T> ObjectPtrFromUnowned(TVMFFIObject* obj) {
    return ObjectPtrFromUnowned<T>(reinterpret_cast<Object*>(obj));
  }
  // Releases ownership to the caller without a decrement.
  template <typename T>
  static TVMFFIObject* MoveObjectPtrToHandle(ObjectPtr<T>&& p) {
    Object* obj = p.data_;
    p.data_ = nullptr;
    return obj ? &obj->header_ : nullptr;
  }
  static TVMFFIObject* MoveObjectRefToHandle(ObjectRef&& ref) {
    return MoveObjectPtrToHandle(std::move(ref.data_));
  }
  template <typename T>
  static Object* RawObjectPtr(const ObjectPtr<T>& p) {
    return p.data_;
  }
  static const ObjectPtr<Object>& GetObjectPtr(const ObjectRef& ref) { return ref.data_; }
  static ObjectPtr<Object>& GetObjectPtrMutable(ObjectRef& ref) { return ref.data_; }
  template <typename TRef>
  static TRef ObjectRefFromObjectPtr(ObjectPtr<Object> ptr) {
    TRef ref{UnsafeInit{}};
    static_cast<ObjectRef&>(ref).data_ = std::move(ptr);
    return ref;
  }
  static void InitHeader(Object* obj, int32_t type_index, void (*deleter)(void*, int)) {
    obj->header_.combined_ref_count = kCombinedRefCountBothOne;
    obj->header_.type_index = type_index;
    obj->header_.deleter = deleter;
  }
};

/*! \brief Runtime type index of the object class T. */
template <typename T>
inline int32_t RuntimeTypeIndexOf() {
  return T::RuntimeTypeIndex();
}
}  // namespace details

template <typename TargetType>
inline bool Object::IsInstance() const {
  static_assert(std::is_base_of_v<Object, TargetType>, "IsInstance takes an Object subclass");
  if constexpr (std::is_same_v<TargetType, Object>) {
    return true;
  } else {
    const int32_t target = TargetType::RuntimeTypeIndex();
    const int32_t index = header_.type_index;
    if (index == target) return true;
    if constexpr (TargetType::_type_final) {
      return false;
    } else {
      // The ancestor table makes the check O(1) at any depth (abi.md §2.6).
      const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
      return info != nullptr && info->type_depth > TargetType::_type_depth &&
             info->type_ancestors[TargetType::_type_depth]->type_index == target;
    }
  }
}

/*! \brief A new reference of type RefType to an existing object. */
template <typename RefType, typename ObjType>
inline RefType GetRef(const ObjType* ptr) {
  static_assert(std::is_base_of_v<typename RefType::ContainerType, ObjType>,
                "GetRef: the object type must derive from the reference's ContainerType");
  return details::ObjectUnsafe::ObjectRefFromObjectPtr<RefType>(
      details::ObjectUnsafe::ObjectPtrFromUnowned<Object>(const_cast<ObjType*>(ptr)));
}

/*! \brief A new ObjectPtr to an existing object. */
template <typename T>
inline ObjectPtr<T> GetObjectPtr(const T* ptr) {
  return details::ObjectUnsafe::ObjectPtrFromUnowned<T>(const_cast<T*>(ptr));
}

TVM_FFI_NAMESPACE_END

/*
 * Type declaration macros. Place one in the public section of an Object
 * subclass. The type index is allocated at run time on first use.
 */
#define TVM_FFI_DECLARE_OBJECT_INFO_PREDEFINED_TYPE_KEY_(TypeName, ParentType)                  \
  static constexpr int32_t _type_depth = ParentType::_type_depth + 1;                           \
  using _type_parent = ParentType;                                                              \
  static int32_t _GetOrAllocRuntimeTypeIndex() {                                                \
    static_assert(!ParentType::_type_final, "Cannot derive from a final object type");          \
    static int32_t tindex = [] {                                                                \
      TVMFFIByteArray key{TypeName::_type_key,                                                  \
                          std::char_traits<char>::length(TypeName::_type_key)};                 \
      return TVMFFITypeGetOrAllocIndex(&key, TypeName::_type_index, TypeName::_type_depth,      \
                                       TypeName::_type_child_slots,                             \
                                       TypeName::_type_child_slots_can_overflow,                \
                                       ParentType::_GetOrAllocRuntimeTypeIndex());              \
    }();                                                                                        \
    return tindex;                                                                              \
  }                                                                                             \
  static int32_t RuntimeTypeIndex() { return _GetOrAllocRuntimeTypeIndex(); }

/*! \brief Declare a dynamic, subclassable object type with key TypeKey. */
#define TVM_FFI_DECLARE_OBJECT_INFO(TypeKey, TypeName, ParentType)   \
  static constexpr const char* _type_key = TypeKey;                  \
  static constexpr int32_t _type_index = -1;                         \
  static constexpr bool _type_final = false;                         \
  static constexpr int32_t _type_child_slots = 0;                    \
  static constexpr bool _type_child_slots_can_overflow = true;       \
  TVM_FFI_DECLARE_OBJECT_INFO_PREDEFINED_TYPE_KEY_(TypeName, ParentType)

/*! \brief Declare a dynamic final object type (instance checks are one compare). */
#define TVM_FFI_DECLARE_OBJECT_INFO_FINAL(TypeKey, TypeName, ParentType) \
  static constexpr const char* _type_key = TypeKey;                      \
  static constexpr int32_t _type_index = -1;                             \
  static constexpr bool _type_final = true;                              \
  static constexpr int32_t _type_child_slots = 0;                        \
  static constexpr bool _type_child_slots_can_overflow = false;          \
  TVM_FFI_DECLARE_OBJECT_INFO_PREDEFINED_TYPE_KEY_(TypeName, ParentType)

/*! \brief Declare a built-in type whose index is fixed by the ABI (the class sets _type_index). */
#define TVM_FFI_DECLARE_OBJECT_INFO_STATIC(TypeKey, TypeName, ParentType) \
  static constexpr const char* _type_key = TypeKey;                       \
  static constexpr bool _type_final = true;                               \
  static constexpr int32_t _type_child_slots = 0;                         \
  static constexpr bool _type_child_slots_can_overflow = false;           \
  static constexpr int32_t _type_depth = ParentType::_type_depth + 1;     \
  using _type_parent = ParentType;                                        \
  static int32_t _GetOrAllocRuntimeTypeIndex() { return TypeName::_type_index; } \
  static int32_t RuntimeTypeIndex() { return TypeName::_type_index; }

/*! \brief Default copy/move constructors and assignments of a reference class. */
#define TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(TypeName) \
  TypeName(const TypeName& other) = default;                  \
  TypeName(TypeName&& other) = default;                       \
  TypeName& operator=(const TypeName& other) = default;       \
  TypeName& operator=(TypeName&& other) = default;

/*! \brief Methods of a nullable reference class TypeName over ObjectName. */
#define TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(TypeName, ParentType, ObjectName)          \
  TypeName() = default;                                                                       \
  explicit TypeName(::tvm::ffi::ObjectPtr<ObjectName> n) : ParentType(std::move(n)) {}        \
  explicit TypeName(::tvm::ffi::UnsafeInit tag) : ParentType(tag) {}                          \
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(TypeName)                                       \
  const ObjectName* operator->() const { return static_cast<const ObjectName*>(data_.get()); } \
  const ObjectName* get() const { return operator->(); }                                      \
  static constexpr bool _type_is_nullable = true;                                             \
  using ContainerType = ObjectName;

/*! \brief Methods of a non-nullable reference class (no default constructor). */
#define TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(TypeName, ParentType, ObjectName)       \
  explicit TypeName(::tvm::ffi::ObjectPtr<ObjectName> n) : ParentType(std::move(n)) {}        \
  explicit TypeName(::tvm::ffi::UnsafeInit tag) : ParentType(tag) {}                          \
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(TypeName)                                       \
  const ObjectName* operator->() const { return static_cast<const ObjectName*>(data_.get()); } \
  const ObjectName* get() const { return operator->(); }                                      \
  static constexpr bool _type_is_nullable = false;                                            \
  using ContainerType = ObjectName;

#endif  // TVM_FFI_OBJECT_H_
