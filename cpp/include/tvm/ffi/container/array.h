/*
 * Array<T>: the immutable, copy-on-write sequence of the FFI (ArrayObj, type
 * index 71, key "ffi.Array").
 *
 * An Array is one pointer wide and shares its ArrayObj on copy. Every
 * "mutating" method (push_back, insert, erase, Set, resize, reserve, clear,
 * pop_back) first copies the object if anyone else holds it, so other handles
 * never observe the change; a uniquely held array is changed in place.
 * Elements are stored as owned Any cells and converted to T on read, so
 * operator[] and iterators yield T by value.
 *
 *   Array<int> a = {1, 2, 3};
 *   Array<int> b = a;          // shares the object
 *   b.push_back(4);            // b copies; a is still {1, 2, 3}
 *   for (int x : a) ...
 *
 * Converting an Any to Array<T> checks every element: an element that is not
 * a T but converts to one (int -> float) yields a new array; when no element
 * needs converting the same object is reused.
 */
#ifndef TVM_FFI_CONTAINER_ARRAY_H_
#define TVM_FFI_CONTAINER_ARRAY_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/container_detail.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/error.h>
// Function is included so code taking Array<T> in typed functions needs only this header.
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/string.h>
#include <tvm/ffi/type_traits.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN

namespace detail {
/*! \brief Slots of an empty Array: Array() and make_object<ArrayObj>() start with this many. */
inline constexpr int64_t kArrayInitCapacity = 4;
}  // namespace detail

/*! \brief The object behind Array and Tuple: header + TVMFFISeqCell, slots in place. */
class ArrayObj : public detail::SeqBaseObj {
 public:
  static constexpr int32_t _type_index = kTVMFFIArray;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC("ffi.Array", ArrayObj, Object);

  /*! \return A new array of n copies of value. */
  static ObjectPtr<ArrayObj> CreateRepeated(int64_t n, const Any& value) {
    if (n < 0) TVM_FFI_THROW(ValueError) << "CreateRepeated: negative size " << n;
    ObjectPtr<ArrayObj> p = detail::SeqAllocInplace<ArrayObj>(n);
    for (int64_t i = 0; i < n; ++i) {
      p->AppendCellUnchecked(detail::AnyUnsafe::MoveAnyToTVMFFIAny(Any(value)));
    }
    return p;
  }
  /*! \return A new array of capacity cap holding copies of from's elements. */
  static ObjectPtr<ArrayObj> CopyFrom(int64_t cap, ArrayObj* from) {
    if (cap < from->SeqCell()->size) TVM_FFI_THROW(ValueError) << "Not enough capacity";
    const TVMFFIAny* s = from->slots();
    return detail::SeqCopyFrom<ArrayObj>(s, s + from->SeqCell()->size, cap);
  }
  /*! \return A new array of capacity cap that takes over from's elements (from is left empty). */
  static ObjectPtr<ArrayObj> MoveFrom(int64_t cap, ArrayObj* from) {
    if (cap < from->SeqCell()->size) TVM_FFI_THROW(RuntimeError) << "Not enough capacity";
    return detail::SeqStealFrom<ArrayObj>(from, cap);
  }
};

/*!
 * \brief make_object<ArrayObj>(): an empty ArrayObj with room for 4 elements (the initial
 *  capacity of every default-constructed Array; growth doubles it).
 */
template <>
inline ObjectPtr<ArrayObj> make_object<ArrayObj>() {
  return detail::SeqAllocInplace<ArrayObj>(detail::kArrayInitCapacity);
}

namespace detail {
template <typename T>
struct IsIteratorLike {
  template <typename U>
  static auto Test(int)
      -> decltype(typename std::iterator_traits<U>::iterator_category(), std::true_type());
  template <typename>
  static std::false_type Test(...);
  static constexpr bool value = decltype(Test<T>(0))::value && !std::is_integral_v<T>;
};
}  // namespace detail

/*!
 * \brief Immutable homogeneous sequence with copy-on-write.
 * \tparam T The element type (Any accepts every value).
 */
template <typename T = Any>
class Array : public ObjectRef {
  static_assert(detail::kCanStoreInAny<T> || std::is_same_v<T, Any>,
                "Array<T>: T must be convertible to and from Any");

