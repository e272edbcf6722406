/*
 * Standard-library types as values of the FFI: TypeTraits for std::vector,
 * std::array, std::tuple, std::pair, std::map, std::unordered_map,
 * std::optional, std::variant and std::function.
 *
 * Include this header to use them as parameters and results of typed
 * functions. They travel as the FFI's own containers and are converted at
 * the boundary (each conversion copies the elements):
 *   std::vector<T>, std::array<T, N>   <-> Array (a List is accepted too)
 *   std::tuple<Ts...>, std::pair<A, B> <-> Array of that size (like Tuple)
 *   std::map, std::unordered_map       <-> Map (a Dict is accepted too)
 *   std::optional<T>                   <-> None or T
 *   std::variant<Ts...>                <-> the first alternative that matches
 *   std::function<R(Args...)>          <-> Function
 *
 *   Function f = Function::FromTyped([](std::vector<int> v) { return v.size(); });
 *   f(Array<int>{1, 2, 3});                 // 3
 *   Any a = std::map<std::string, int>{{"a", 1}};   // a Map
 *
 * Because they must be converted into a new object, these types cannot be
 * passed as borrowed argument views (AnyView, Function::operator()): pass the
 * FFI container instead (Array<int>(vec)), or store them in an Any first.
 */
#ifndef TVM_FFI_EXTRA_STL_H_
#define TVM_FFI_EXTRA_STL_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/type_traits.h>
#include <tvm/ffi/variant.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN

