/*
 * The object system: Object, ObjectPtr<T>, Arc<T>, WeakObjectPtr<T>, ObjectRef.
 *
 * Every heap value of tvm-ffi (strings, arrays, functions, user types) is an
 * Object: a class whose first member is the 24-byte TVMFFIObject header of the
 * C ABI (reference counts, type index, deleter). Counting is intrusive and
 * follows docs/abi.md §2.3 exactly, because compiled code of every implementation
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

#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/c_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN

/*! \brief Tag for the controlled, unchecked construction of non-null handles. */
struct UnsafeInit {};

namespace detail {
struct ObjectUnsafe;
/*! \brief One strong reference in the combined count. */
constexpr uint64_t kCombinedRefCountStrongOne = uint64_t{1};
/*! \brief One weak reference in the combined count. */
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
/*! \brief Combined count of a fresh object: strong 1, weak 1. */
constexpr uint64_t kCombinedRefCountBothOne = kCombinedRefCountWeakOne | kCombinedRefCountStrongOne;
/*! \brief Mask of the strong count in the combined count. */
constexpr uint64_t kCombinedRefCountMaskUInt32 = (uint64_t{1} << 32) - 1;
}  // namespace detail

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
  std::string GetTypeKey() const { return TypeIndex2Key(header_.type_index); }
  /*! \return The hash of the type key kept by the type registry. */
  uint64_t GetTypeKeyHash() const {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(header_.type_index);
    return info ? info->type_key_hash : 0;
  }
  /*! \return The type key registered for a type index ("<unknown type index N>" if none). */
  static std::string TypeIndex2Key(int32_t type_index) {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
    if (info == nullptr) return "<unknown type index " + std::to_string(type_index) + ">";
    return std::string(info->type_key.data, info->type_key.size);
  }
  /*! \return Whether this object is an instance of TargetType (or a subclass). */
  template <typename TargetType>
  bool IsInstance() const;
  /*! \return The strong reference count (for tests and debugging). */
  uint64_t use_count() const {
    return __atomic_load_n(&header_.combined_ref_count, __ATOMIC_RELAXED) &
           detail::kCombinedRefCountMaskUInt32;
  }
  /*! \return The weak reference count (including the one held by strong refs). */
  int32_t weak_count() const {
    return static_cast<int32_t>(__atomic_load_n(&header_.combined_ref_count, __ATOMIC_RELAXED) >>
                                32);
  }
  /*! \return Whether the caller holds the only reference (no other strong or weak ones). */
  bool unique() const {
    return __atomic_load_n(&header_.combined_ref_count, __ATOMIC_RELAXED) ==
           detail::kCombinedRefCountBothOne;
  }

  // Type configuration of the root type. A subclass declares the members it
  // changes (before or after its DECLARE macro) and inherits the others.
  static constexpr const char* _type_key = "ffi.Object";
  static constexpr int32_t _type_index = kTVMFFIObject;
  static constexpr int32_t _type_depth = 0;
  static constexpr bool _type_final = false;
  static constexpr bool _type_mutable = false;
  static constexpr uint32_t _type_child_slots = 0;
  static constexpr bool _type_child_slots_can_overflow = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindUnsupported;
  static constexpr bool _type_s_eq_hash_subclass_kind_fixed = false;
  static int32_t RuntimeTypeIndex() noexcept { return kTVMFFIObject; }
  static int32_t _GetOrAllocRuntimeTypeIndex() noexcept { return kTVMFFIObject; }

 protected:
  TVMFFIObject header_;

  void IncRef() { __atomic_fetch_add(&header_.combined_ref_count, 1, __ATOMIC_RELAXED); }

  // The release rule of docs/abi.md §2.3; an object without a deleter is never freed here.
  void DecRef() {
    uint64_t old =
        __atomic_fetch_sub(&header_.combined_ref_count, 1, detail::kRefCountReleaseOrder);
    if (old == detail::kCombinedRefCountBothOne) {
      __atomic_thread_fence(__ATOMIC_ACQUIRE);
      if (header_.deleter != nullptr) header_.deleter(this, kTVMFFIObjectDeleterFlagBitMaskBoth);
    } else if ((old & detail::kCombinedRefCountMaskUInt32) == 1) {
      __atomic_thread_fence(__ATOMIC_ACQUIRE);
      if (header_.deleter != nullptr) header_.deleter(this, kTVMFFIObjectDeleterFlagBitMaskStrong);
      uint64_t old_weak =
          __atomic_fetch_sub(&header_.combined_ref_count, detail::kCombinedRefCountWeakOne,
                             detail::kRefCountReleaseOrder);
      if (old_weak == detail::kCombinedRefCountWeakOne) {
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (header_.deleter != nullptr) header_.deleter(this, kTVMFFIObjectDeleterFlagBitMaskWeak);
      }
    }
  }

  void IncWeakRef() {
    __atomic_fetch_add(&header_.combined_ref_count, detail::kCombinedRefCountWeakOne,
                       __ATOMIC_RELAXED);
  }

  void DecWeakRef() {
    uint64_t old = __atomic_fetch_sub(&header_.combined_ref_count, detail::kCombinedRefCountWeakOne,
                                      detail::kRefCountReleaseOrder);
    if (old == detail::kCombinedRefCountWeakOne) {
      __atomic_thread_fence(__ATOMIC_ACQUIRE);
      if (header_.deleter != nullptr) header_.deleter(this, kTVMFFIObjectDeleterFlagBitMaskWeak);
    }
  }

  // Takes a strong reference if the object is still alive (for weak pointers).
  bool TryPromoteWeakPtr() {
    uint64_t old = __atomic_load_n(&header_.combined_ref_count, __ATOMIC_RELAXED);
    while ((old & detail::kCombinedRefCountMaskUInt32) != 0) {
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
  friend class ObjectRef;
  friend struct detail::ObjectUnsafe;
};

/*! \brief Whether T is an Object subclass (specialisable, e.g. for incomplete types). */
template <typename T>
inline constexpr bool is_object_subclass_v = std::is_base_of_v<Object, T>;

namespace detail {
template <typename T>
constexpr bool kIsUnqualifiedPointee =
    !std::is_const_v<T> && !std::is_volatile_v<T> && !std::is_reference_v<T>;
}  // namespace detail

/*!
 * \brief Nullable owning pointer to an object (one pointer wide). Maps null to
 *  None when converted to Any; its schema is Optional[T].
 */
template <typename T>
class ObjectPtr {
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
  ~ObjectPtr() {
    // Checked where a pointer is used, not where the type is named: traits may ask about
    // ObjectPtr<const T> (and answer "not convertible") without making one.
    static_assert(detail::kIsUnqualifiedPointee<T>,
                  "ObjectPtr<T>/Arc<T>: T must be an unqualified Object subclass "
                  "(no const, volatile or reference pointee)");
    reset();
  }

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
  int use_count() const noexcept { return data_ ? static_cast<int>(data_->use_count()) : 0; }
  /*! \return Whether this is the only reference (strong and weak count both 1). */
  bool unique() const noexcept { return data_ != nullptr && data_->unique(); }
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
  friend struct detail::ObjectUnsafe;
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
  Arc() = delete;
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

 private:
  // An Arc never becomes null through its own interface.
  using ObjectPtr<T>::reset;
  using ObjectPtr<T>::swap;
};

/*! \brief Weak pointer: does not keep the object alive; lock() promotes it. */
template <typename T>
class WeakObjectPtr {
  static_assert(detail::kIsUnqualifiedPointee<T>,
                "WeakObjectPtr<T>: T must be an unqualified Object subclass");

 public:
  WeakObjectPtr() = default;
  WeakObjectPtr(std::nullptr_t) noexcept {}                // NOLINT(runtime/explicit)
  WeakObjectPtr(const ObjectPtr<T>& p) : data_(p.data_) {  // NOLINT(runtime/explicit)
    if (data_) data_->IncWeakRef();
  }
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  WeakObjectPtr(const ObjectPtr<U>& p) : data_(p.data_) {  // NOLINT(runtime/explicit)
    if (data_) data_->IncWeakRef();
  }
  WeakObjectPtr(const WeakObjectPtr& o) : data_(o.data_) {
    if (data_) data_->IncWeakRef();
  }
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  WeakObjectPtr(const WeakObjectPtr<U>& o) : data_(o.data_) {  // NOLINT(runtime/explicit)
    if (data_) data_->IncWeakRef();
  }
  WeakObjectPtr(WeakObjectPtr&& o) noexcept : data_(o.data_) { o.data_ = nullptr; }
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  WeakObjectPtr(WeakObjectPtr<U>&& o) noexcept : data_(o.data_) {  // NOLINT(runtime/explicit)
    o.data_ = nullptr;
  }
  ~WeakObjectPtr() { reset(); }
  WeakObjectPtr& operator=(WeakObjectPtr o) noexcept {
    std::swap(data_, o.data_);
    return *this;
  }
  void swap(WeakObjectPtr& other) noexcept { std::swap(data_, other.data_); }
  /*! \return The strong count of the target (0 when empty or destroyed). */
  int use_count() const { return data_ ? static_cast<int>(data_->use_count()) : 0; }
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
  template <typename>
  friend class WeakObjectPtr;
};

namespace detail {
// Reports a failed ObjectRef::as_or_throw (defined in type_traits.h, which
// every caller includes for TypeTraits).
[[noreturn]] inline void ThrowCannotTreatAs(const std::string& got, const std::string& expected);
}  // namespace detail

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
  /*!
   * \brief This reference as the reference class RefType when its strict type
   *  check (TypeTraits<RefType>::CheckAnyStrict) accepts it. A null reference
   *  gives a null RefType when RefType is nullable, else nullopt.
   */
  template <typename RefType, typename = std::enable_if_t<std::is_base_of_v<ObjectRef, RefType>>,
            typename = void>
  std::optional<RefType> as() const& {
    if (!AcceptedAs<RefType>()) return std::nullopt;
    return RefFromPtr<RefType>(ObjectPtr<Object>(data_));
  }
  template <typename RefType, typename = std::enable_if_t<std::is_base_of_v<ObjectRef, RefType>>,
            typename = void>
  std::optional<RefType> as() && {
    if (!AcceptedAs<RefType>()) return std::nullopt;
    return RefFromPtr<RefType>(std::move(data_));
  }
  /*! \brief As as<RefType>(), but a mismatch throws TypeError "Cannot treat type `X` as type `Y`".
   */
  template <typename RefType, typename = std::enable_if_t<std::is_base_of_v<ObjectRef, RefType>>>
  RefType as_or_throw() const& {
    if (!AcceptedAs<RefType>()) ThrowAsMismatch<RefType>();
    return RefFromPtr<RefType>(ObjectPtr<Object>(data_));
  }
  template <typename RefType, typename = std::enable_if_t<std::is_base_of_v<ObjectRef, RefType>>>
  RefType as_or_throw() && {
    if (!AcceptedAs<RefType>()) ThrowAsMismatch<RefType>();
    return RefFromPtr<RefType>(std::move(data_));
  }

  using ContainerType = Object;
  static constexpr bool _type_container_is_exact = true;
  static constexpr bool _type_is_nullable = true;

 protected:
  ObjectPtr<Object> data_;
  /*! \return The object, mutable (for subclasses whose objects are mutable). */
  Object* get_mutable() const { return data_.get(); }
  friend struct detail::ObjectUnsafe;

 private:
  TVMFFIAny AsAnyView() const {
    TVMFFIAny cell;
    cell.type_index = data_ ? data_->type_index() : kTVMFFINone;
    cell.zero_padding = 0;
    cell.v_int64 = 0;
    if (data_) cell.v_obj = &data_->header_;
    return cell;
  }
  template <typename RefType>
  bool AcceptedAs() const {
    if (data_ == nullptr) return RefType::_type_is_nullable;
    TVMFFIAny cell = AsAnyView();
    return TypeTraits<RefType>::CheckAnyStrict(&cell);
  }
  template <typename RefType>
  [[noreturn]] void ThrowAsMismatch() const {
    TVMFFIAny cell = AsAnyView();
    detail::ThrowCannotTreatAs(
        data_ == nullptr ? std::string("None") : TypeTraits<RefType>::GetMismatchTypeInfo(&cell),
        TypeTraits<RefType>::TypeStr());
  }
  template <typename RefType>
  static RefType RefFromPtr(ObjectPtr<Object> ptr) {
    RefType ref{UnsafeInit{}};
    static_cast<ObjectRef&>(ref).data_ = std::move(ptr);
    return ref;
  }
};