 public:
  using value_type = T;
  using iterator = detail::SeqIterator<T>;
  using const_iterator = iterator;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using ContainerType = ArrayObj;
  // Not every ArrayObj is one of these: the elements' types are checked too.
  static constexpr bool _type_container_is_exact = false;
  static constexpr bool _type_is_nullable = false;
  static constexpr bool _type_custom_any_traits = true;

  /*! \brief An empty array with capacity 4. */
  Array() : ObjectRef(make_object<ArrayObj>()) {}
  Array(const Array&) = default;
  Array(Array&&) = default;
  Array& operator=(const Array&) = default;
  Array& operator=(Array&&) = default;
  explicit Array(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}
  explicit Array(UnsafeInit tag) : ObjectRef(tag) {}

  /*! \brief Share an array whose elements are all also T's (Array<Derived> as Array<Base>). */
  template <typename U, typename = std::enable_if_t<detail::kSeqElementUpcast<T, U>>>
  Array(const Array<U>& other)  // NOLINT(runtime/explicit)
      : ObjectRef(detail::ObjectUnsafe::GetObjectPtr(other)) {}
  template <typename U, typename = std::enable_if_t<detail::kSeqElementUpcast<T, U>>>
  Array(Array<U>&& other)  // NOLINT(runtime/explicit)
      : ObjectRef(std::move(detail::ObjectUnsafe::GetObjectPtrMutable(other))) {}

  Array(std::initializer_list<T> init) : Array(init.begin(), init.end()) {}  // NOLINT
  Array(const std::vector<T>& init) : Array(init.begin(), init.end()) {}     // NOLINT
  /*! \brief n copies of value. */
  Array(size_t n, const T& value) : ObjectRef(nullptr) {
    ObjectPtr<ArrayObj> p = detail::SeqAllocInplace<ArrayObj>(static_cast<int64_t>(n));
    for (size_t i = 0; i < n; ++i) p->AppendCellUnchecked(detail::SeqToCell<T>(value));
    data_ = std::move(p);
  }
  /*! \brief The elements of [first, last). */
  template <typename IterType, typename = std::enable_if_t<detail::IsIteratorLike<IterType>::value>>
  Array(IterType first, IterType last) : ObjectRef(nullptr) {
    Assign(first, last);
  }

  /*! \brief Replace the content by the elements of [first, last). */
  template <typename IterType, typename = std::enable_if_t<detail::IsIteratorLike<IterType>::value>>
  void Assign(IterType first, IterType last) {
    int64_t n = 0;
    if constexpr (std::is_base_of_v<std::forward_iterator_tag,
                                    typename std::iterator_traits<IterType>::iterator_category>) {
      n = static_cast<int64_t>(std::distance(first, last));
    }
    ObjectPtr<ArrayObj> p = detail::SeqAllocInplace<ArrayObj>(n);
    for (; first != last; ++first) {
      if (p->SeqCell()->size == p->SeqCell()->capacity) {
        p = detail::SeqStealFrom<ArrayObj>(
            p.get(), std::max<int64_t>(detail::kArrayInitCapacity, p->SeqCell()->capacity * 2));
      }
      p->AppendCellUnchecked(detail::SeqToCell<T>(*first));
    }
    data_ = std::move(p);
  }

  /*! \return The number of elements. */
  size_t size() const { return data_ ? static_cast<size_t>(obj()->SeqCell()->size) : 0; }
  /*! \return The number of slots allocated. */
  size_t capacity() const { return data_ ? static_cast<size_t>(obj()->SeqCell()->capacity) : 0; }
  bool empty() const { return size() == 0; }

  /*! \return The element at i; IndexError when i is out of range. */
  T operator[](int64_t i) const { return detail::SeqFromCell<T>(CheckedCell(i)); }
  T at(int64_t i) const { return operator[](i); }
  T front() const {
    if (empty()) TVM_FFI_THROW(IndexError) << "front() on empty sequence";
    return detail::SeqFromCell<T>(obj()->slots());
  }
  T back() const {
    if (empty()) TVM_FFI_THROW(IndexError) << "back() on empty sequence";
    return detail::SeqFromCell<T>(obj()->slots() + obj()->SeqCell()->size - 1);
  }

  iterator begin() const { return iterator(data_ ? obj()->slots() : nullptr); }
  iterator end() const {
    return iterator(data_ ? obj()->slots() + obj()->SeqCell()->size : nullptr);
  }
  reverse_iterator rbegin() const { return reverse_iterator(end()); }
  reverse_iterator rend() const { return reverse_iterator(begin()); }