namespace detail {

template <typename>
constexpr bool kStlAlwaysFalse = false;

/*! \brief Rejects borrowing an STL value as a view, with a message saying what to do. */
template <typename Self>
struct StlNoViewTraitsBase : TypeTraitsBase {
  static constexpr bool storage_enabled = false;  // converted on every crossing
  template <typename Dummy = Self>
  static void CopyToAnyView(const Self&, TVMFFIAny*) {
    static_assert(kStlAlwaysFalse<Dummy>,
                  "STL containers cannot be passed as borrowed views (AnyView, Function "
                  "arguments): convert them to the FFI container (e.g. Array<T>(vec)) or to Any");
  }
};

/*! \brief Read a cell as T: the exact form, else T's documented conversions. */
template <typename T>
inline std::optional<T> StlElemFrom(const TVMFFIAny* cell) {
  if constexpr (std::is_same_v<T, Any>) {
    return Any(AnyView::CopyFromTVMFFIAny(*cell));
  } else {
    if (TypeTraits<T>::CheckAnyStrict(cell)) return TypeTraits<T>::CopyFromAnyViewAfterCheck(cell);
    return TypeTraits<T>::TryCastFromAnyView(cell);
  }
}

/*! \brief Read a cell known to hold a strict T. */
template <typename T>
inline T StlElemStrict(const TVMFFIAny* cell) {
  return SeqFromCell<T>(cell);
}

/*! \brief Move a sequence object into a cell as an Array value. */
inline void StlMoveArrayToAny(ObjectPtr<ArrayObj> p, TVMFFIAny* r) {
  r->type_index = kTVMFFIArray;
  r->zero_padding = 0;
  r->v_obj = ObjectUnsafe::MoveObjectPtrToHandle(std::move(p));
}

/*! \brief The sequence held by a cell when it is exactly an Array, else nullptr. */
inline const SeqBaseObj* StlStrictArray(const TVMFFIAny* src) {
  if (src->type_index != kTVMFFIArray) return nullptr;
  return static_cast<const SeqBaseObj*>(reinterpret_cast<const Object*>(src->v_obj));
}

/*! \brief The name of an STL template in signatures ("std::vector", "std::map", ...). */
template <typename Self>
struct StlTemplateName;
template <typename T, typename Alloc>
struct StlTemplateName<std::vector<T, Alloc>> {
  static constexpr const char* value = "std::vector";
};
template <typename T, size_t N>
struct StlTemplateName<std::array<T, N>> {
  static constexpr const char* value = "std::array";
};
template <typename... Ts>
struct StlTemplateName<std::tuple<Ts...>> {
  static constexpr const char* value = "std::tuple";
};
template <typename A, typename B>
struct StlTemplateName<std::pair<A, B>> {
  static constexpr const char* value = "std::pair";
};
template <typename K, typename V, typename Cmp, typename Alloc>
struct StlTemplateName<std::map<K, V, Cmp, Alloc>> {
  static constexpr const char* value = "std::map";
};
template <typename K, typename V, typename Hash, typename Eq, typename Alloc>
struct StlTemplateName<std::unordered_map<K, V, Hash, Eq, Alloc>> {
  static constexpr const char* value = "std::unordered_map";
};

/*!
 * \brief {"type":"<name>","args":[...]}: STL schemas name the STL type itself (cpp_api.md
 *  §2.18), not the container it crosses as. The arguments are joined by sep because the
 *  reference spells tuple, variant and function parameters with ", " and the others with ",";
 *  matching it byte for byte keeps exported metadata identical.
 */
inline std::string StlSchema(const char* name, std::initializer_list<std::string> args,
                             const char* sep = ",") {
  std::string s = "{\"type\":\"";
  s += name;
  s += "\",\"args\":[";
  bool first = true;
  for (const std::string& a : args) {
    if (!first) s += sep;
    s += a;
    first = false;
  }
  return s + "]}";
}

/*! \brief Rules shared by std::vector<T> and std::array<T, N> (N < 0: any size). */
template <typename Self, typename T, int64_t N>
struct StlSeqTraits : StlNoViewTraitsBase<Self> {
  static void MoveToAny(Self src, TVMFFIAny* r) {
    ObjectPtr<ArrayObj> p = SeqAllocInplace<ArrayObj>(static_cast<int64_t>(src.size()));
    for (auto&& e : src) p->AppendCellUnchecked(SeqToCell<T>(std::move(e)));
    StlMoveArrayToAny(std::move(p), r);
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    const SeqBaseObj* seq = StlStrictArray(src);
    return seq != nullptr && (N < 0 || seq->SeqCell()->size == N) && SeqFirstNonStrict<T>(seq) < 0;
  }
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    const SeqBaseObj* seq = StlStrictArray(src);
    Self out{};
    if constexpr (N < 0) out.reserve(static_cast<size_t>(seq->SeqCell()->size));
    for (int64_t i = 0; i < seq->SeqCell()->size; ++i) {
      if constexpr (N < 0) {
        out.push_back(StlElemStrict<T>(seq->slots() + i));
      } else {
        out[static_cast<size_t>(i)] = StlElemStrict<T>(seq->slots() + i);
      }
    }
    return out;
  }
  static Self MoveFromAnyAfterCheck(TVMFFIAny* src) {
    Self out = CopyFromAnyViewAfterCheck(src);
    SeqReleaseCell(src);
    return out;
  }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    const SeqBaseObj* seq = SeqObjectOf(src, true);
    if (seq == nullptr || (N >= 0 && seq->SeqCell()->size != N)) return std::nullopt;
    Self out{};
    if constexpr (N < 0) out.reserve(static_cast<size_t>(seq->SeqCell()->size));
    for (int64_t i = 0; i < seq->SeqCell()->size; ++i) {
      std::optional<T> v = StlElemFrom<T>(seq->slots() + i);
      if (!v.has_value()) return std::nullopt;
      if constexpr (N < 0) {
        out.push_back(std::move(*v));
      } else {
        out[static_cast<size_t>(i)] = std::move(*v);
      }
    }
    return out;
  }
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    const SeqBaseObj* seq = SeqObjectOf(src, true);
    if (seq != nullptr && N >= 0 && seq->SeqCell()->size != N) {
      return "Array[size=" + std::to_string(seq->SeqCell()->size) + "]";
    }
    return SeqMismatchInfo<T>(src, "Array");
  }
  static std::string TypeStr() {
    std::string s = std::string(StlTemplateName<Self>::value) + "<" + TypeTraits<T>::TypeStr();
    if constexpr (N >= 0) s += ", " + std::to_string(N);
    return s + ">";
  }
  static std::string TypeSchema() {
    if constexpr (N >= 0) {
      return StlSchema(StlTemplateName<Self>::value,
                       {TypeTraits<T>::TypeSchema(), std::to_string(N)});
    } else {
      return StlSchema(StlTemplateName<Self>::value, {TypeTraits<T>::TypeSchema()});
    }
  }
};

/*! \brief Rules shared by std::tuple<Ts...> and std::pair<A, B>: an Array of that size. */
template <typename Self, typename... Ts>
struct StlTupleTraits : StlNoViewTraitsBase<Self> {
  using Helper = TupleTraitsHelper<Ts...>;
  using Indices = std::index_sequence_for<Ts...>;
  static constexpr int64_t kSize = static_cast<int64_t>(sizeof...(Ts));