/*!
 * \brief Whether a reference of type Ref may hold an object of type Obj:
 *  Ref's ContainerType is exact and a base of Obj. Specialisable.
 */
template <typename Ref, typename Obj,
          typename =
              std::enable_if_t<std::is_base_of_v<ObjectRef, Ref> && std::is_base_of_v<Object, Obj>>>
inline constexpr bool object_ref_contains_v =
    Ref::_type_container_is_exact && std::is_base_of_v<typename Ref::ContainerType, Obj>;

template <typename... Ts>
class Variant;

namespace detail {
// The object a Variant of reference classes holds (nullptr for None).
template <typename... V>
const void* VariantObjectAddress(const Variant<V...>& v) {
  static_assert((std::is_base_of_v<ObjectRef, V> && ...),
                "ObjectPtrHash/ObjectPtrEqual take a Variant of reference classes only");
  TVMFFIAny cell;
  TypeTraits<Variant<V...>>::CopyToAnyView(v, &cell);
  return cell.type_index >= kTVMFFIStaticObjectBegin ? static_cast<const void*>(cell.v_obj)
                                                     : nullptr;
}
}  // namespace detail

/*! \brief Hash by identity (for unordered containers of references). */
struct ObjectPtrHash {
  size_t operator()(const ObjectRef& a) const { return std::hash<const void*>()(a.get()); }
  template <typename T>
  size_t operator()(const ObjectPtr<T>& a) const {
    return std::hash<const void*>()(a.get());
  }
  template <typename... V>
  size_t operator()(const Variant<V...>& a) const {
    return std::hash<const void*>()(detail::VariantObjectAddress(a));
  }
};
/*! \brief Equality by identity. */
struct ObjectPtrEqual {
  bool operator()(const ObjectRef& a, const ObjectRef& b) const { return a.same_as(b); }
  template <typename T>
  bool operator()(const ObjectPtr<T>& a, const ObjectPtr<T>& b) const {
    return a == b;
  }
  template <typename... V>
  bool operator()(const Variant<V...>& a, const Variant<V...>& b) const {
    return detail::VariantObjectAddress(a) == detail::VariantObjectAddress(b);
  }
};