  /*! \brief Append an element. */
  void push_back(const T& item) {
    detail::CellBuffer cells;
    cells.push_back(detail::SeqToCell<T>(item));
    AppendCells(&cells);
  }
  void push_back(T&& item) {
    detail::CellBuffer cells;
    cells.push_back(detail::SeqToCell<T>(std::move(item)));
    AppendCells(&cells);
  }
  /*! \brief Construct an element in place at the end. */
  template <typename... Args>
  void emplace_back(Args&&... args) {
    push_back(T(std::forward<Args>(args)...));
  }
  /*! \brief Remove the last element; IndexError when empty. */
  void pop_back() {
    if (empty()) TVM_FFI_THROW(IndexError) << "pop_back on empty sequence";
    ArrayObj* p = CopyOnWrite(0);
    p->ShrinkTo(p->SeqCell()->size - 1);
  }
  /*! \brief Insert item before position. */
  iterator insert(iterator position, const T& item) {
    detail::CellBuffer cells;
    cells.push_back(detail::SeqToCell<T>(item));
    return InsertCells(position, &cells);
  }
  /*! \brief Insert the elements of [first, last) before position. */
  template <typename IterType, typename = std::enable_if_t<detail::IsIteratorLike<IterType>::value>>
  iterator insert(iterator position, IterType first, IterType last) {
    detail::CellBuffer cells;
    for (; first != last; ++first) cells.push_back(detail::SeqToCell<T>(*first));
    return InsertCells(position, &cells);
  }
  /*! \brief Remove the element at position. */
  iterator erase(iterator position) { return erase(position, position + 1); }
  /*! \brief Remove the elements of [first, last). */
  iterator erase(iterator first, iterator last) {
    int64_t lo = first - begin(), hi = last - begin();
    if (lo == hi) return begin() + lo;  // an empty range is a no-op wherever it is
    int64_t n = static_cast<int64_t>(size());
    if (lo < 0 || hi > n || lo > hi) {
      TVM_FFI_THROW(IndexError) << "Erase range [" << lo << ", " << hi << ") out of bounds " << n;
    }
    ArrayObj* p = CopyOnWrite(0);
    p->EraseRange(lo, hi);
    return iterator(p->slots() + lo);
  }
  /*! \brief Replace the element at i; IndexError when out of range. */
  void Set(int64_t i, T value) {
    CheckedCell(i);
    detail::CellBuffer cells;
    cells.push_back(detail::SeqToCell<T>(std::move(value)));
    CopyOnWrite(0)->SetCell(i, *cells.data());
    cells.release();
  }
  /*! \brief Resize to n elements, appending default-constructed T's. */
  void resize(int64_t n) {
    if (n < 0) TVM_FFI_THROW(ValueError) << "cannot resize an Array to negative size";
    int64_t cur = static_cast<int64_t>(size());
    if (n == cur) return;
    if (n < cur) {
      CopyOnWrite(0)->ShrinkTo(n);
      return;
    }
    detail::CellBuffer cells;
    cells.reserve(static_cast<size_t>(n - cur));
    for (int64_t i = cur; i < n; ++i) cells.push_back(detail::SeqToCell<T>(T()));
    AppendCells(&cells);
  }
  /*! \brief Make room for n elements. */
  void reserve(int64_t n) {
    if (n > static_cast<int64_t>(capacity())) CopyOnWrite(n);
  }
  /*! \brief Remove all elements. */
  void clear() {
    if (empty()) return;
    if (data_.unique()) {
      obj()->ShrinkTo(0);
    } else {
      data_ = detail::SeqAllocInplace<ArrayObj>(0);
    }
  }

  /*! \return A new array of f(x) for each element (the same array when f changes nothing). */
  template <typename F, typename U = std::decay_t<std::invoke_result_t<F, T>>>
  Array<U> Map(F f) const {
    if constexpr (std::is_same_v<U, T> && std::is_base_of_v<ObjectRef, T>) {
      // Share the object until the first element that f actually changes.
      int64_t n = static_cast<int64_t>(size());
      for (int64_t i = 0; i < n; ++i) {
        T old = (*this)[i];
        U mapped = f(old);
        if (!mapped.same_as(old)) {
          Array<U> out(begin(), begin() + i);
          out.reserve(n);
          out.push_back(std::move(mapped));
          for (int64_t j = i + 1; j < n; ++j) out.push_back(f((*this)[j]));
          return out;
        }
      }
      return *this;
    } else {
      Array<U> out;
      out.reserve(static_cast<int64_t>(size()));
      for (T x : *this) out.push_back(f(std::move(x)));
      return out;
    }
  }

