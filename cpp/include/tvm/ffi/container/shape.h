/*
 * Shape: an immutable, reference-counted sequence of int64 extents (the shape
 * or strides of a tensor), and ShapeView, its non-owning counterpart.
 *
 *   ffi::Shape shape = {1, 2, 3};
 *   ffi::Shape from_vec(std::vector<int64_t>{4, 5});
 *   int64_t n = shape.Product();           // 6
 *   ffi::ShapeView view = shape;           // no copy, no reference
 *   Any a = shape;                         // an ffi.Shape object
 *   Shape s = AnyView(array_of_ints).cast<Shape>();  // Array/List of ints convert
 *
 * Layout (docs/abi.md §2.4): the object header, then TVMFFIShapeCell {data, size};
 * the extents are stored in the same allocation right after the object.
 */
#ifndef TVM_FFI_CONTAINER_SHAPE_H_
#define TVM_FFI_CONTAINER_SHAPE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/type_traits.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN

/*! \brief The object behind Shape: header, then {data, size}, then the extents. */
class ShapeObj : public Object, public TVMFFIShapeCell {
 public:
  ShapeObj() {
    data = nullptr;
    size = 0;
  }
  static constexpr int32_t _type_index = kTVMFFIShape;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC("ffi.Shape", ShapeObj, Object);
};

namespace detail {
/*! \brief The read API shared by Shape and ShapeView (Derived has data() and size()). */
template <typename Derived>
class ShapeReadMixin {
 public:
  using value_type = int64_t;
  using const_iterator = const int64_t*;

  /*! \return The number of extents (the tensor's ndim). */
  size_t ndim() const { return self().size(); }
  bool empty() const { return self().size() == 0; }
  const int64_t* begin() const { return self().data(); }
  const int64_t* end() const { return self().data() + self().size(); }
  /*! \return Extent i (unchecked: use at() for a checked read). */
  int64_t operator[](size_t i) const { return self().data()[i]; }
  /*! \return Extent i; IndexError naming i when it is out of range. */
  int64_t at(size_t i) const {
    if (TVM_FFI_UNLIKELY(i >= self().size())) {
      TVM_FFI_THROW(IndexError) << "indexing " << i << " on a Shape of size " << self().size();
    }
    return self().data()[i];
  }
  int64_t front() const { return at(0); }
  int64_t back() const { return at(self().size() - 1); }
  /*! \return The product of the extents (1 for an empty shape). */
  int64_t Product() const {
    int64_t p = 1;
    for (int64_t v : *this) p *= v;
    return p;
  }
  /*! \return The extents as a std::vector. */
  std::vector<int64_t> ToVector() const { return std::vector<int64_t>(begin(), end()); }

 protected:
  // Element-wise equality with any other shape-like sequence.
  template <typename Other>
  bool SameExtents(const Other& other) const {
    return self().size() == other.size() && std::equal(begin(), end(), other.data());
  }

 private:
  const Derived& self() const { return static_cast<const Derived&>(*this); }
};

/*! \brief Compact row-major strides of shape into out[0..shape.size()). */
inline void FillStridesFromShape(const int64_t* shape, size_t n, int64_t* out) {
  int64_t stride = 1;
  for (size_t i = n; i-- > 0;) {
    out[i] = stride;
    stride *= shape[i];
  }
}

inline std::ostream& PrintExtents(std::ostream& os, const int64_t* data, size_t size) {
  os << '[';
  for (size_t i = 0; i < size; ++i) {
    if (i != 0) os << ", ";
    os << data[i];
  }
  return os << ']';
}
}  // namespace detail

class Shape;

/*!
 * \brief A non-owning view of extents: {pointer, size}. The viewed storage
 *  must outlive the view.
 */