namespace detail {
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
  /*! \return The address of an object's header (the header is the object's start). */
  static TVMFFIObject* GetHeader(const TVMFFIObject* obj) { return const_cast<TVMFFIObject*>(obj); }
  /*! \return The byte offset of class C inside an object whose header is at offset 0. */
  template <typename C>
  static int64_t GetObjectOffsetToSubclass() {
    return reinterpret_cast<int64_t>(static_cast<Object*>(reinterpret_cast<C*>(0x1000))) - 0x1000;
  }
  template <typename T>
  static ObjectPtr<T> ObjectPtrFromObjectRef(const ObjectRef& ref) {
    return ObjectPtrFromUnowned<T>(ref.data_.data_);
  }
  template <typename T>
  static ObjectPtr<T> ObjectPtrFromObjectRef(ObjectRef&& ref) {
    Object* obj = ref.data_.data_;
    ref.data_.data_ = nullptr;
    return ObjectPtrFromOwned<T>(obj);
  }
  template <typename T>
  static Arc<T> ArcFromObjectPtr(ObjectPtr<T>&& ptr) {
    return Arc<T>::FromObjectPtrUnsafe(std::move(ptr));
  }
  /*! \return The object of a handle, no reference taken. */
  template <typename T>
  static T* RawObjectPtrFromUnowned(TVMFFIObject* obj) {
    return static_cast<T*>(reinterpret_cast<Object*>(obj));
  }
  static Object* RawObjectPtrFromObjectRef(const ObjectRef& ref) { return ref.data_.data_; }
  static TVMFFIObject* TVMFFIObjectPtrFromObjectRef(const ObjectRef& ref) {
    return ref.data_.data_ ? &ref.data_.data_->header_ : nullptr;
  }
  template <typename T>
  static TVMFFIObject* TVMFFIObjectPtrFromObjectPtr(const ObjectPtr<T>& p) {
    return p.data_ ? &p.data_->header_ : nullptr;
  }
  template <typename T>
  static TVMFFIObject* MoveObjectPtrToTVMFFIObjectPtr(ObjectPtr<T>&& p) {
    return MoveObjectPtrToHandle(std::move(p));
  }
  static TVMFFIObject* MoveObjectRefToTVMFFIObjectPtr(ObjectRef&& ref) {
    return MoveObjectRefToHandle(std::move(ref));
  }
  /*! \brief Increment the strong count of a handle (null is ignored). */
  static void IncRefObjectHandle(TVMFFIObject* obj) {
    if (obj != nullptr) reinterpret_cast<Object*>(obj)->IncRef();
  }
  /*! \brief Release a strong reference of a handle (null is ignored). */
  static void DecRefObjectHandle(TVMFFIObject* obj) {
    if (obj != nullptr) reinterpret_cast<Object*>(obj)->DecRef();
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
}  // namespace detail

namespace detail {
/*!
 * \brief Whether an object of runtime type index `index` is a TargetType. The
 *  reserved child-slot range answers without a lookup; types that may overflow
 *  it are checked in the ancestor table (O(1) at any depth).
 */
template <typename TargetType>
TVM_FFI_INLINE bool IsObjectInstance(int32_t index) {
  static_assert(std::is_base_of_v<Object, TargetType>, "IsInstance takes an Object subclass");
  if constexpr (std::is_same_v<TargetType, Object>) {
    return true;
  } else if constexpr (TargetType::_type_final) {
    return index == TargetType::RuntimeTypeIndex();
  } else {
    const int32_t begin = TargetType::RuntimeTypeIndex();
    if constexpr (TargetType::_type_child_slots != 0) {
      if (index >= begin && static_cast<int64_t>(index) <
                                static_cast<int64_t>(begin) +
                                    static_cast<int64_t>(TargetType::_type_child_slots) + 1) {
        return true;
      }
    } else {
      if (index == begin) return true;
    }
    if constexpr (TargetType::_type_child_slots_can_overflow) {
      if (index < begin) return false;
      const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
      return info != nullptr && info->type_depth > TargetType::_type_depth &&
             info->type_ancestors[TargetType::_type_depth]->type_index == begin;
    } else {
      return false;
    }
  }
}

/*!
 * \brief Whether a value of runtime type index `actual` satisfies the type
 *  index `target`: equal; Any matches everything; Str accepts SmallStr and
 *  Bytes SmallBytes; Object accepts every object; other objects by ancestry.
 */
inline bool RuntimeTypeIndexMatch(int32_t actual, int32_t target) {
  if (actual == target || target == kTVMFFIAny) return true;
  if (target == kTVMFFIStr) return actual == kTVMFFISmallStr;
  if (target == kTVMFFIBytes) return actual == kTVMFFISmallBytes;
  if (target < kTVMFFIStaticObjectBegin || actual < kTVMFFIStaticObjectBegin) return false;
  if (target == kTVMFFIObject) return true;
  const TVMFFITypeInfo* target_info = TVMFFIGetTypeInfo(target);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(actual);
  if (target_info == nullptr || info == nullptr) return false;
  return info->type_depth > target_info->type_depth &&
         info->type_ancestors[target_info->type_depth]->type_index == target;
}
}  // namespace detail

template <typename TargetType>
inline bool Object::IsInstance() const {
  return detail::IsObjectInstance<TargetType>(header_.type_index);
}

TVM_FFI_NAMESPACE_END

/*
 * Type declaration macros. Place one in the public section of an Object
 * subclass. The configuration members (_type_final, _type_mutable,
 * _type_child_slots, _type_child_slots_can_overflow, _type_s_eq_hash_kind,
 * _type_s_eq_hash_subclass_kind_fixed) are inherited from the parent unless
 * the class declares them itself, before or after the macro:
 *
 *   class MyObj : public Object {
 *    public:
 *     static constexpr uint32_t _type_child_slots = 2;
 *     static constexpr bool _type_mutable = true;
 *     TVM_FFI_DECLARE_OBJECT_INFO("my.Obj", MyObj, Object);
 *   };
 *
 * The type is registered at static-initialisation time; _type_index is then
 * the runtime type index.
 */
#define TVM_FFI_DECLARE_OBJECT_INFO_PREDEFINED_TYPE_KEY(TypeName, ParentType)                   \
  static constexpr int32_t _type_depth = ParentType::_type_depth + 1;                           \
  using _type_parent = ParentType;                                                              \
  TVM_FFI_COLD_CODE static int32_t _GetOrAllocRuntimeTypeIndex() {                              \
    static_assert(!ParentType::_type_final, "ParentType marked as final");                      \
    static_assert(!ParentType::_type_s_eq_hash_subclass_kind_fixed ||                           \
                      TypeName::_type_s_eq_hash_kind == ParentType::_type_s_eq_hash_kind,       \
                  "The parent type fixes _type_s_eq_hash_kind for its subclasses");             \
    static_assert(ParentType::_type_child_slots == 0 ||                                         \
                      TypeName::_type_child_slots < ParentType::_type_child_slots,              \
                  "Need to set _type_child_slots when parent specifies it.");                   \
    static int32_t tindex = [] {                                                                \
      TVMFFIByteArray key{TypeName::_type_key,                                                  \
                          std::char_traits<char>::length(TypeName::_type_key)};                 \
      return TVMFFITypeGetOrAllocIndex(                                                         \
          &key, -1, TypeName::_type_depth, static_cast<int32_t>(TypeName::_type_child_slots),   \
          TypeName::_type_child_slots_can_overflow, ParentType::_GetOrAllocRuntimeTypeIndex()); \
    }();                                                                                        \
    return tindex;                                                                              \
  }                                                                                             \
  static inline const int32_t _type_index = _GetOrAllocRuntimeTypeIndex();                      \
  static int32_t RuntimeTypeIndex() noexcept { return _GetOrAllocRuntimeTypeIndex(); }

/*! \brief Declare a dynamic object type with key TypeKey (subclassable unless _type_final). */
#define TVM_FFI_DECLARE_OBJECT_INFO(TypeKey, TypeName, ParentType) \
  static constexpr const char* _type_key = TypeKey;                \
  TVM_FFI_DECLARE_OBJECT_INFO_PREDEFINED_TYPE_KEY(TypeName, ParentType)

/*! \brief Declare a final dynamic object type (instance checks are one compare). */
#define TVM_FFI_DECLARE_OBJECT_INFO_FINAL(TypeKey, TypeName, ParentType) \
  static const constexpr int _type_child_slots = 0;                      \
  static const constexpr bool _type_final = true;                        \
  TVM_FFI_DECLARE_OBJECT_INFO(TypeKey, TypeName, ParentType)

/*!
 * \brief Declare a type whose index is fixed (the class defines _type_index
 *  itself, e.g. the built-in types); the index is registered once on first use.
 */
#define TVM_FFI_DECLARE_OBJECT_INFO_STATIC(TypeKey, TypeName, ParentType)                       \
  static constexpr const char* _type_key = TypeKey;                                             \
  static constexpr int32_t _type_depth = ParentType::_type_depth + 1;                           \
  using _type_parent = ParentType;                                                              \
  TVM_FFI_COLD_CODE static int32_t _GetOrAllocRuntimeTypeIndex() {                              \
    static_assert(!ParentType::_type_final, "ParentType marked as final");                      \
    static int32_t tindex = [] {                                                                \
      TVMFFIByteArray key{TypeName::_type_key,                                                  \
                          std::char_traits<char>::length(TypeName::_type_key)};                 \
      int32_t index = TVMFFITypeGetOrAllocIndex(                                                \
          &key, TypeName::_type_index, TypeName::_type_depth,                                   \
          static_cast<int32_t>(TypeName::_type_child_slots),                                    \
          TypeName::_type_child_slots_can_overflow, ParentType::_GetOrAllocRuntimeTypeIndex()); \
      return index < 0 ? static_cast<int32_t>(TypeName::_type_index) : index;                   \
    }();                                                                                        \
    return tindex;                                                                              \
  }                                                                                             \
  static int32_t RuntimeTypeIndex() noexcept { return TypeName::_type_index; }

/*!
 * \brief C++ view of a type registered elsewhere (by key): its index is looked
 *  up once; nothing is registered. Needs function.h (TVM_FFI_CHECK_SAFE_CALL).
 */
#define TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP(TypeKey, Depth)                   \
  static constexpr const char* _type_key = TypeKey;                          \
  static constexpr int32_t _type_depth = Depth;                              \
  static constexpr bool _type_mutable = true;                                \
  static constexpr bool _type_final = false;                                 \
  static constexpr uint32_t _type_child_slots = 0;                           \
  static constexpr bool _type_child_slots_can_overflow = true;               \
  static int32_t RuntimeTypeIndex() {                                        \
    static int32_t tindex = [] {                                             \
      int32_t index = -1;                                                    \
      TVMFFIByteArray key{TypeKey, std::char_traits<char>::length(TypeKey)}; \
      TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeKeyToIndex(&key, &index));           \
      return index;                                                          \
    }();                                                                     \
    return tindex;                                                           \
  }                                                                          \
  static int32_t _GetOrAllocRuntimeTypeIndex() { return RuntimeTypeIndex(); }

