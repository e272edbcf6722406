/*
 * Tuple<Ts...>: a fixed-size heterogeneous sequence, stored as an ArrayObj
 * (type index 71) so that Python tuples/lists and C++ tuples exchange without
 * copying. Immutable with copy-on-write like Array.
 *
 *   Tuple<int, String, bool> tup(42, "hello", true);
 *   int x = tup.get<0>();
 *   auto [a, b, c] = tup;      // structured bindings
 *   tup.Set<0>(7);             // copies first if the object is shared
 *
 * Converting an Any to Tuple<Ts...> checks the size and every element (the
 * error names the first bad index); a conversion that changes nothing reuses
 * the object.
 */
#ifndef TVM_FFI_CONTAINER_TUPLE_H_
#define TVM_FFI_CONTAINER_TUPLE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/string.h>
#include <tvm/ffi/type_traits.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN

template <typename... Types>
class Tuple;

namespace detail {
template <typename T>
inline constexpr bool kIsTuple = false;
template <typename... Types>
inline constexpr bool kIsTuple<Tuple<Types...>> = true;

template <typename To, typename From, typename = void>
struct TupleUpcast : std::false_type {};
template <typename... Ts, typename... Us>
struct TupleUpcast<Tuple<Ts...>, Tuple<Us...>, std::enable_if_t<sizeof...(Ts) == sizeof...(Us)>>
    : std::bool_constant<!std::is_same_v<Tuple<Ts...>, Tuple<Us...>> &&
                         (type_subsumes_v<Ts, Us> && ...)> {};
/*! \brief Whether Tuple From can be shared as Tuple To: same arity, each element subsumed. */
template <typename To, typename From>
inline constexpr bool kTupleUpcast = TupleUpcast<To, From>::value;
}  // namespace detail

/*!
 * \brief Fixed-size heterogeneous sequence backed by an ArrayObj.
 * \tparam Types The element types.
 */
template <typename... Types>
class Tuple : public ObjectRef {
  static constexpr size_t kSize = sizeof...(Types);
  template <size_t I>
  using ElemType = std::tuple_element_t<I, std::tuple<Types...>>;

 public:
  using ContainerType = ArrayObj;
  // Not every ArrayObj is one of these: the elements' types are checked too.
  static constexpr bool _type_container_is_exact = false;
  static constexpr bool _type_is_nullable = false;
  static constexpr bool _type_custom_any_traits = true;

  /*! \brief A tuple of default-constructed elements. */
  template <typename Dummy = void, typename = std::enable_if_t<
                                       std::is_void_v<Dummy> &&
                                       std::conjunction_v<std::is_default_constructible<Types>...>>>
  Tuple() : ObjectRef(nullptr) {
    ObjectPtr<ArrayObj> p = detail::SeqAllocInplace<ArrayObj>(static_cast<int64_t>(kSize));
    (p->AppendCellUnchecked(detail::SeqToCell<Types>(Types())), ...);
    data_ = std::move(p);
  }
  Tuple(const Tuple&) = default;
  Tuple(Tuple&&) = default;
  Tuple& operator=(const Tuple&) = default;
  Tuple& operator=(Tuple&&) = default;
  explicit Tuple(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}
  explicit Tuple(UnsafeInit tag) : ObjectRef(tag) {}

  /*!
   * \brief Share a tuple whose elements are all also of these types, element-wise
   *  (Tuple<Derived, int> as Tuple<Base, Any>).
   */
  template <typename... UTypes,
            typename = std::enable_if_t<detail::kTupleUpcast<Tuple, Tuple<UTypes...>>>>
  Tuple(const Tuple<UTypes...>& other)  // NOLINT(runtime/explicit)
      : ObjectRef(detail::ObjectUnsafe::GetObjectPtr(other)) {}
  template <typename... UTypes,
            typename = std::enable_if_t<detail::kTupleUpcast<Tuple, Tuple<UTypes...>>>>
  Tuple(Tuple<UTypes...>&& other)  // NOLINT(runtime/explicit)
      : ObjectRef(std::move(detail::ObjectUnsafe::GetObjectPtrMutable(other))) {}

  /*! \brief A tuple of the given elements, each converted to its type (a single Tuple argument
   *  is a copy or an upcast, never an element). */
  template <typename... UTypes,
            typename =
                std::enable_if_t<sizeof...(UTypes) == kSize && kSize != 0 &&
                                 !(kSize == 1 && (detail::kIsTuple<std::decay_t<UTypes>> && ...)) &&
                                 std::conjunction_v<std::is_constructible<Types, UTypes&&>...>>>
  explicit Tuple(UTypes&&... args) : ObjectRef(nullptr) {
    ObjectPtr<ArrayObj> p = detail::SeqAllocInplace<ArrayObj>(static_cast<int64_t>(kSize));
    (p->AppendCellUnchecked(detail::SeqToCell<Types>(std::forward<UTypes>(args))), ...);
    data_ = std::move(p);
  }