class ShapeView : public detail::ShapeReadMixin<ShapeView> {
 public:
  ShapeView() = default;
  ShapeView(const int64_t* data, size_t size) : data_(data), size_(size) {}
  ShapeView(const std::vector<int64_t>& v)  // NOLINT(runtime/explicit)
      : data_(v.data()), size_(v.size()) {}
  /*! \brief A view of the list's storage (valid for the full expression that wrote it). */
  ShapeView(const std::initializer_list<int64_t>& init) {  // NOLINT(runtime/explicit)
    data_ = init.begin();
    size_ = init.size();
  }
  inline ShapeView(const Shape& shape);  // NOLINT(runtime/explicit)

  const int64_t* data() const { return data_; }
  size_t size() const { return size_; }

  friend bool operator==(const ShapeView& a, const ShapeView& b) { return a.SameExtents(b); }
  friend bool operator!=(const ShapeView& a, const ShapeView& b) { return !a.SameExtents(b); }
  friend std::ostream& operator<<(std::ostream& os, const ShapeView& s) {
    return detail::PrintExtents(os, s.data_, s.size_);
  }

 private:
  const int64_t* data_{nullptr};
  size_t size_{0};
};

/*!
 * \brief An immutable shape (never null: the default is the empty shape).
 *  Copies share the object; == compares extents, not identity.
 */
class Shape : public ObjectRef, public detail::ShapeReadMixin<Shape> {
 public:
  using detail::ShapeReadMixin<Shape>::begin;
  using detail::ShapeReadMixin<Shape>::end;
  using detail::ShapeReadMixin<Shape>::empty;

  /*! \brief The empty shape (a 0-d tensor's). */
  Shape() : Shape(ShapeView()) {}
  Shape(std::initializer_list<int64_t> init)  // NOLINT(runtime/explicit)
      : Shape(ShapeView(init.begin(), init.size())) {}
  Shape(const std::vector<int64_t>& v) : Shape(ShapeView(v)) {}  // NOLINT(runtime/explicit)
  /*! \brief The extents of an array of ints. */
  Shape(const Array<int64_t>& values)  // NOLINT(runtime/explicit)
      : Shape(values.begin(), values.end()) {}
  /*! \brief Copy the extents of a view (e.g. `Shape s = tensor.shape();`). */
  Shape(ShapeView view)  // NOLINT(runtime/explicit)
      : ObjectRef(Alloc(view.data(), view.size())) {}
  /*! \brief Copy the extents of an iterator range (any value convertible to int64_t). */
  template <typename It, typename = typename std::iterator_traits<It>::iterator_category,
            typename = std::enable_if_t<!std::is_integral_v<It>>>
  Shape(It first, It last) : ObjectRef(UnsafeInit{}) {
    std::vector<int64_t> values;
    for (; first != last; ++first) values.push_back(static_cast<int64_t>(*first));
    data_ = Alloc(values.data(), values.size());
  }
  explicit Shape(ObjectPtr<ShapeObj> n) : ObjectRef(std::move(n)) {}
  explicit Shape(UnsafeInit tag) : ObjectRef(tag) {}
  Shape(const Shape&) = default;
  Shape(Shape&&) = default;
  Shape& operator=(const Shape&) = default;
  Shape& operator=(Shape&&) = default;

  const ShapeObj* get() const { return static_cast<const ShapeObj*>(data_.get()); }
  const ShapeObj* operator->() const { return get(); }
  const int64_t* data() const { return get()->data; }
  size_t size() const { return get()->size; }

  /*! \brief Equal extents (two distinct objects may be equal). */
  bool operator==(const Shape& other) const { return SameExtents(other); }
  bool operator!=(const Shape& other) const { return !SameExtents(other); }
  bool operator==(const ShapeView& other) const { return SameExtents(other); }
  bool operator!=(const ShapeView& other) const { return !SameExtents(other); }
  friend std::ostream& operator<<(std::ostream& os, const Shape& s) {
    return detail::PrintExtents(os, s.data(), s.size());
  }

  /*! \return The compact row-major strides of shape ({1, 2, 3} -> {6, 3, 1}). */
  static Shape StridesFromShape(ShapeView shape) {
    ObjectPtr<ShapeObj> obj = make_inplace_array_object<ShapeObj, int64_t>(shape.size());
    int64_t* dest = InplaceArrayBase<ShapeObj, int64_t>(obj.get());
    detail::FillStridesFromShape(shape.data(), shape.size(), dest);
    obj->data = dest;
    obj->size = shape.size();
    return Shape(std::move(obj));
  }

