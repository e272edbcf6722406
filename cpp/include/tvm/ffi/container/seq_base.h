/*
 * Shared machinery of the sequence containers (Array, List, Tuple).
 *
 * ArrayObj and ListObj are an Object header followed by the TVMFFISeqCell of
 * the ABI (docs/abi.md §2.4): `data` points to `capacity` raw TVMFFIAny slots, the
 * first `size` of which each own their value. Compiled code of other
 * implementations (and the Python binding) reads this cell directly, so the
 * slots are kept as plain TVMFFIAny and ownership is managed by hand here.
 *
 * Slots either live in the object's own allocation (data_deleter == NULL,
 * made by make_inplace_array_object) or in a separately allocated buffer that
 * data_deleter frees (a List that outgrew its first allocation).
 */
#ifndef TVM_FFI_CONTAINER_SEQ_BASE_H_
#define TVM_FFI_CONTAINER_SEQ_BASE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/release_scope.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/type_traits.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN

namespace detail {

/*! \brief Release the value owned by a slot (the slot is left as None). */
inline void SeqReleaseCell(TVMFFIAny* cell) {
  if (cell->type_index >= kTVMFFIStaticObjectBegin) ObjectUnsafe::DecRef(cell->v_obj);
  SetNone(cell);
}

/*! \brief A new owned copy of a slot's value. */
inline TVMFFIAny SeqCopyCell(const TVMFFIAny& cell) {
  if (cell.type_index >= kTVMFFIStaticObjectBegin) ObjectUnsafe::IncRef(cell.v_obj);
  return cell;
}

/*!
 * \brief Common base of ArrayObj and ListObj: the header, then the sequence cell.
 *
 * The public members are the element API of cpp_api.md §2.12 (size(), at(),
 * insert(), erase(), ...); they hide the cell fields of the same names, which
 * code of this project reaches through SeqCell().
 */
class SeqBaseObj : public Object, public TVMFFISeqCell {
 public:
  /*!
   * \brief Whether the slots always live in a buffer from global operator new
   *  with a non-null data_deleter (List: code built against other headers
   *  grows such a buffer inline and calls the existing data_deleter).
   */
  static constexpr bool kSeqBufferOutOfLine = false;

  SeqBaseObj() {
    data = nullptr;
    TVMFFISeqCell::size = 0;
    TVMFFISeqCell::capacity = 0;
    data_deleter = nullptr;
  }
  SeqBaseObj(const SeqBaseObj&) = delete;
  SeqBaseObj& operator=(const SeqBaseObj&) = delete;
  ~SeqBaseObj() {
    TVMFFIAny* s = slots();
    {
      detail::ContainerReleaseScope release;
      for (int64_t i = 0; i < TVMFFISeqCell::size; ++i) release.Release(s[i]);
    }
    TVMFFISeqCell::size = 0;
    if (data_deleter != nullptr) data_deleter(data);
  }

  // ---- element API (cpp_api.md §2.12) ----------------------------------------