  /*! \return The number of elements. */
  static constexpr size_t size() { return kSize; }

  /*! \return The I-th element. */
  template <size_t I>
  ElemType<I> get() const& {
    static_assert(I < kSize, "Tuple index out of range");
    return detail::SeqFromCell<ElemType<I>>(obj()->slots() + I);
  }
  /*! \return The I-th element, moved out when this handle is the only owner of the tuple. */
  template <size_t I>
  ElemType<I> get() && {
    static_assert(I < kSize, "Tuple index out of range");
    if (!data_.unique()) return detail::SeqFromCell<ElemType<I>>(obj()->slots() + I);
    TVMFFIAny* cell = obj()->slots() + I;
    if constexpr (std::is_same_v<ElemType<I>, Any>) {
      return detail::AnyUnsafe::MoveTVMFFIAnyToAny(cell);
    } else {
      // Elements are strict (the tuple's invariant), so the cell can be taken as is.
      return TypeTraits<ElemType<I>>::MoveFromAnyAfterCheck(cell);
    }
  }

  /*! \brief Replace the I-th element, copying the object first if it is shared. */
  template <size_t I, typename U>
  void Set(U&& value) {
    static_assert(I < kSize, "Tuple index out of range");
    detail::CellBuffer cells;
    cells.push_back(detail::SeqToCell<ElemType<I>>(std::forward<U>(value)));
    if (!data_.unique()) {
      const TVMFFIAny* s = obj()->slots();
      data_ = detail::SeqCopyFrom<ArrayObj>(s, s + kSize, static_cast<int64_t>(kSize));
    }
    obj()->SetCell(I, *cells.data());
    cells.release();
  }

  const ArrayObj* get() const { return obj(); }
  const ArrayObj* operator->() const { return obj(); }

 private:
  ArrayObj* obj() const { return static_cast<ArrayObj*>(data_.get()); }
};

namespace detail {
template <typename... Types>
struct TupleTraitsHelper {
  template <size_t... I>
  static int64_t FirstNonStrict(const TVMFFIAny* s, std::index_sequence<I...>) {
    int64_t bad = -1;
    // Left to right, stopping at the first failure.
    (void)((TypeTraits<Types>::CheckAnyStrict(s + I) || (bad = static_cast<int64_t>(I), false)) &&
           ...);
    return bad;
  }
  template <size_t... I>
  static ObjectPtr<ArrayObj> Convert(const TVMFFIAny* s, std::index_sequence<I...>) {
    ObjectPtr<ArrayObj> out = SeqAllocInplace<ArrayObj>(static_cast<int64_t>(sizeof...(Types)));
    bool ok = (AppendOne<Types>(out.get(), s + I) && ...);
    if (!ok) return ObjectPtr<ArrayObj>();
    return out;
  }
  template <typename T>
  static bool AppendOne(ArrayObj* out, const TVMFFIAny* cell) {
    if (TypeTraits<T>::CheckAnyStrict(cell)) {
      out->AppendCellUnchecked(SeqCopyCell(*cell));
      return true;
    }
    std::optional<T> v = TypeTraits<T>::TryCastFromAnyView(cell);
    if (!v.has_value()) return false;
    TVMFFIAny c;
    TypeTraits<T>::MoveToAny(std::move(*v), &c);
    out->AppendCellUnchecked(c);
    return true;
  }
  template <size_t... I>
  static std::string Mismatch(const SeqBaseObj* seq, std::index_sequence<I...>) {
    std::string result;
    (void)((MismatchOne<Types>(seq, I, &result)) && ...);
    return result;
  }
  template <typename T>
  static bool MismatchOne(const SeqBaseObj* seq, size_t i, std::string* result) {
    const TVMFFIAny* cell = seq->slots() + i;
    if (TypeTraits<T>::CheckAnyStrict(cell) ||
        TypeTraits<T>::TryCastFromAnyView(cell).has_value()) {
      return true;
    }
    *result =
        "Array[index " + std::to_string(i) + ": " + TypeTraits<T>::GetMismatchTypeInfo(cell) + "]";
    return false;
  }
  static std::string TypeStrs() {
    std::string s;
    bool first = true;
    ((s += (first ? "" : ", "), s += TypeTraits<Types>::TypeStr(), first = false), ...);
    return s;
  }
};
}  // namespace detail

template <typename... Types>
struct TypeTraits<Tuple<Types...>> : TypeTraitsBase {
  using Helper = detail::TupleTraitsHelper<Types...>;
  using Indices = std::index_sequence_for<Types...>;
  static constexpr int64_t kSize = static_cast<int64_t>(sizeof...(Types));