  static void MoveToAny(Self src, TVMFFIAny* r) { MoveImpl(std::move(src), r, Indices{}); }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    const SeqBaseObj* seq = StlStrictArray(src);
    return seq != nullptr && seq->SeqCell()->size == kSize &&
           Helper::FirstNonStrict(seq->slots(), Indices{}) < 0;
  }
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return StrictImpl(StlStrictArray(src)->slots(), Indices{});
  }
  static Self MoveFromAnyAfterCheck(TVMFFIAny* src) {
    Self out = CopyFromAnyViewAfterCheck(src);
    SeqReleaseCell(src);
    return out;
  }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    const SeqBaseObj* seq = SeqObjectOf(src, true);
    if (seq == nullptr || seq->SeqCell()->size != kSize) return std::nullopt;
    return CastImpl(seq->slots(), Indices{});
  }
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    const SeqBaseObj* seq = SeqObjectOf(src, true);
    if (seq == nullptr) return AnyTypeStr(src);
    if (seq->SeqCell()->size != kSize) {
      return "Array[size=" + std::to_string(seq->SeqCell()->size) + "]";
    }
    std::string r = Helper::Mismatch(seq, Indices{});
    return r.empty() ? AnyTypeStr(src) : r;
  }
  static std::string TypeStr() {
    return std::string(StlTemplateName<Self>::value) + "<" + Helper::TypeStrs() + ">";
  }
  static std::string TypeSchema() {
    return StlSchema(StlTemplateName<Self>::value, {TypeTraits<Ts>::TypeSchema()...}, ", ");
  }

 private:
  template <size_t... I>
  static void MoveImpl(Self src, TVMFFIAny* r, std::index_sequence<I...>) {
    ObjectPtr<ArrayObj> p = SeqAllocInplace<ArrayObj>(kSize);
    (p->AppendCellUnchecked(SeqToCell<Ts>(std::get<I>(std::move(src)))), ...);
    StlMoveArrayToAny(std::move(p), r);
  }
  template <size_t... I>
  static Self StrictImpl(const TVMFFIAny* s, std::index_sequence<I...>) {
    return Self(StlElemStrict<Ts>(s + I)...);
  }
  template <size_t... I>
  static std::optional<Self> CastImpl(const TVMFFIAny* s, std::index_sequence<I...>) {
    std::tuple<std::optional<Ts>...> parts{StlElemFrom<Ts>(s + I)...};
    if (!(std::get<I>(parts).has_value() && ...)) return std::nullopt;
    return Self(std::move(*std::get<I>(parts))...);
  }
};

/*! \brief Rules shared by std::map and std::unordered_map: a Map (a Dict is accepted too). */
template <typename Self, typename K, typename V>
struct StlMapTraits : StlNoViewTraitsBase<Self> {
  static void MoveToAny(Self src, TVMFFIAny* r) {
    Map<Any, Any> m;
    for (auto& kv : src) m.Set(Any(K(kv.first)), Any(std::move(kv.second)));
    TypeTraits<Map<Any, Any>>::MoveToAny(std::move(m), r);
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    if (src->type_index != kTVMFFIMap) return false;
    const MapCore* core = MapCoreOf(src->v_obj);
    for (uint64_t i = core->BeginIndex(); i != core->EndIndex(); i = core->NextIndex(i)) {
      const MapEntry& e = core->KVAt(i);
      if (!ElemStrict<K>(&e.key) || !ElemStrict<V>(&e.value)) return false;
    }
    return true;
  }
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return *TryCastFromAnyView(src); }
  static Self MoveFromAnyAfterCheck(TVMFFIAny* src) {
    Self out = CopyFromAnyViewAfterCheck(src);
    SeqReleaseCell(src);
    return out;
  }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    const MapCore* core = MapCoreOf(AnyObjectOrNull(src));
    if (core == nullptr) return std::nullopt;
    Self out;
    for (uint64_t i = core->BeginIndex(); i != core->EndIndex(); i = core->NextIndex(i)) {
      const MapEntry& e = core->KVAt(i);
      std::optional<K> k = StlElemFrom<K>(&e.key);
      if (!k.has_value()) return std::nullopt;
      std::optional<V> v = StlElemFrom<V>(&e.value);
      if (!v.has_value()) return std::nullopt;
      out.emplace(std::move(*k), std::move(*v));
    }
    return out;
  }
  // Names the first key or value that does not convert, e.g. "Map[K, some value is float]".
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    return MapMismatchInfo<K, V>(src, "Map");
  }
  static std::string TypeStr() {
    return std::string(StlTemplateName<Self>::value) + "<" + TypeTraits<K>::TypeStr() + ", " +
           TypeTraits<V>::TypeStr() + ">";
  }
  static std::string TypeSchema() {
    return StlSchema(StlTemplateName<Self>::value,
                     {TypeTraits<K>::TypeSchema(), TypeTraits<V>::TypeSchema()});
  }

 private:
  template <typename T>
  static bool ElemStrict(const TVMFFIAny* cell) {
    if constexpr (std::is_same_v<T, Any>) {
      return true;
    } else {
      return TypeTraits<T>::CheckAnyStrict(cell);
    }
  }
};

}  // namespace detail

