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

/*! \brief Common base of ArrayObj and ListObj: the header, then the sequence cell. */
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
    size = 0;
    capacity = 0;
    data_deleter = nullptr;
  }
  SeqBaseObj(const SeqBaseObj&) = delete;
  SeqBaseObj& operator=(const SeqBaseObj&) = delete;
  ~SeqBaseObj() {
    TVMFFIAny* s = slots();
    {
      detail::ContainerReleaseScope release;
      for (int64_t i = 0; i < size; ++i) release.Release(s[i]);
    }
    size = 0;
    if (data_deleter != nullptr) data_deleter(data);
  }

  /*! \return The first slot. */
  TVMFFIAny* slots() const { return static_cast<TVMFFIAny*>(data); }
  /*! \return The element at i as a borrowed view (IndexError when out of range). */
  AnyView GetItem(int64_t i) const;

  /*! \brief Append an owned cell; the caller ensured capacity. */
  void AppendCellUnchecked(TVMFFIAny cell) { slots()[size++] = cell; }
  /*! \brief Destroy the elements [n, size). */
  void ShrinkTo(int64_t n) {
    TVMFFIAny* s = slots();
    for (int64_t i = n; i < size; ++i) SeqReleaseCell(s + i);
    if (n < size) size = n;
  }
  /*! \brief Move n owned cells into position pos; the caller ensured capacity. */
  void InsertCellsUnchecked(int64_t pos, const TVMFFIAny* cells, int64_t n) {
    TVMFFIAny* s = slots();
    if (n == 0) return;
    std::memmove(static_cast<void*>(s + pos + n), static_cast<const void*>(s + pos),
                 static_cast<size_t>(size - pos) * sizeof(TVMFFIAny));
    std::memcpy(static_cast<void*>(s + pos), static_cast<const void*>(cells),
                static_cast<size_t>(n) * sizeof(TVMFFIAny));
    size += n;
  }
  /*! \brief Destroy the elements [first, last) and close the gap. */
  void EraseRange(int64_t first, int64_t last) {
    TVMFFIAny* s = slots();
    for (int64_t i = first; i < last; ++i) SeqReleaseCell(s + i);
    std::memmove(static_cast<void*>(s + first), static_cast<const void*>(s + last),
                 static_cast<size_t>(size - last) * sizeof(TVMFFIAny));
    size -= last - first;
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
    if (min_capacity <= capacity) return;
    int64_t new_cap = capacity * 2;
    if (new_cap < 4) new_cap = 4;
    if (new_cap < min_capacity) new_cap = min_capacity;
    void* buf = ::operator new(static_cast<size_t>(new_cap) * sizeof(TVMFFIAny));
    if (size != 0) {
      std::memcpy(buf, data, static_cast<size_t>(size) * sizeof(TVMFFIAny));
    }
    if (data_deleter != nullptr) data_deleter(data);
    data = buf;
    capacity = new_cap;
    data_deleter = &SeqBaseObj::FreeBuffer;
  }
};

// The cell must follow the 24-byte header directly (docs/abi.md §2.4).
static_assert(sizeof(SeqBaseObj) == sizeof(TVMFFIObject) + sizeof(TVMFFISeqCell),
              "SeqBaseObj must be the object header followed by TVMFFISeqCell");

[[noreturn]] inline void ThrowSeqIndexError(const char* container, int64_t index, int64_t size) {
  (void)container;  // the agreed message names the index and the size only
  TVM_FFI_THROW(IndexError) << "Index " << index << " out of bounds " << size;
  TVM_FFI_UNREACHABLE();  // the builder above throws
}