  /*!
   * \brief Replace every element x by fmap(x): in place when this handle is
   *  the only owner (each element is handed to fmap by value, uniquely),
   *  else through Map (other handles keep the old elements). If fmap throws
   *  in place, the element being mapped is left None.
   */
  template <typename F>
  void MutateByApply(F fmap) {
    if (data_ == nullptr) return;
    if (!data_.unique()) {
      *this = Map(fmap);
      return;
    }
    ArrayObj* o = obj();
    for (int64_t i = 0; i < o->SeqCell()->size; ++i) {
      Any cur = detail::AnyUnsafe::MoveTVMFFIAnyToAny(o->slots() + i);
      T mapped = [&]() -> T {
        if constexpr (std::is_same_v<T, Any>) {
          return fmap(std::move(cur));
        } else {
          return fmap(std::move(cur).template cast<T>());
        }
      }();
      o->slots()[i] = detail::AnyUnsafe::MoveAnyToTVMFFIAny(Any(std::move(mapped)));
    }
  }

  /*!
   * \brief One array of the arguments in order: each Array<T> argument contributes its
   *  elements, any other argument is one element (converted to T).
   *  `Array<int>::Agregate(1, Array<int>{2, 3}, 4)` is {1, 2, 3, 4}.
   */
  template <typename... Args>
  static Array<T> Agregate(Args&&... args) {
    Array<T> result;
    (AgregateOne(&result, std::forward<Args>(args)), ...);
    return result;
  }

  /*! \return The ArrayObj itself (mutable; callers must respect copy-on-write). */
  ArrayObj* GetArrayObj() const { return obj(); }

  /*! \return The ArrayObj, copied first if shared (for in-place edits), with room for min_capacity.
   */
  ArrayObj* CopyOnWrite(int64_t min_capacity = 0) {
    if (!data_) {
      data_ = detail::SeqAllocInplace<ArrayObj>(min_capacity);
    } else if (!data_.unique()) {
      const TVMFFIAny* s = obj()->slots();
      data_ = detail::SeqCopyFrom<ArrayObj>(s, s + obj()->SeqCell()->size, min_capacity);
    } else if (obj()->SeqCell()->capacity < min_capacity) {
      // Slots live inside the object, so growing means a new object.
      data_ = detail::SeqStealFrom<ArrayObj>(obj(), min_capacity);
    }
    return obj();
  }
  /*! \return The underlying object. */
  const ArrayObj* get() const { return obj(); }
  const ArrayObj* operator->() const { return obj(); }

 private:
  ArrayObj* obj() const { return static_cast<ArrayObj*>(data_.get()); }

  template <typename U>
  static void AgregateOne(Array<T>* result, U&& value) {
    if constexpr (std::is_same_v<std::decay_t<U>, Array<T>>) {
      result->insert(result->end(), value.begin(), value.end());
    } else {
      result->push_back(T(std::forward<U>(value)));
    }
  }

  const TVMFFIAny* CheckedCell(int64_t i) const {
    int64_t n = static_cast<int64_t>(size());
    if (i < 0 || i >= n) detail::ThrowSeqIndexError("Array", i, n);
    return obj()->slots() + i;
  }

  void AppendCells(detail::CellBuffer* cells) {
    int64_t need = static_cast<int64_t>(size()) + cells->size();
    int64_t cap = static_cast<int64_t>(capacity());
    if (need > cap && data_.unique())
      need = std::max<int64_t>(need, std::max<int64_t>(detail::kArrayInitCapacity, cap * 2));
    ArrayObj* p = CopyOnWrite(need);
    p->InsertCellsUnchecked(p->SeqCell()->size, cells->data(), cells->size());
    cells->release();
  }

