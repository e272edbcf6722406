/*
 * List<T>: the mutable sequence of the FFI, shared by reference (ListObj,
 * type index 75, key "ffi.List").
 *
 * Copies of a List are handles to the same ListObj; every mutation is done
 * in place and seen by all of them (and by Python, which reads the same
 * cell). There is no copy-on-write. Because another handle (or Python) may
 * store a value of any type, reads check each element's type (TypeError when
 * it is not a T). Concurrent mutation from several threads needs a lock. The first slots live
 * inside the object; when the list outgrows them it moves to a separately allocated buffer that
 * doubles as it grows (the cell's data_deleter frees it).
 *
 *   List<int> a = {1, 2, 3};
 *   List<int> alias = a;
 *   alias.push_back(4);        // a.size() == 4 too
 */
#ifndef TVM_FFI_CONTAINER_LIST_H_
#define TVM_FFI_CONTAINER_LIST_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/string.h>
#include <tvm/ffi/type_traits.h>

#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN

/*! \brief The object behind List: header + TVMFFISeqCell. */
class ListObj : public detail::SeqBaseObj {
 public:
  static constexpr int32_t _type_index = kTVMFFIList;
  static constexpr bool _type_mutable = true;
  static constexpr bool kSeqBufferOutOfLine = true;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC("ffi.List", ListObj, Object);

  /*! \return A new list of n copies of value (ValueError when n is negative). */
  static ObjectPtr<ListObj> CreateRepeated(int64_t n, const Any& value) {
    if (n < 0) TVM_FFI_THROW(ValueError) << "CreateRepeated: negative size " << n;
    ObjectPtr<ListObj> p = detail::SeqAllocInplace<ListObj>(n);
    for (int64_t i = 0; i < n; ++i) {
      p->AppendCellUnchecked(detail::AnyUnsafe::MoveAnyToTVMFFIAny(Any(value)));
    }
    return p;
  }
};

/*!
 * \brief Mutable homogeneous sequence with shared-reference semantics.
 * \tparam T The element type (Any accepts every value).
 */
template <typename T = Any>
class List : public ObjectRef {
  static_assert(detail::kCanStoreInAny<T> || std::is_same_v<T, Any>,
                "List<T>: T must be convertible to and from Any");

 public:
  using value_type = T;
  using iterator = detail::SeqIterator<T, true>;
  using const_iterator = iterator;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using ContainerType = ListObj;
  // Not every ListObj is one of these: the elements' types are checked too.
  static constexpr bool _type_container_is_exact = false;
  static constexpr bool _type_is_nullable = false;
  static constexpr bool _type_custom_any_traits = true;

  /*! \brief A new empty list. */
  List() : ObjectRef(detail::SeqAllocInplace<ListObj>(0)) {}
  List(const List&) = default;
  List(List&&) = default;
  List& operator=(const List&) = default;
  List& operator=(List&&) = default;
  explicit List(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}
  explicit List(UnsafeInit tag) : ObjectRef(tag) {}

  /*!
   * \brief Share a list whose elements are all also T's (List<Derived> as List<Base>,
   *  anything as List<Any>): both handles see the same ListObj.
   */
  template <typename U, typename = std::enable_if_t<detail::kSeqElementUpcast<T, U>>>
  List(const List<U>& other)  // NOLINT(runtime/explicit)
      : ObjectRef(detail::ObjectUnsafe::GetObjectPtr(other)) {}
  template <typename U, typename = std::enable_if_t<detail::kSeqElementUpcast<T, U>>>
  List(List<U>&& other)  // NOLINT(runtime/explicit)
      : ObjectRef(std::move(detail::ObjectUnsafe::GetObjectPtrMutable(other))) {}