  static constexpr bool _type_is_nullable = false;
  static constexpr bool _type_custom_any_traits = true;
  using ContainerType = ShapeObj;

 private:
  static ObjectPtr<Object> Alloc(const int64_t* values, size_t n) {
    ObjectPtr<ShapeObj> obj = make_inplace_array_object<ShapeObj, int64_t>(n);
    int64_t* dest = InplaceArrayBase<ShapeObj, int64_t>(obj.get());
    if (n != 0) std::copy(values, values + n, dest);
    obj->data = dest;
    obj->size = n;
    return obj;
  }
};

inline ShapeView::ShapeView(const Shape& shape) : data_(shape.data()), size_(shape.size()) {}

namespace detail {
/*! \brief A new shape of n extents to fill through *out (valid while the shape lives). */
inline Shape MakeEmptyShape(size_t n, int64_t** out) {
  ObjectPtr<ShapeObj> obj = make_inplace_array_object<ShapeObj, int64_t>(n);
  int64_t* dest = InplaceArrayBase<ShapeObj, int64_t>(obj.get());
  for (size_t i = 0; i < n; ++i) dest[i] = 0;
  obj->data = dest;
  obj->size = n;
  *out = dest;
  return Shape(std::move(obj));
}
/*! \brief A shape of the values in [first, last). */
template <typename It>
inline Shape MakeInplaceShape(It first, It last) {
  return Shape(first, last);
}
/*! \brief The compact row-major strides of shape. */
inline Shape MakeStridesFromShape(ShapeView shape) { return Shape::StridesFromShape(shape); }
}  // namespace detail

/*!
 * \brief Shape is an ffi.Shape object (None is rejected). Casting also
 *  accepts an Array or List whose elements are all ints (or bools).
 */
template <>
struct TypeTraits<Shape> : ObjectRefTypeTraitsBase<Shape> {
  static std::optional<Shape> TryCastFromAnyView(const TVMFFIAny* src) {
    if (std::optional<Shape> exact = ObjectRefTypeTraitsBase<Shape>::TryCastFromAnyView(src)) {
      return exact;
    }
    const TVMFFISeqCell* seq = SeqCellOf(src);
    if (seq == nullptr || FirstNonInt(seq) >= 0) return std::nullopt;
    const TVMFFIAny* slots = static_cast<const TVMFFIAny*>(seq->data);
    std::vector<int64_t> values(static_cast<size_t>(seq->size));
    for (int64_t i = 0; i < seq->size; ++i) {
      values[i] =
          slots[i].type_index == kTVMFFIBool ? (slots[i].v_int64 != 0 ? 1 : 0) : slots[i].v_int64;
    }
    return Shape(values);
  }

 private:
  // The sequence cell of an Array or List (docs/abi.md §2.4), or nullptr.
  static const TVMFFISeqCell* SeqCellOf(const TVMFFIAny* src) {
    TVMFFIObject* obj = detail::AnyObjectOrNull(src);
    if (obj == nullptr || (obj->type_index != kTVMFFIArray && obj->type_index != kTVMFFIList)) {
      return nullptr;
    }
    return reinterpret_cast<const TVMFFISeqCell*>(reinterpret_cast<const char*>(obj) +
                                                  sizeof(TVMFFIObject));
  }
  // Index of the first element that is not an int, -1 when all are.
  static int64_t FirstNonInt(const TVMFFISeqCell* seq) {
    const TVMFFIAny* slots = static_cast<const TVMFFIAny*>(seq->data);
    for (int64_t i = 0; i < seq->size; ++i) {
      if (slots[i].type_index != kTVMFFIInt && slots[i].type_index != kTVMFFIBool) return i;
    }
    return -1;
  }
};

TVM_FFI_NAMESPACE_END
#endif  // TVM_FFI_CONTAINER_SHAPE_H_