  /*! \return The number of elements. */
  size_t size() const { return static_cast<size_t>(TVMFFISeqCell::size); }
  /*! \return The number of slots allocated. */
  size_t capacity() const { return static_cast<size_t>(TVMFFISeqCell::capacity); }
  /*! \return Whether there are no elements. */
  bool empty() const { return TVMFFISeqCell::size == 0; }
  /*! \return The element at i; IndexError "Index <i> out of bounds <size>" (negatives too). */
  const Any& at(int64_t i) const {
    CheckIndex(i);
    return AnySlots()[i];
  }
  /*! \brief Same as at(). */
  const Any& operator[](int64_t i) const { return at(i); }
  /*! \return The first element; IndexError when empty. */
  const Any& front() const {
    if (empty()) TVM_FFI_THROW(IndexError) << "front() on empty sequence";
    return AnySlots()[0];
  }
  /*! \return The last element; IndexError when empty. */
  const Any& back() const {
    if (empty()) TVM_FFI_THROW(IndexError) << "back() on empty sequence";
    return AnySlots()[TVMFFISeqCell::size - 1];
  }
  /*! \return The first element slot. */
  const Any* begin() const { return AnySlots(); }
  /*! \return One past the last element slot. */
  const Any* end() const { return AnySlots() + TVMFFISeqCell::size; }
  /*! \brief Remove every element (the capacity stays). */
  void clear() { ShrinkTo(0); }
  /*! \brief Replace the element at i; IndexError as at(). */
  void SetItem(int64_t i, Any value) {
    CheckIndex(i);
    SetItemAfterCheck(i, std::move(value));
  }
  /*! \brief Replace the element at i, which the caller checked to be in range. */
  void SetItemAfterCheck(int64_t i, Any value) {
    SetCell(i, AnyUnsafe::MoveAnyToTVMFFIAny(std::move(value)));
  }
  /*!
   * \brief Construct the elements of [first, last) in the slots from idx on, which must
   *  be the end of the sequence (idx == size()); the size grows by their number.
   */
  template <typename Iter>
  void InitRange(int64_t idx, Iter first, Iter last) {
    if (idx != TVMFFISeqCell::size) {
      TVM_FFI_THROW(IndexError) << "InitRange at " << idx << " must start at the end "
                                << TVMFFISeqCell::size;
    }
    for (; first != last; ++first) {
      Any v(*first);
      GrowBuffer(TVMFFISeqCell::size + 1);
      AppendCellUnchecked(AnyUnsafe::MoveAnyToTVMFFIAny(std::move(v)));
    }
  }
  /*! \brief Remove the last element; IndexError "pop_back on empty sequence". */
  void pop_back() {
    if (empty()) TVM_FFI_THROW(IndexError) << "pop_back on empty sequence";
    ShrinkTo(TVMFFISeqCell::size - 1);
  }
  /*! \brief Remove the element at idx; IndexError as at(). */
  void erase(int64_t idx) {
    CheckIndex(idx);
    EraseRange(idx, idx + 1);
  }
  /*!
   * \brief Remove the elements of [first, last): a no-op when first == last, else
   *  0 <= first < last <= size() or IndexError "Erase range [f, l) out of bounds <size>".
   */
  void erase(int64_t first, int64_t last) {
    if (first == last) return;
    if (first < 0 || last > TVMFFISeqCell::size || first > last) {
      TVM_FFI_THROW(IndexError) << "Erase range [" << first << ", " << last << ") out of bounds "
                                << TVMFFISeqCell::size;
    }
    EraseRange(first, last);
  }
  /*! \brief Insert value before idx (0 <= idx <= size(), else IndexError). */
  void insert(int64_t idx, Any value) {
    CheckInsertIndex(idx);
    TVMFFIAny cell = AnyUnsafe::MoveAnyToTVMFFIAny(std::move(value));
    try {
      GrowBuffer(TVMFFISeqCell::size + 1);
    } catch (...) {
      SeqReleaseCell(&cell);
      throw;
    }
    InsertCellsUnchecked(idx, &cell, 1);
  }
  /*! \brief Insert the elements of [first, last) before idx (0 <= idx <= size()). */
  template <typename Iter>
  void insert(int64_t idx, Iter first, Iter last) {
    CheckInsertIndex(idx);
    std::vector<Any> values;
    for (; first != last; ++first) values.emplace_back(*first);
    int64_t n = static_cast<int64_t>(values.size());
    GrowBuffer(TVMFFISeqCell::size + n);
    std::vector<TVMFFIAny> cells;
    cells.reserve(values.size());
    for (Any& v : values) cells.push_back(AnyUnsafe::MoveAnyToTVMFFIAny(std::move(v)));
    InsertCellsUnchecked(idx, cells.data(), n);
  }
  /*! \brief Reverse the order of the elements in place. */
  void Reverse() { std::reverse(slots(), slots() + TVMFFISeqCell::size); }
  /*! \brief Shrink to n elements or grow with None; ValueError when n is negative. */
  void resize(int64_t n) {
    if (n < 0) TVM_FFI_THROW(ValueError) << "Cannot resize to negative size";
    if (n <= TVMFFISeqCell::size) {
      ShrinkTo(n);
      return;
    }
    GrowBuffer(n);
    while (TVMFFISeqCell::size < n) {
      TVMFFIAny none;
      SetNone(&none);
      AppendCellUnchecked(none);
    }
  }

  // ---- the raw cell, for this project's container code ---------------------------

