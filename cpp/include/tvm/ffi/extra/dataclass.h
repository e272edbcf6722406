/*
 * Dataclass utilities over any FFI value: deep copy, printing, and recursive
 * comparison and hashing of containers and reflected objects.
 *
 *   Any copy = DeepCopy(value);           // new containers/objects, sharing and cycles kept
 *   String text = ReprPrint(value);       // "testing.TestIntPair(a=1, b=2)", "(1, 2)", "[1, ...]"
 *   bool eq = RecursiveEq(a, b);          // field-wise, containers element-wise
 *   bool lt = RecursiveLt(a, b);          // TypeError for values that do not order
 *   int64_t h = RecursiveHash(a);         // RecursiveEq(a, b) implies equal hashes
 *   std::cout << any_value;               // the ReprPrint text (Any, ObjectRef, Optional, Variant)
 *
 * The runtime implements them (globals "ffi.DeepCopy", "ffi.ReprPrint",
 * "ffi.RecursiveEq/Lt/Le/Gt/Ge", "ffi.RecursiveHash"); these inline wrappers
 * call those globals, so code built with these headers needs no C++ symbol
 * of the library. Types customise the behaviour through the type attributes
 * __ffi_repr__, __ffi_eq__, __ffi_compare__, __ffi_hash__ and
 * __ffi_shallow_copy__, and fields opt out with the flags ReprOff,
 * CompareOff and HashOff. Every traversal uses an explicit stack, so deep
 * values do not overflow the native stack.
 */
#ifndef TVM_FFI_EXTRA_DATACLASS_H_
#define TVM_FFI_EXTRA_DATACLASS_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <ostream>
#include <type_traits>

TVM_FFI_NAMESPACE_BEGIN

/*!
 * \brief A deep copy: Array/Map/List/Dict and objects with __ffi_shallow_copy__
 *  are copied (one copy per original, so sharing and cycles are kept); PODs,
 *  strings, bytes, Shape and enum singletons are returned as they are.
 * \throws Error RuntimeError "Cannot deep copy object of type "<key>" because it is not
 *  copy-constructible" for an object without __ffi_shallow_copy__ (Function, Tensor, ...).
 */
inline Any DeepCopy(const Any& value) {
  static const Function f = Function::GetGlobalRequired("ffi.DeepCopy");
  return f(value);
}

/*!
 * \brief The printed form of a value: `None`, `True`, `1.5`, `"str"`, `b"\x00"`, `(1, 2)`
 *  (Array), `[1, 2]` (List), `{"k": v}` (Map/Dict), `Shape(1, 2)`, `float32[2, 3]@cpu:0`
 *  (Tensor), `<type_key>(field=value, ...)` (objects), `...` for a cycle. With the
 *  environment variable TVM_FFI_REPR_WITH_ADDR=1 objects and containers show their address.
 */
inline String ReprPrint(const Any& value) {
  static const Function f = Function::GetGlobalRequired("ffi.ReprPrint");
  return f(value).cast<String>();
}

/*! \brief A hash consistent with RecursiveEq (RecursiveEq(a, b) implies equal hashes). */
inline int64_t RecursiveHash(const Any& value) {
  static const Function f = Function::GetGlobalRequired("ffi.RecursiveHash");
  return f(value).cast<int64_t>();
}

/*!
 * \brief Recursive equality: values of different types are unequal, NaN equals NaN,
 *  containers element-wise, objects field by field (or through __ffi_eq__).
 */
inline bool RecursiveEq(const Any& lhs, const Any& rhs) {
  static const Function f = Function::GetGlobalRequired("ffi.RecursiveEq");
  return f(lhs, rhs).cast<bool>();
}

/*!
 * \brief Recursive ordering (None first, sequences and objects lexicographically).
 * \throws Error TypeError for values of different types, NaN, and unequal Map/Dict values.
 */
inline bool RecursiveLt(const Any& lhs, const Any& rhs) {
  static const Function f = Function::GetGlobalRequired("ffi.RecursiveLt");
  return f(lhs, rhs).cast<bool>();
}
/*! \brief Recursive `lhs <= rhs` (see RecursiveLt). */
inline bool RecursiveLe(const Any& lhs, const Any& rhs) {
  static const Function f = Function::GetGlobalRequired("ffi.RecursiveLe");
  return f(lhs, rhs).cast<bool>();
}
/*! \brief Recursive `lhs > rhs` (see RecursiveLt). */
inline bool RecursiveGt(const Any& lhs, const Any& rhs) {
  static const Function f = Function::GetGlobalRequired("ffi.RecursiveGt");
  return f(lhs, rhs).cast<bool>();
}
/*! \brief Recursive `lhs >= rhs` (see RecursiveLt). */
inline bool RecursiveGe(const Any& lhs, const Any& rhs) {
  static const Function f = Function::GetGlobalRequired("ffi.RecursiveGe");
  return f(lhs, rhs).cast<bool>();
}

/*! \brief Print the ReprPrint text of a value. */
template <typename T,
          typename = std::enable_if_t<std::is_same_v<T, Any> || std::is_same_v<T, AnyView>>>
inline std::ostream& operator<<(std::ostream& os, const T& value) {
  return os << ReprPrint(Any(value));
}

/*!
 * \brief Print the ReprPrint text of an object reference (`None` when null). Types with an
 *  operator<< of their own (String, Shape, ...) keep it: an exact match wins.
 */
inline std::ostream& operator<<(std::ostream& os, const ObjectRef& ref) {
  return os << ReprPrint(Any(ref));
}

/*! \brief Print the ReprPrint text of an Optional (`None` when empty). */
template <typename T>
inline std::ostream& operator<<(std::ostream& os, const Optional<T>& value) {
  return os << ReprPrint(Any(value));
}

/*! \brief Print the ReprPrint text of the alternative a Variant holds. */
template <typename... V>
inline std::ostream& operator<<(std::ostream& os, const Variant<V...>& value) {
  return os << ReprPrint(Any(value));
}

TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_EXTRA_DATACLASS_H_
