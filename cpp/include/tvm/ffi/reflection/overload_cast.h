/*
 * overload_cast: the address of one overload of a function or member function,
 * picked by its parameter types, to pass to ObjectDef::def, GlobalDef::def or a
 * template argument.
 *
 *   struct Pet {
 *     int Feed(const Cat*, int amount);
 *     int Feed(const Dog*, int amount);
 *     int Get(int x);
 *     int Get(int x) const;
 *   };
 *   auto feed_cat = refl::overload_cast<const Cat*>(&Pet::Feed);  // int (Pet::*)(const Cat*, int)
 *   auto get_const = refl::overload_cast<int>(&Pet::Get, refl::const_);
 *
 * The types given may be a prefix of the parameters: the rest are taken from the one
 * overload that matches. An overload whose parameters are exactly the types given wins
 * over longer ones; when several longer ones match, spell more parameters.
 */
#ifndef TVM_FFI_REFLECTION_OVERLOAD_CAST_H_
#define TVM_FFI_REFLECTION_OVERLOAD_CAST_H_

#include <tvm/ffi/base.h>

#include <type_traits>

TVM_FFI_NAMESPACE_BEGIN
namespace reflection {

/*! \brief Selects the const member function in overload_cast. */
inline constexpr std::true_type const_{};

namespace overload_detail {

/*!
 * \brief The callable behind overload_cast<Args...>: picks the overload whose
 *  parameters are Args... (followed by deduced trailing parameters).
 */
template <typename... Args>
struct OverloadCastImpl {
  // The exact forms are more specialised, so they win when both forms match
  // (and still resolve when F also has overloads with more parameters).
  template <typename R>
  constexpr auto operator()(R (*fn)(Args...)) const noexcept -> decltype(fn) {
    return fn;
  }
  template <typename R, typename C>
  constexpr auto operator()(R (C::*fn)(Args...), std::false_type = {}) const noexcept
      -> decltype(fn) {
    return fn;
  }
  template <typename R, typename C>
  constexpr auto operator()(R (C::*fn)(Args...) const, std::true_type) const noexcept
      -> decltype(fn) {
    return fn;
  }
  template <typename R, typename... Rest>
  constexpr auto operator()(R (*fn)(Args..., Rest...)) const noexcept -> decltype(fn) {
    return fn;
  }
  template <typename R, typename C, typename... Rest>
  constexpr auto operator()(R (C::*fn)(Args..., Rest...), std::false_type = {}) const noexcept
      -> decltype(fn) {
    return fn;
  }
  template <typename R, typename C, typename... Rest>
  constexpr auto operator()(R (C::*fn)(Args..., Rest...) const, std::true_type) const noexcept
      -> decltype(fn) {
    return fn;
  }
};

}  // namespace overload_detail

/*! \brief overload_cast<Args...>(&F): the overload of F picked by Args... (see above). */
template <typename... Args>
inline constexpr overload_detail::OverloadCastImpl<Args...> overload_cast{};

}  // namespace reflection
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_REFLECTION_OVERLOAD_CAST_H_
