/*
 * Helpers shared by the container headers: iterator adapters that convert
 * the stored Any cells to the element type on dereference, element-type
 * predicates and the "Name<A, B>" type string of container types.
 * container_detail.h is the same header under its other spelling.
 */
#ifndef TVM_FFI_CONTAINER_CONTAINER_DETAILS_H_
#define TVM_FFI_CONTAINER_CONTAINER_DETAILS_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>

#include <cstddef>
#include <iterator>
#include <string>
#include <type_traits>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {

/*!
 * \brief A random-access iterator over TIter whose dereference yields
 *  Converter::convert(*it) (Converter::ResultType) by value.
 */
template <typename Converter, typename TIter>
class IterAdapter {
 public:
  using difference_type = typename std::iterator_traits<TIter>::difference_type;
  using value_type = typename Converter::ResultType;
  using pointer = value_type*;
  using reference = value_type;
  using iterator_category = typename std::iterator_traits<TIter>::iterator_category;

  explicit IterAdapter(TIter iter) : iter_(iter) {}
  IterAdapter& operator++() {
    ++iter_;
    return *this;
  }
  IterAdapter& operator--() {
    --iter_;
    return *this;
  }
  IterAdapter operator++(int) {
    IterAdapter copy = *this;
    ++iter_;
    return copy;
  }
  IterAdapter operator--(int) {
    IterAdapter copy = *this;
    --iter_;
    return copy;
  }
  IterAdapter operator+(difference_type offset) const { return IterAdapter(iter_ + offset); }
  IterAdapter operator-(difference_type offset) const { return IterAdapter(iter_ - offset); }
  IterAdapter& operator+=(difference_type offset) {
    iter_ += offset;
    return *this;
  }
  IterAdapter& operator-=(difference_type offset) {
    iter_ -= offset;
    return *this;
  }
  difference_type operator-(const IterAdapter& rhs) const { return iter_ - rhs.iter_; }
  bool operator==(const IterAdapter& other) const { return iter_ == other.iter_; }
  bool operator!=(const IterAdapter& other) const { return !(*this == other); }
  bool operator<(const IterAdapter& other) const { return iter_ < other.iter_; }
  reference operator*() const { return Converter::convert(*iter_); }
  reference operator[](difference_type i) const { return Converter::convert(iter_[i]); }

 private:
  TIter iter_;
};

/*! \brief IterAdapter walking TIter backwards (++ moves towards the front). */
template <typename Converter, typename TIter>
class ReverseIterAdapter {
 public:
  using difference_type = typename std::iterator_traits<TIter>::difference_type;
  using value_type = typename Converter::ResultType;
  using pointer = value_type*;
  using reference = value_type;
  using iterator_category = typename std::iterator_traits<TIter>::iterator_category;

  explicit ReverseIterAdapter(TIter iter) : iter_(iter) {}
  ReverseIterAdapter& operator++() {
    --iter_;
    return *this;
  }
  ReverseIterAdapter& operator--() {
    ++iter_;
    return *this;
  }
  ReverseIterAdapter operator++(int) {
    ReverseIterAdapter copy = *this;
    --iter_;
    return copy;
  }
  ReverseIterAdapter operator--(int) {
    ReverseIterAdapter copy = *this;
    ++iter_;
    return copy;
  }
  ReverseIterAdapter operator+(difference_type offset) const {
    return ReverseIterAdapter(iter_ - offset);
  }
  difference_type operator-(const ReverseIterAdapter& rhs) const { return rhs.iter_ - iter_; }
  bool operator==(const ReverseIterAdapter& other) const { return iter_ == other.iter_; }
  bool operator!=(const ReverseIterAdapter& other) const { return !(*this == other); }
  reference operator*() const { return Converter::convert(*iter_); }

 private:
  TIter iter_;
};

/*!
 * \brief Whether values of T are stored in an Any as themselves (TypeTraits<T>::storage_enabled),
 *  or T is Any. False for types converted on every crossing (std::string, const char*,
 *  DLTensor*) and for pointers to non-objects.
 */
template <typename T>
inline constexpr bool storage_enabled_v = std::is_same_v<T, Any> || TypeTraits<T>::storage_enabled;

/*! \brief storage_enabled_v of every type. */
template <typename... T>
inline constexpr bool all_storage_enabled_v = (storage_enabled_v<T> && ...);

/*! \brief Whether every type is an ObjectRef (or derives from it). */
template <typename... T>
inline constexpr bool all_object_ref_v = (std::is_base_of_v<ObjectRef, T> && ...);

/*! \return "name<A, B, ...>" from the TypeStr of each type. */
template <typename... V>
inline std::string ContainerTypeStr(const char* name) {
  std::string out(name);
  out += '<';
  bool first = true;
  ((out += (first ? "" : ", "), out += TypeTraits<V>::TypeStr(), first = false), ...);
  out += '>';
  return out;
}

}  // namespace detail
TVM_FFI_NAMESPACE_END
#endif  // TVM_FFI_CONTAINER_CONTAINER_DETAILS_H_