  /*! \return The ABI cell (size, capacity, data, data_deleter). */
  TVMFFISeqCell* SeqCell() { return this; }
  const TVMFFISeqCell* SeqCell() const { return this; }
  /*! \return The first slot. */
  TVMFFIAny* slots() const { return static_cast<TVMFFIAny*>(data); }
  /*! \return The element at i as a borrowed view (IndexError when out of range). */
  AnyView GetItem(int64_t i) const;

  /*! \brief Append an owned cell; the caller ensured capacity. */
  void AppendCellUnchecked(TVMFFIAny cell) { slots()[TVMFFISeqCell::size++] = cell; }
  /*! \brief Destroy the elements [n, size). */
  void ShrinkTo(int64_t n) {
    TVMFFIAny* s = slots();
    for (int64_t i = n; i < TVMFFISeqCell::size; ++i) SeqReleaseCell(s + i);
    if (n < TVMFFISeqCell::size) TVMFFISeqCell::size = n;
  }
  /*! \brief Move n owned cells into position pos; the caller ensured capacity. */
  void InsertCellsUnchecked(int64_t pos, const TVMFFIAny* cells, int64_t n) {
    TVMFFIAny* s = slots();
    if (n == 0) return;
    std::memmove(static_cast<void*>(s + pos + n), static_cast<const void*>(s + pos),
                 static_cast<size_t>(TVMFFISeqCell::size - pos) * sizeof(TVMFFIAny));
    std::memcpy(static_cast<void*>(s + pos), static_cast<const void*>(cells),
                static_cast<size_t>(n) * sizeof(TVMFFIAny));
    TVMFFISeqCell::size += n;
  }
  /*! \brief Destroy the elements [first, last) and close the gap. */
  void EraseRange(int64_t first, int64_t last) {
    TVMFFIAny* s = slots();
    for (int64_t i = first; i < last; ++i) SeqReleaseCell(s + i);
    std::memmove(static_cast<void*>(s + first), static_cast<const void*>(s + last),
                 static_cast<size_t>(TVMFFISeqCell::size - last) * sizeof(TVMFFIAny));
    TVMFFISeqCell::size -= last - first;
  }
  /*! \brief Replace the element at i by an owned cell. */
  void SetCell(int64_t i, TVMFFIAny cell) {
    TVMFFIAny old = slots()[i];
    slots()[i] = cell;
    SeqReleaseCell(&old);
  }

  /*! \brief The data_deleter of buffers allocated by GrowBuffer. */
  static void FreeBuffer(void* buf) { ::operator delete(buf); }

  /*!
   * \brief Give the object room for at least min_capacity slots, moving the
   *  elements to a separately allocated buffer (amortized doubling).
   */
  void GrowBuffer(int64_t min_capacity) {
    int64_t cap = TVMFFISeqCell::capacity;
    if (min_capacity <= cap) return;
    int64_t new_cap = cap * 2;
    if (new_cap < 4) new_cap = 4;
    if (new_cap < min_capacity) new_cap = min_capacity;
    void* buf = ::operator new(static_cast<size_t>(new_cap) * sizeof(TVMFFIAny));
    if (TVMFFISeqCell::size != 0) {
      std::memcpy(buf, data, static_cast<size_t>(TVMFFISeqCell::size) * sizeof(TVMFFIAny));
    }
    if (data_deleter != nullptr) data_deleter(data);
    data = buf;
    TVMFFISeqCell::capacity = new_cap;
    data_deleter = &SeqBaseObj::FreeBuffer;
  }

