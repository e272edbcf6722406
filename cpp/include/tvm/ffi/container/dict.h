/*
 * Dict<K, V>: a mutable hash map shared by reference that keeps insertion order.
 *
 * Unlike Map, there is no copy-on-write: every handle to the same DictObj
 * sees every change at once (like a Python dict).
 *
 *   ffi::Dict<ffi::String, int> scores = {{"Alice", 100}, {"Bob", 95}};
 *   ffi::Dict<ffi::String, int> alias = scores;
 *   alias.Set("Dave", 92);        // scores.size() == 3
 *   scores.erase("Bob");
 *
 * Converting an Any to Dict<K, V> reuses the object when every key and value
 * already has the right type; otherwise the result is a converted copy that
 * no longer shares mutations with the original.
 */
#ifndef TVM_FFI_CONTAINER_DICT_H_
#define TVM_FFI_CONTAINER_DICT_H_

#include <tvm/ffi/container/map_base.h>

#include <initializer_list>
#include <unordered_map>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN

/*! \brief Mutable, shared map from K to V (both default to Any). */
template <typename K = Any, typename V = Any>
class Dict : public ObjectRef, public detail::MapReadAPI<Dict<K, V>, K, V> {
 public:
  static constexpr const char* kContainerName = "Dict";
  static constexpr bool _type_custom_any_traits = true;

  /*! \brief A new, empty dict. */
  Dict() : ObjectRef(MapBaseObj::Create<DictObj>(0)) {}
  Dict(std::initializer_list<std::pair<K, V>> init) : Dict(init.begin(), init.end()) {}
  /*! \brief From a std::unordered_map (iteration order of the source). */
  template <typename H, typename E, typename A>
  Dict(const std::unordered_map<K, V, H, E, A>& init)  // NOLINT(runtime/explicit)
      : Dict(init.begin(), init.end()) {}
  /*! \brief From a range of pairs (std::map, std::unordered_map, vector of pairs...). */
  template <typename Iter,
            typename = std::enable_if_t<
                !std::is_integral_v<Iter> &&
                !std::is_same_v<typename std::iterator_traits<Iter>::value_type, void>>>
  Dict(Iter first, Iter last) : Dict() {
    detail::MapInsertRange<K, V>(obj(), first, last);
  }
  /*!
   * \brief View a Dict with more general types (Dict<String, int> as Dict<Any, Any>): shares the
   * object, no element is converted.
   */
  template <typename K2, typename V2, typename = std::enable_if_t<detail::kMapWidens<K, V, K2, V2>>>
  Dict(const Dict<K2, V2>& other) : ObjectRef(other) {}  // NOLINT(runtime/explicit)
  template <typename K2, typename V2, typename = std::enable_if_t<detail::kMapWidens<K, V, K2, V2>>>
  Dict(Dict<K2, V2>&& other) : ObjectRef(std::move(other)) {}  // NOLINT(runtime/explicit)
  explicit Dict(ObjectPtr<DictObj> n) : ObjectRef(std::move(n)) {}
  explicit Dict(UnsafeInit tag) : ObjectRef(tag) {}
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(Dict)

  const DictObj* get() const { return static_cast<const DictObj*>(data_.get()); }
  const DictObj* operator->() const { return get(); }

  /*! \brief Insert or replace key; visible through every handle. */
  void Set(const K& key, const V& value) {
    Any k(key), v(value);
    obj()->Insert(&k, &v, true);
  }

  /*! \brief Remove key if present; returns the number removed (0 or 1). */
  template <typename Q>
  size_t erase(const Q& key) {
    return detail::WithKeyCell<K>(
        key, [this](const TVMFFIAny* cell) -> size_t { return obj()->Erase(cell) ? 1 : 0; });
  }

  /*! \brief Remove every entry. */
  void clear() { obj()->Clear(); }

  using ContainerType = DictObj;
  // Not every DictObj is one of these: the elements' types are checked too.
  static constexpr bool _type_container_is_exact = false;
  static constexpr bool _type_is_nullable = false;

 private:
  // A moved-from handle gets a fresh storage instead of dereferencing null.
  DictObj* obj() {
    if (data_ == nullptr) data_ = MapBaseObj::Create<DictObj>(0);
    return static_cast<DictObj*>(data_.get());
  }
};

/*! \brief Dict<K, V> can share the storage of Dict<K2, V2> when K subsumes K2 and V subsumes V2. */
template <typename K, typename V, typename K2, typename V2>
inline constexpr bool type_subsumes_v<Dict<K, V>, Dict<K2, V2>, void> =
    type_subsumes_v<K, K2> && type_subsumes_v<V, V2>;

template <typename K, typename V>
struct TypeTraits<Dict<K, V>> : detail::MapTypeTraitsBase<Dict<K, V>, DictObj, MapObj, K, V> {};

TVM_FFI_NAMESPACE_END
#endif  // TVM_FFI_CONTAINER_DICT_H_