/*! \brief Default copy/move constructors and assignments of a reference class. */
#define TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(TypeName) \
  TypeName(const TypeName& other) = default;                  \
  TypeName(TypeName&& other) noexcept = default;              \
  TypeName& operator=(const TypeName& other) = default;       \
  TypeName& operator=(TypeName&& other) noexcept = default;

// operator-> and get() of a reference class: mutable objects are handed out
// non-const.
#define TVM_FFI_DEFINE_OBJECT_REF_ACCESSORS_(ObjectName)                             \
  using _type_ref_pointer_ =                                                         \
      std::conditional_t<ObjectName::_type_mutable, ObjectName*, const ObjectName*>; \
  _type_ref_pointer_ operator->() const {                                            \
    return static_cast<_type_ref_pointer_>(static_cast<ObjectName*>(data_.get()));   \
  }                                                                                  \
  _type_ref_pointer_ get() const { return operator->(); }

/*!
 * \brief Methods of a nullable reference class TypeName over ObjectName; the
 *  user writes the closing semicolon.
 */
#define TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(TypeName, ParentType, ObjectName)   \
  TypeName() = default;                                                                \
  explicit TypeName(::tvm::ffi::ObjectPtr<ObjectName> n) : ParentType(std::move(n)) {} \
  explicit TypeName(::tvm::ffi::UnsafeInit tag) : ParentType(tag) {}                   \
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(TypeName)                                \
  TVM_FFI_DEFINE_OBJECT_REF_ACCESSORS_(ObjectName)                                     \
  static constexpr bool _type_is_nullable = true;                                      \
  using ContainerType = ObjectName

/*! \brief Methods of a non-nullable reference class (no default or ObjectPtr constructor). */
#define TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(TypeName, ParentType, ObjectName) \
  explicit TypeName(::tvm::ffi::UnsafeInit tag) : ParentType(tag) {}                    \
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(TypeName)                                 \
  TVM_FFI_DEFINE_OBJECT_REF_ACCESSORS_(ObjectName)                                      \
  static constexpr bool _type_is_nullable = false;                                      \
  using ContainerType = ObjectName

#endif  // TVM_FFI_OBJECT_H_