  List(std::initializer_list<T> init) : List(init.begin(), init.end()) {}  // NOLINT
  List(const std::vector<T>& init) : List(init.begin(), init.end()) {}     // NOLINT
  /*! \brief n copies of value. */
  List(size_t n, const T& value) : ObjectRef(nullptr) {
    ObjectPtr<ListObj> p = detail::SeqAllocInplace<ListObj>(static_cast<int64_t>(n));
    for (size_t i = 0; i < n; ++i) p->AppendCellUnchecked(detail::SeqToCell<T>(value));
    data_ = std::move(p);
  }
  /*! \brief A new list of the elements of [first, last). */
  template <typename IterType, typename = std::enable_if_t<detail::IsIteratorLike<IterType>::value>>
  List(IterType first, IterType last) : ObjectRef(nullptr) {
    int64_t n = 0;
    if constexpr (std::is_base_of_v<std::forward_iterator_tag,
                                    typename std::iterator_traits<IterType>::iterator_category>) {
      n = static_cast<int64_t>(std::distance(first, last));
    }
    ObjectPtr<ListObj> p = detail::SeqAllocInplace<ListObj>(n);
    for (; first != last; ++first) {
      p->GrowBuffer(p->SeqCell()->size + 1);
      p->AppendCellUnchecked(detail::SeqToCell<T>(*first));
    }
    data_ = std::move(p);
  }

  /*!
   * \brief Replace the content by the elements of [first, last), in place (every handle sees
   *  it). The elements are converted first, so a failing conversion leaves the list unchanged.
   */
  template <typename IterType, typename = std::enable_if_t<detail::IsIteratorLike<IterType>::value>>
  void Assign(IterType first, IterType last) {
    detail::CellBuffer cells;
    for (; first != last; ++first) cells.push_back(detail::SeqToCell<T>(*first));
    ListObj* p = obj();
    p->GrowBuffer(cells.size());
    p->ShrinkTo(0);
    p->InsertCellsUnchecked(0, cells.data(), cells.size());
    cells.release();
  }

  size_t size() const { return static_cast<size_t>(obj()->SeqCell()->size); }
  size_t capacity() const { return static_cast<size_t>(obj()->SeqCell()->capacity); }
  bool empty() const { return size() == 0; }

  /*! \return The element at i; IndexError when i is out of range. */
  T operator[](int64_t i) const { return detail::SeqFromCellChecked<T>(CheckedCell(i)); }
  T at(int64_t i) const { return operator[](i); }
  T front() const {
    if (empty()) TVM_FFI_THROW(IndexError) << "front() on empty sequence";
    return detail::SeqFromCellChecked<T>(obj()->slots());
  }
  T back() const {
    if (empty()) TVM_FFI_THROW(IndexError) << "back() on empty sequence";
    return detail::SeqFromCellChecked<T>(obj()->slots() + obj()->size - 1);
  }

  iterator begin() const { return iterator(obj()->slots()); }
  iterator end() const { return iterator(obj()->slots() + obj()->SeqCell()->size); }
  reverse_iterator rbegin() const { return reverse_iterator(end()); }
  reverse_iterator rend() const { return reverse_iterator(begin()); }