template <typename T, typename Alloc>
struct TypeTraits<std::vector<T, Alloc>> : detail::StlSeqTraits<std::vector<T, Alloc>, T, -1> {};

template <typename T, size_t N>
struct TypeTraits<std::array<T, N>>
    : detail::StlSeqTraits<std::array<T, N>, T, static_cast<int64_t>(N)> {};

template <typename... Ts>
struct TypeTraits<std::tuple<Ts...>> : detail::StlTupleTraits<std::tuple<Ts...>, Ts...> {};

template <typename A, typename B>
struct TypeTraits<std::pair<A, B>> : detail::StlTupleTraits<std::pair<A, B>, A, B> {};

template <typename K, typename V, typename Cmp, typename Alloc>
struct TypeTraits<std::map<K, V, Cmp, Alloc>>
    : detail::StlMapTraits<std::map<K, V, Cmp, Alloc>, K, V> {};

template <typename K, typename V, typename Hash, typename Eq, typename Alloc>
struct TypeTraits<std::unordered_map<K, V, Hash, Eq, Alloc>>
    : detail::StlMapTraits<std::unordered_map<K, V, Hash, Eq, Alloc>, K, V> {};

/*! \brief std::optional<T>: None <-> std::nullopt, otherwise the rules of T. */
template <typename T>
struct TypeTraits<std::optional<T>> : TypeTraitsBase {
  static constexpr bool storage_enabled = false;  // converted on every crossing
  using Inner = TypeTraits<T>;
  static void CopyToAnyView(const std::optional<T>& src, TVMFFIAny* r) {
    if (src.has_value()) {
      Inner::CopyToAnyView(*src, r);
    } else {
      detail::SetNone(r);
    }
  }
  static void MoveToAny(std::optional<T> src, TVMFFIAny* r) {
    if (src.has_value()) {
      Inner::MoveToAny(std::move(*src), r);
    } else {
      detail::SetNone(r);
    }
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == kTVMFFINone || Inner::CheckAnyStrict(src);
  }
  static std::optional<T> CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    if (src->type_index == kTVMFFINone) return std::nullopt;
    return Inner::CopyFromAnyViewAfterCheck(src);
  }
  static std::optional<T> MoveFromAnyAfterCheck(TVMFFIAny* src) {
    if (src->type_index == kTVMFFINone) return std::nullopt;
    return Inner::MoveFromAnyAfterCheck(src);
  }
  static std::optional<std::optional<T>> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == kTVMFFINone) return std::optional<T>();
    std::optional<T> v = Inner::TryCastFromAnyView(src);
    if (!v.has_value()) return std::nullopt;
    return v;
  }
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    return Inner::GetMismatchTypeInfo(src);
  }
  static std::string TypeStr() { return "std::optional<" + Inner::TypeStr() + ">"; }
  static std::string TypeSchema() {
    return detail::StlSchema("std::optional", {Inner::TypeSchema()});
  }
};

/*! \brief std::variant<Ts...>: the first alternative that holds exactly, else the first that
 * converts. */