 private:
  const Any* AnySlots() const { return reinterpret_cast<const Any*>(data); }
  void CheckIndex(int64_t i) const {
    if (i < 0 || i >= TVMFFISeqCell::size) {
      TVM_FFI_THROW(IndexError) << "Index " << i << " out of bounds " << TVMFFISeqCell::size;
    }
  }
  void CheckInsertIndex(int64_t i) const {
    if (i < 0 || i > TVMFFISeqCell::size) {
      TVM_FFI_THROW(IndexError) << "Index " << i << " out of bounds [0, " << TVMFFISeqCell::size
                                << "]";
    }
  }
};

// Elements are read in place as Any: the two must have one layout.
static_assert(sizeof(Any) == sizeof(TVMFFIAny) && alignof(Any) == alignof(TVMFFIAny),
              "Any must be exactly one TVMFFIAny");

// The cell must follow the 24-byte header directly (docs/abi.md §2.4).
static_assert(sizeof(SeqBaseObj) == sizeof(TVMFFIObject) + sizeof(TVMFFISeqCell),
              "SeqBaseObj must be the object header followed by TVMFFISeqCell");

[[noreturn]] inline void ThrowSeqIndexError(const char* container, int64_t index, int64_t size) {
  (void)container;  // the agreed message names the index and the size only
  TVM_FFI_THROW(IndexError) << "Index " << index << " out of bounds " << size;
  TVM_FFI_UNREACHABLE();  // the builder above throws
}

inline AnyView SeqBaseObj::GetItem(int64_t i) const {
  if (i < 0 || i >= TVMFFISeqCell::size) {
    ThrowSeqIndexError(type_index() == kTVMFFIList ? "List" : "Array", i, TVMFFISeqCell::size);
  }
  return AnyView::CopyFromTVMFFIAny(slots()[i]);
}

/*!
 * \brief Allocate an empty sequence object of type Obj with room for capacity slots (in place,
 *  or in a separate buffer for kSeqBufferOutOfLine types).
 */
template <typename Obj>
inline ObjectPtr<Obj> SeqAllocInplace(int64_t capacity) {
  if constexpr (Obj::kSeqBufferOutOfLine) {
    ObjectPtr<Obj> p = make_object<Obj>();
    p->data =
        capacity == 0 ? nullptr : ::operator new(static_cast<size_t>(capacity) * sizeof(TVMFFIAny));
    p->SeqCell()->capacity = capacity;
    p->data_deleter = &SeqBaseObj::FreeBuffer;
    return p;
  } else {
    ObjectPtr<Obj> p = make_inplace_array_object<Obj, TVMFFIAny>(static_cast<size_t>(capacity));
    p->data = InplaceArrayBase<Obj, TVMFFIAny>(p.get());
    p->SeqCell()->capacity = capacity;
    return p;
  }
}

/*! \brief A new object of type Obj holding copies of the cells [begin, end), with room for
 * capacity. */
template <typename Obj>
inline ObjectPtr<Obj> SeqCopyFrom(const TVMFFIAny* begin, const TVMFFIAny* end, int64_t capacity) {
  int64_t n = end - begin;
  if (capacity < n) capacity = n;
  ObjectPtr<Obj> p = SeqAllocInplace<Obj>(capacity);
  for (const TVMFFIAny* it = begin; it != end; ++it) p->AppendCellUnchecked(SeqCopyCell(*it));
  return p;
}

/*!
 * \brief A new object of type Obj that takes over the cells of a uniquely
 *  owned sequence (the old object is left empty).
 */
template <typename Obj>
inline ObjectPtr<Obj> SeqStealFrom(SeqBaseObj* from, int64_t capacity) {
  if (capacity < from->SeqCell()->size) capacity = from->SeqCell()->size;
  ObjectPtr<Obj> p = SeqAllocInplace<Obj>(capacity);
  if (from->SeqCell()->size != 0) {
    std::memcpy(p->data, from->data,
                static_cast<size_t>(from->SeqCell()->size) * sizeof(TVMFFIAny));
  }
  p->SeqCell()->size = from->SeqCell()->size;
  from->SeqCell()->size = 0;
  return p;
}

/*! \brief Convert a value to an owned cell (T's own conversion, or the Any itself). */
template <typename T, typename U>
inline TVMFFIAny SeqToCell(U&& value) {
  if constexpr (std::is_same_v<T, Any>) {
    return AnyUnsafe::MoveAnyToTVMFFIAny(Any(std::forward<U>(value)));
  } else {
    TVMFFIAny cell;
    TypeTraits<T>::MoveToAny(T(std::forward<U>(value)), &cell);
    return cell;
  }
}

/*! \brief Read a slot known to hold a T. */
template <typename T>
inline T SeqFromCell(const TVMFFIAny* cell) {
  if constexpr (std::is_same_v<T, Any>) {
    return Any(AnyView::CopyFromTVMFFIAny(*cell));
  } else {
    return TypeTraits<T>::CopyFromAnyViewAfterCheck(cell);
  }
}

/*!
 * \brief Read a slot as T, checking its type: the slots of a shared List can be
 *  changed through another handle (or from Python) to hold anything.
 */
template <typename T>
inline T SeqFromCellChecked(const TVMFFIAny* cell) {
  if constexpr (std::is_same_v<T, Any>) {
    return Any(AnyView::CopyFromTVMFFIAny(*cell));
  } else {
    if (TVM_FFI_LIKELY(TypeTraits<T>::CheckAnyStrict(cell))) {
      return TypeTraits<T>::CopyFromAnyViewAfterCheck(cell);
    }
    std::optional<T> v = TypeTraits<T>::TryCastFromAnyView(cell);
    if (!v.has_value()) {
      TVM_FFI_THROW(TypeError) << "List element of type `"
                               << TypeTraits<T>::GetMismatchTypeInfo(cell)
                               << "` cannot be read as `" << TypeTraits<T>::TypeStr() << "`";
    }
    return std::move(*v);
  }
}

/*! \brief Owned cells that are released unless handed over (exception safety of inserts). */
class CellBuffer {
 public:
  CellBuffer() = default;
  CellBuffer(const CellBuffer&) = delete;
  CellBuffer& operator=(const CellBuffer&) = delete;
  ~CellBuffer() {
    for (TVMFFIAny& c : cells_) SeqReleaseCell(&c);
  }
  void push_back(TVMFFIAny c) { cells_.push_back(c); }
  void reserve(size_t n) { cells_.reserve(n); }
  const TVMFFIAny* data() const { return cells_.data(); }
  int64_t size() const { return static_cast<int64_t>(cells_.size()); }
  /*! \brief Ownership of the cells passed to the caller. */
  void release() { cells_.clear(); }