  /*! \brief Append an element (seen by every handle). */
  void push_back(const T& item) { AppendCell(detail::SeqToCell<T>(item)); }
  void push_back(T&& item) { AppendCell(detail::SeqToCell<T>(std::move(item))); }
  template <typename... Args>
  void emplace_back(Args&&... args) {
    push_back(T(std::forward<Args>(args)...));
  }
  /*! \brief Remove the last element; IndexError when empty. */
  void pop_back() {
    if (empty()) TVM_FFI_THROW(IndexError) << "pop_back on empty sequence";
    obj()->ShrinkTo(obj()->SeqCell()->size - 1);
  }
  /*! \brief Insert item before position. */
  iterator insert(iterator position, const T& item) {
    detail::CellBuffer cells;
    cells.push_back(detail::SeqToCell<T>(item));
    return InsertCells(position - begin(), &cells);
  }
  /*! \brief Insert the elements of [first, last) before position. */
  template <typename IterType, typename = std::enable_if_t<detail::IsIteratorLike<IterType>::value>>
  iterator insert(iterator position, IterType first, IterType last) {
    int64_t pos = position - begin();
    detail::CellBuffer cells;
    for (; first != last; ++first) cells.push_back(detail::SeqToCell<T>(*first));
    return InsertCells(pos, &cells);
  }
  /*! \brief Insert item before index pos (0 <= pos <= size, else IndexError). */
  void insert(int64_t pos, const T& item) {
    detail::CellBuffer cells;
    cells.push_back(detail::SeqToCell<T>(item));
    InsertCells(pos, &cells);
  }
  /*! \brief Remove the element at position. */
  iterator erase(iterator position) { return erase(position, position + 1); }
  /*! \brief Remove the elements of [first, last). */
  iterator erase(iterator first, iterator last) {
    int64_t lo = first - begin(), hi = last - begin();
    EraseRange(lo, hi);
    return iterator(obj()->slots() + lo);
  }
  /*! \brief Remove the element at index i (IndexError when out of range). */
  void erase(int64_t i) {
    CheckedCell(i);
    EraseRange(i, i + 1);
  }
  /*! \brief Replace the element at i; IndexError when out of range. */
  void Set(int64_t i, T value) {
    CheckedCell(i);
    obj()->SetCell(i, detail::SeqToCell<T>(std::move(value)));
  }
  /*! \brief Resize to n elements, appending default-constructed T's. */
  void resize(int64_t n) {
    if (n < 0) TVM_FFI_THROW(ValueError) << "cannot resize a List to negative size";
    int64_t cur = obj()->SeqCell()->size;
    if (n <= cur) {
      obj()->ShrinkTo(n);
      return;
    }
    detail::CellBuffer cells;
    cells.reserve(static_cast<size_t>(n - cur));
    for (int64_t i = cur; i < n; ++i) cells.push_back(detail::SeqToCell<T>(T()));
    InsertCells(cur, &cells);
  }
  /*! \brief Make room for n elements. */
  void reserve(int64_t n) { obj()->GrowBuffer(n); }
  /*! \brief Remove all elements. */
  void clear() { obj()->ShrinkTo(0); }

  const ListObj* get() const { return obj(); }
  const ListObj* operator->() const { return obj(); }
  /*! \return The object, for in-place edits (shared by all handles). */
  ListObj* GetListObj() const { return obj(); }

 private:
  ListObj* obj() const { return static_cast<ListObj*>(data_.get()); }

  const TVMFFIAny* CheckedCell(int64_t i) const {
    int64_t n = obj()->SeqCell()->size;
    if (i < 0 || i >= n) detail::ThrowSeqIndexError("List", i, n);
    return obj()->slots() + i;
  }
  void AppendCell(TVMFFIAny cell) {
    detail::CellBuffer cells;
    cells.push_back(cell);
    InsertCells(obj()->SeqCell()->size, &cells);
  }
  iterator InsertCells(int64_t pos, detail::CellBuffer* cells) {
    ListObj* p = obj();
    if (pos < 0 || pos > p->SeqCell()->size) {
      TVM_FFI_THROW(IndexError) << "Index " << pos << " out of bounds [0, " << p->SeqCell()->size
                                << "]";
    }
    p->GrowBuffer(p->SeqCell()->size + cells->size());
    p->InsertCellsUnchecked(pos, cells->data(), cells->size());
    cells->release();
    return iterator(p->slots() + pos);
  }
  void EraseRange(int64_t lo, int64_t hi) {
    if (lo == hi) return;  // an empty range is a no-op wherever it is
    int64_t n = obj()->SeqCell()->size;
    if (lo < 0 || hi > n || lo > hi) {
      TVM_FFI_THROW(IndexError) << "Erase range [" << lo << ", " << hi << ") out of bounds " << n;
    }
    obj()->EraseRange(lo, hi);
  }
};

/*! \brief List<T> can share the storage of List<U> when T subsumes U. */
template <typename T, typename U>
inline constexpr bool type_subsumes_v<List<T>, List<U>, void> = type_subsumes_v<T, U>;

template <typename T>
struct TypeTraits<List<T>> : detail::SeqTypeTraitsBase<List<T>, T, ListObj, kTVMFFIArray> {
  static std::string TypeStr() { return "List<" + TypeTraits<T>::TypeStr() + ">"; }
  static std::string TypeSchema() {
    return detail::SchemaWithArgs("ffi.List", {TypeTraits<T>::TypeSchema()});
  }
};

TVM_FFI_NAMESPACE_END
#endif  // TVM_FFI_CONTAINER_LIST_H_