  static void CopyToAnyView(const Tuple<Types...>& src, TVMFFIAny* r) {
    ObjectRefTypeTraitsBase<ObjectRef>::CopyToAnyView(src, r);
  }
  static void MoveToAny(Tuple<Types...> src, TVMFFIAny* r) {
    ObjectRefTypeTraitsBase<ObjectRef>::MoveToAny(std::move(src), r);
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    if (src->type_index != kTVMFFIArray) return false;
    const detail::SeqBaseObj* seq = AsSeq(src->v_obj);
    return seq->SeqCell()->size == kSize && Helper::FirstNonStrict(seq->slots(), Indices{}) < 0;
  }
  static Tuple<Types...> CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return detail::ObjectUnsafe::ObjectRefFromObjectPtr<Tuple<Types...>>(
        detail::ObjectUnsafe::ObjectPtrFromUnowned<Object>(src->v_obj));
  }
  static Tuple<Types...> MoveFromAnyAfterCheck(TVMFFIAny* src) {
    TVMFFIObject* obj = src->v_obj;
    detail::SetNone(src);
    return detail::ObjectUnsafe::ObjectRefFromObjectPtr<Tuple<Types...>>(
        detail::ObjectUnsafe::ObjectPtrFromOwned<Object>(obj));
  }
  static std::optional<Tuple<Types...>> TryCastFromAnyView(const TVMFFIAny* src) {
    const detail::SeqBaseObj* seq = detail::SeqObjectOf(src, true);
    if (seq == nullptr || seq->SeqCell()->size != kSize) return std::nullopt;
    if (seq->type_index() == kTVMFFIArray && Helper::FirstNonStrict(seq->slots(), Indices{}) < 0) {
      return detail::ObjectUnsafe::ObjectRefFromObjectPtr<Tuple<Types...>>(
          detail::ObjectUnsafe::ObjectPtrFromUnowned<Object>(const_cast<detail::SeqBaseObj*>(seq)));
    }
    ObjectPtr<ArrayObj> p = Helper::Convert(seq->slots(), Indices{});
    if (p == nullptr) return std::nullopt;
    return detail::ObjectUnsafe::ObjectRefFromObjectPtr<Tuple<Types...>>(std::move(p));
  }
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    const detail::SeqBaseObj* seq = detail::SeqObjectOf(src, true);
    if (seq == nullptr) return detail::AnyTypeStr(src);
    if (seq->SeqCell()->size != kSize) {
      return "Array[size=" + std::to_string(seq->SeqCell()->size) + "]";
    }
    std::string r = Helper::Mismatch(seq, Indices{});
    return r.empty() ? detail::AnyTypeStr(src) : r;
  }
  static std::string TypeStr() { return "Tuple<" + Helper::TypeStrs() + ">"; }
  static std::string TypeSchema() {
    return detail::SchemaWithArgs("Tuple", {TypeTraits<Types>::TypeSchema()...});
  }

 private:
  static const detail::SeqBaseObj* AsSeq(TVMFFIObject* obj) {
    return static_cast<const detail::SeqBaseObj*>(reinterpret_cast<const Object*>(obj));
  }
};

/*! \return The I-th element of t (found by argument-dependent lookup: `get<0>(t)`). */
template <size_t I, typename... Types>
inline std::tuple_element_t<I, std::tuple<Types...>> get(const Tuple<Types...>& t) {
  return t.template get<I>();
}
/*! \return The I-th element of t, moved out when t is the only owner. */
template <size_t I, typename... Types>
inline std::tuple_element_t<I, std::tuple<Types...>> get(Tuple<Types...>&& t) {
  return std::move(t).template get<I>();
}

/*! \brief `Tuple t(1, String("a"))` is a Tuple<int, String>. */
template <typename... UTypes>
Tuple(UTypes...) -> Tuple<std::decay_t<UTypes>...>;

/*! \brief Tuple<Ts...> can share the storage of Tuple<Us...> (same arity, element-wise). */
template <typename... Ts, typename... Us>
inline constexpr bool type_subsumes_v<Tuple<Ts...>, Tuple<Us...>, void> =
    std::is_same_v<Tuple<Ts...>, Tuple<Us...>> || detail::kTupleUpcast<Tuple<Ts...>, Tuple<Us...>>;

TVM_FFI_NAMESPACE_END

namespace std {
template <typename... Types>
struct tuple_size<::tvm::ffi::Tuple<Types...>> : std::integral_constant<size_t, sizeof...(Types)> {
};
template <size_t I, typename... Types>
struct tuple_element<I, ::tvm::ffi::Tuple<Types...>> {
  using type = std::tuple_element_t<I, std::tuple<Types...>>;
};
}  // namespace std

#endif  // TVM_FFI_CONTAINER_TUPLE_H_