 private:
  std::vector<TVMFFIAny> cells_;
};

/*!
 * \brief Random-access iterator over slots that yields elements as T by value
 *  (kChecked: verify each element's type on read, for List).
 */
template <typename T, bool kChecked = false>
class SeqIterator {
 public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = T;

  SeqIterator() = default;
  explicit SeqIterator(const TVMFFIAny* p) : ptr_(p) {}

  T operator*() const { return Read(ptr_); }
  T operator[](difference_type n) const { return Read(ptr_ + n); }
  SeqIterator& operator++() {
    ++ptr_;
    return *this;
  }
  SeqIterator operator++(int) {
    SeqIterator r = *this;
    ++ptr_;
    return r;
  }
  SeqIterator& operator--() {
    --ptr_;
    return *this;
  }
  SeqIterator operator--(int) {
    SeqIterator r = *this;
    --ptr_;
    return r;
  }
  SeqIterator& operator+=(difference_type n) {
    ptr_ += n;
    return *this;
  }
  SeqIterator& operator-=(difference_type n) {
    ptr_ -= n;
    return *this;
  }
  friend SeqIterator operator+(SeqIterator it, difference_type n) { return it += n; }
  friend SeqIterator operator+(difference_type n, SeqIterator it) { return it += n; }
  friend SeqIterator operator-(SeqIterator it, difference_type n) { return it -= n; }
  friend difference_type operator-(const SeqIterator& a, const SeqIterator& b) {
    return a.ptr_ - b.ptr_;
  }
  friend bool operator==(const SeqIterator& a, const SeqIterator& b) { return a.ptr_ == b.ptr_; }
  friend bool operator!=(const SeqIterator& a, const SeqIterator& b) { return a.ptr_ != b.ptr_; }
  friend bool operator<(const SeqIterator& a, const SeqIterator& b) { return a.ptr_ < b.ptr_; }
  friend bool operator>(const SeqIterator& a, const SeqIterator& b) { return a.ptr_ > b.ptr_; }
  friend bool operator<=(const SeqIterator& a, const SeqIterator& b) { return a.ptr_ <= b.ptr_; }
  friend bool operator>=(const SeqIterator& a, const SeqIterator& b) { return a.ptr_ >= b.ptr_; }

  /*! \return The slot the iterator points at. */
  const TVMFFIAny* cell() const { return ptr_; }