  iterator InsertCells(iterator position, detail::CellBuffer* cells) {
    int64_t pos = position - begin();
    int64_t n = static_cast<int64_t>(size());
    if (pos < 0 || pos > n) {
      TVM_FFI_THROW(IndexError) << "Index " << pos << " out of bounds [0, " << n << "]";
    }
    int64_t need = n + cells->size();
    int64_t cap = static_cast<int64_t>(capacity());
    if (need > cap && data_.unique())
      need = std::max<int64_t>(need, std::max<int64_t>(detail::kArrayInitCapacity, cap * 2));
    ArrayObj* p = CopyOnWrite(need);
    p->InsertCellsUnchecked(pos, cells->data(), cells->size());
    cells->release();
    return iterator(p->slots() + pos);
  }
};

/*! \brief Array<T> can share the storage of Array<U> when T subsumes U. */
template <typename T, typename U>
inline constexpr bool type_subsumes_v<Array<T>, Array<U>, void> = type_subsumes_v<T, U>;

/*! \brief Concatenation of two arrays. */
template <typename T>
inline Array<T> Concat(Array<T> lhs, const Array<T>& rhs) {
  lhs.insert(lhs.end(), rhs.begin(), rhs.end());
  return lhs;
}

namespace detail {
/*!
 * \brief The Any conversions shared by Array<T> and List<T>: SeqRef over the
 *  object type Obj (the strict type); `Other` is the sequence kind also
 *  accepted by copying in TryCast.
 */
template <typename SeqRef, typename T, typename Obj, int32_t kOtherIndex>
struct SeqTypeTraitsBase : TypeTraitsBase {
  static void CopyToAnyView(const SeqRef& src, TVMFFIAny* r) {
    ObjectRefTypeTraitsBase<ObjectRef>::CopyToAnyView(src, r);
  }
  static void MoveToAny(SeqRef src, TVMFFIAny* r) {
    ObjectRefTypeTraitsBase<ObjectRef>::MoveToAny(std::move(src), r);
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    if (src->type_index != Obj::_type_index) return false;
    return SeqFirstNonStrict<T>(AsSeq(src->v_obj)) < 0;
  }
  static SeqRef CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return ObjectUnsafe::ObjectRefFromObjectPtr<SeqRef>(
        ObjectUnsafe::ObjectPtrFromUnowned<Object>(src->v_obj));
  }
  static SeqRef MoveFromAnyAfterCheck(TVMFFIAny* src) {
    TVMFFIObject* obj = src->v_obj;
    SetNone(src);
    return ObjectUnsafe::ObjectRefFromObjectPtr<SeqRef>(
        ObjectUnsafe::ObjectPtrFromOwned<Object>(obj));
  }
  static std::optional<SeqRef> TryCastFromAnyView(const TVMFFIAny* src) {
    TVMFFIObject* raw = AnyObjectOrNull(src);
    if (raw == nullptr) return std::nullopt;
    if (raw->type_index == Obj::_type_index) {
      const SeqBaseObj* seq = AsSeq(raw);
      int64_t first = SeqFirstNonStrict<T>(seq);
      if (first < 0) {
        return ObjectUnsafe::ObjectRefFromObjectPtr<SeqRef>(
            ObjectUnsafe::ObjectPtrFromUnowned<Object>(raw));
      }
      return Wrap(SeqConvertElements<T, Obj>(seq, first));
    }
    if (raw->type_index == kOtherIndex) return Wrap(SeqConvertElements<T, Obj>(AsSeq(raw), 0));
    return std::nullopt;
  }
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    return SeqMismatchInfo<T>(src, Obj::_type_index == kTVMFFIList ? "List" : "Array");
  }

 private:
  static const SeqBaseObj* AsSeq(TVMFFIObject* obj) {
    return static_cast<const SeqBaseObj*>(reinterpret_cast<const Object*>(obj));
  }
  static std::optional<SeqRef> Wrap(ObjectPtr<Obj> p) {
    if (p == nullptr) return std::nullopt;
    return ObjectUnsafe::ObjectRefFromObjectPtr<SeqRef>(std::move(p));
  }
};
}  // namespace detail

template <typename T>
struct TypeTraits<Array<T>> : detail::SeqTypeTraitsBase<Array<T>, T, ArrayObj, kTVMFFIList> {
  static std::string TypeStr() { return "Array<" + TypeTraits<T>::TypeStr() + ">"; }
  static std::string TypeSchema() {
    return detail::SchemaWithArgs("ffi.Array", {TypeTraits<T>::TypeSchema()});
  }
};

TVM_FFI_NAMESPACE_END
#endif  // TVM_FFI_CONTAINER_ARRAY_H_