template <typename... Ts>
struct TypeTraits<std::variant<Ts...>> : TypeTraitsBase {
  static constexpr bool storage_enabled = false;  // converted on every crossing
  using Self = std::variant<Ts...>;
  static void CopyToAnyView(const Self& src, TVMFFIAny* r) {
    std::visit([r](const auto& v) { TypeTraitsNoCR<decltype(v)>::CopyToAnyView(v, r); }, src);
  }
  static void MoveToAny(Self src, TVMFFIAny* r) {
    std::visit(
        [r](auto&& v) {
          using U = std::decay_t<decltype(v)>;
          TypeTraits<U>::MoveToAny(U(std::move(v)), r);
        },
        std::move(src));
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return (TypeTraits<Ts>::CheckAnyStrict(src) || ...);
  }
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    std::optional<Self> out;
    (void)((TypeTraits<Ts>::CheckAnyStrict(src)
                ? (out.emplace(std::in_place_type<Ts>,
                               TypeTraits<Ts>::CopyFromAnyViewAfterCheck(src)),
                   true)
                : false) ||
           ...);
    return std::move(*out);
  }
  static Self MoveFromAnyAfterCheck(TVMFFIAny* src) {
    Self out = CopyFromAnyViewAfterCheck(src);
    detail::SeqReleaseCell(src);
    return out;
  }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    std::optional<Self> out;
    (void)((TryOne<Ts>(src, &out)) || ...);
    return out;
  }
  static std::string TypeStr() {
    std::string s = "std::variant<";
    bool first = true;
    ((s += (first ? "" : ", ") + TypeTraits<Ts>::TypeStr(), first = false), ...);
    return s + ">";
  }
  static std::string TypeSchema() {
    return detail::StlSchema("std::variant", {TypeTraits<Ts>::TypeSchema()...}, ", ");
  }

 private:
  template <typename T>
  static bool TryOne(const TVMFFIAny* src, std::optional<Self>* out) {
    std::optional<T> v = TypeTraits<T>::TryCastFromAnyView(src);
    if (!v.has_value()) return false;
    out->emplace(std::in_place_type<T>, std::move(*v));
    return true;
  }
};

/*!
 * \brief std::function<R(Args...)>: stored as a Function (an empty one as
 *  None); read back as a callable that calls the Function and converts its
 *  result to R.
 */
template <typename R, typename... Args>
struct TypeTraits<std::function<R(Args...)>> : TypeTraitsBase {
  static constexpr bool storage_enabled = false;  // converted on every crossing
  using Self = std::function<R(Args...)>;
  using FuncTraits = TypeTraits<Function>;

  static void MoveToAny(Self src, TVMFFIAny* r) {
    if (!src) {
      detail::SetNone(r);
      return;
    }
    FuncTraits::MoveToAny(Function::FromTyped(std::move(src)), r);
  }
  template <typename Dummy = Self>
  static void CopyToAnyView(const Self&, TVMFFIAny*) {
    static_assert(detail::kStlAlwaysFalse<Dummy>,
                  "std::function cannot be passed as a borrowed view: wrap it with "
                  "Function::FromTyped first");
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) { return FuncTraits::CheckAnyStrict(src); }
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return Wrap(FuncTraits::CopyFromAnyViewAfterCheck(src));
  }
  static Self MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return Wrap(FuncTraits::MoveFromAnyAfterCheck(src));
  }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    std::optional<Function> f = FuncTraits::TryCastFromAnyView(src);
    if (!f.has_value()) return std::nullopt;
    return Wrap(std::move(*f));
  }
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    return FuncTraits::GetMismatchTypeInfo(src);
  }
  static std::string TypeStr() {
    std::string s = "std::function<" + detail::Type2Str<R>::v() + "(";
    bool first = true;
    ((s += (first ? "" : ", ") + detail::Type2Str<Args>::v(), first = false), ...);
    return s + ")>";
  }
  /*! \brief {"type":"std::function","named_args":{"return":[R],"params":[A0, A1]}} */
  static std::string TypeSchema() {
    using Sig = detail::FuncSignatureImpl<R, Args...>;
    std::string s = "{\"type\":\"std::function\",\"named_args\":{\"return\":[";
    s += Sig::template TypeSchemaOf<R>();
    s += "],\"params\":[";
    bool first = true;
    ((s += (first ? "" : ", ") + Sig::template TypeSchemaOf<Args>(), first = false), ...);
    return s + "]}}";
  }

 private:
  static Self Wrap(Function f) {
    if (!f.defined()) return Self();
    return Self(TypedFunction<R(Args...)>(std::move(f)));
  }
};

TVM_FFI_NAMESPACE_END
#endif  // TVM_FFI_EXTRA_STL_H_