 private:
  static T Read(const TVMFFIAny* p) {
    if constexpr (kChecked) {
      return SeqFromCellChecked<T>(p);
    } else {
      return SeqFromCell<T>(p);
    }
  }
  const TVMFFIAny* ptr_{nullptr};
};

/*! \brief Whether an element type's strict check can be skipped (Array<Any>). */
template <typename T>
constexpr bool kSeqAcceptsAll = std::is_same_v<T, Any> || std::is_same_v<T, AnyView>;

/*! \brief Index of the first element that is not strictly a T, or -1. */
template <typename T>
inline int64_t SeqFirstNonStrict(const SeqBaseObj* obj) {
  if constexpr (kSeqAcceptsAll<T>) {
    return -1;
  } else {
    const TVMFFIAny* s = obj->slots();
    for (int64_t i = 0; i < obj->SeqCell()->size; ++i) {
      if (!TypeTraits<T>::CheckAnyStrict(s + i)) return i;
    }
    return -1;
  }
}

/*! \brief The sequence object a cell holds (an Array, or a List if accepted), or nullptr. */
inline const SeqBaseObj* SeqObjectOf(const TVMFFIAny* src, bool accept_list) {
  TVMFFIObject* obj = AnyObjectOrNull(src);
  if (obj == nullptr) return nullptr;
  if (obj->type_index == kTVMFFIArray || (accept_list && obj->type_index == kTVMFFIList)) {
    return static_cast<const SeqBaseObj*>(reinterpret_cast<const Object*>(obj));
  }
  return nullptr;
}

/*!
 * \brief Convert every element of src with T's TryCastFromAnyView into a new
 *  Obj; elements before `first` are known strict and are copied as they are.
 *  Returns null when an element does not convert.
 */
template <typename T, typename Obj>
inline ObjectPtr<Obj> SeqConvertElements(const SeqBaseObj* src, int64_t first) {
  const TVMFFIAny* s = src->slots();
  ObjectPtr<Obj> out = SeqAllocInplace<Obj>(src->SeqCell()->size);
  for (int64_t i = 0; i < src->SeqCell()->size; ++i) {
    if (i < first) {
      out->AppendCellUnchecked(SeqCopyCell(s[i]));
      continue;
    }
    if constexpr (kSeqAcceptsAll<T>) {
      out->AppendCellUnchecked(SeqCopyCell(s[i]));
    } else {
      if (TypeTraits<T>::CheckAnyStrict(s + i)) {
        out->AppendCellUnchecked(SeqCopyCell(s[i]));
        continue;
      }
      std::optional<T> v = TypeTraits<T>::TryCastFromAnyView(s + i);
      if (!v.has_value()) return ObjectPtr<Obj>();
      TVMFFIAny cell;
      TypeTraits<T>::MoveToAny(std::move(*v), &cell);
      out->AppendCellUnchecked(cell);
    }
  }
  return out;
}

/*!
 * \brief What a mismatching sequence holds, e.g. "Array[index 1: float]": the
 *  first element that does not convert to T, described by T's traits. `kind`
 *  is the name of the target container ("Array" or "List"), whatever the
 *  sequence kind of src.
 */
template <typename T>
inline std::string SeqMismatchInfo(const TVMFFIAny* src, const char* kind) {
  const SeqBaseObj* obj = SeqObjectOf(src, true);
  if (obj == nullptr) return AnyTypeStr(src);
  if constexpr (!kSeqAcceptsAll<T>) {
    const TVMFFIAny* s = obj->slots();
    for (int64_t i = 0; i < obj->SeqCell()->size; ++i) {
      if (TypeTraits<T>::CheckAnyStrict(s + i)) continue;
      if (TypeTraits<T>::TryCastFromAnyView(s + i).has_value()) continue;
      return std::string(kind) + "[index " + std::to_string(i) + ": " +
             TypeTraits<T>::GetMismatchTypeInfo(s + i) + "]";
    }
  }
  return AnyTypeStr(src);
}

/*!
 * \brief Whether a sequence of U can be shared as a sequence of T without
 *  converting an element (type_subsumes_v: Array<Derived> as Array<Base>,
 *  anything as Array<Any>, element-wise for nested containers).
 */
template <typename T, typename U>
constexpr bool kSeqElementUpcast = !std::is_same_v<T, U> && type_subsumes_v<T, U>;

}  // namespace detail

TVM_FFI_NAMESPACE_END

// Defines the container drain that ~SeqBaseObj's ContainerReleaseScope runs.
#include <tvm/ffi/container/map_base.h>

#endif  // TVM_FFI_CONTAINER_SEQ_BASE_H_