inline AnyView SeqBaseObj::GetItem(int64_t i) const {
  if (i < 0 || i >= size) {
    ThrowSeqIndexError(type_index() == kTVMFFIList ? "List" : "Array", i, size);
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
    p->capacity = capacity;
    p->data_deleter = &SeqBaseObj::FreeBuffer;
    return p;
  } else {
    ObjectPtr<Obj> p = make_inplace_array_object<Obj, TVMFFIAny>(static_cast<size_t>(capacity));
    p->data = InplaceArrayBase<Obj, TVMFFIAny>(p.get());
    p->capacity = capacity;
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
  if (capacity < from->size) capacity = from->size;
  ObjectPtr<Obj> p = SeqAllocInplace<Obj>(capacity);
  if (from->size != 0) {
    std::memcpy(p->data, from->data, static_cast<size_t>(from->size) * sizeof(TVMFFIAny));
  }
  p->size = from->size;
  from->size = 0;
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
    for (int64_t i = 0; i < obj->size; ++i) {
      if (!TypeTraits<T>::CheckAnyStrict(s + i)) return i;
    }
    return -1;
  }
}

/*! \brief Whether the object in a cell (looking through rvalue refs) is a sequence, or nullptr. */
inline const SeqBaseObj* SeqObjectOf(const TVMFFIAny* src, bool accept_list) {
  TVMFFIObject* obj = AnyObjectOrNull(src);
  if (obj == nullptr) return nullptr;
  if (obj->type_index == kTVMFFIArray || (accept_list && obj->type_index == kTVMFFIList)) {
    return static_cast<const SeqBaseObj*>(reinterpret_cast<const Object*>(obj));
  }
  return nullptr;
}

/*! \brief The user name of a sequence object type ("Array" or "List"). */
inline const char* SeqKindName(const SeqBaseObj* obj) {
  return obj->type_index() == kTVMFFIList ? "List" : "Array";
}

/*!
 * \brief Convert every element of src with T's TryCastFromAnyView into a new
 *  Obj; elements before `first` are known strict and are copied as they are.
 *  Returns null when an element does not convert.
 */
template <typename T, typename Obj>
inline ObjectPtr<Obj> SeqConvertElements(const SeqBaseObj* src, int64_t first) {
  const TVMFFIAny* s = src->slots();
  ObjectPtr<Obj> out = SeqAllocInplace<Obj>(src->size);
  for (int64_t i = 0; i < src->size; ++i) {
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
 * \brief What a mismatching sequence holds, e.g. "Array[index 1: float]":
 *  the first element that does not convert to T, described by T's traits.
 */
template <typename T>
inline std::string SeqMismatchInfo(const TVMFFIAny* src) {
  const SeqBaseObj* obj = SeqObjectOf(src, true);
  if (obj == nullptr) return AnyTypeStr(src);
  if constexpr (!kSeqAcceptsAll<T>) {
    const TVMFFIAny* s = obj->slots();
    for (int64_t i = 0; i < obj->size; ++i) {
      if (TypeTraits<T>::CheckAnyStrict(s + i)) continue;
      if (TypeTraits<T>::TryCastFromAnyView(s + i).has_value()) continue;
      return std::string(SeqKindName(obj)) + "[index " + std::to_string(i) + ": " +
             TypeTraits<T>::GetMismatchTypeInfo(s + i) + "]";
    }
  }
  return AnyTypeStr(src);
}

template <typename T, typename U, typename = void>
struct SeqRefUpcast : std::false_type {};
template <typename T, typename U>
struct SeqRefUpcast<T, U,
                    std::enable_if_t<std::is_base_of_v<ObjectRef, T> &&
                                     std::is_base_of_v<ObjectRef, U> && std::is_base_of_v<T, U>>>
    : std::bool_constant<std::is_base_of_v<typename T::ContainerType, typename U::ContainerType> &&
                         (T::_type_is_nullable || !U::_type_is_nullable) &&
                         !HasCustomAnyTraits<T>::value && !HasCustomAnyTraits<U>::value> {};

/*!
 * \brief Whether every strict U is also a strict T, so a sequence of U can be
 *  shared as a sequence of T (Array<Derived> -> Array<Base>, anything -> Array<Any>).
 */
template <typename T, typename U>
constexpr bool kSeqElementUpcast =
    !std::is_same_v<T, U> && (std::is_same_v<T, Any> || SeqRefUpcast<T, U>::value);

}  // namespace detail

TVM_FFI_NAMESPACE_END
#endif  // TVM_FFI_CONTAINER_SEQ_BASE_H_
