/*
 * Map<K, V>: an immutable, copy-on-write hash map that keeps insertion order.
 *
 * Copies share one MapObj; Set, erase and clear copy it first only when it
 * is shared, so a copy never sees later changes made through the original.
 * Lookups are O(1) on average (see map_base.h for the layout).
 *
 *   ffi::Map<ffi::String, int> m = {{"Alice", 100}, {"Bob", 95}};
 *   m.at("Alice") == 100;  m.count("Carol") == 0;  m.Get("Carol") == std::nullopt
 *   ffi::Map<ffi::String, int> m2 = m;  m2.Set("Carol", 7);   // m unchanged
 *   for (auto [name, score] : m) ...                          // insertion order
 *
 * Converting an Any to Map<K, V> checks every key and value (the type index
 * only says "a map"); Map<Any, Any> skips the checks.
 */
#ifndef TVM_FFI_CONTAINER_MAP_H_
#define TVM_FFI_CONTAINER_MAP_H_

#include <tvm/ffi/container/map_base.h>

#include <initializer_list>
#include <unordered_map>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN

/*! \brief Immutable copy-on-write map from K to V (both default to Any). */
template <typename K = Any, typename V = Any>
class Map : public ObjectRef, public detail::MapReadAPI<Map<K, V>, K, V> {
 public:
  static constexpr const char* kContainerName = "Map";
  static constexpr bool _type_custom_any_traits = true;

  /*! \brief An empty map. */
  Map() : ObjectRef(MapBaseObj::Create<MapObj>(0)) {}
  Map(std::initializer_list<std::pair<K, V>> init) : Map(init.begin(), init.end()) {}
  /*! \brief From a std::unordered_map (iteration order of the source). */
  template <typename H, typename E, typename A>
  Map(const std::unordered_map<K, V, H, E, A>& init)  // NOLINT(runtime/explicit)
      : Map(init.begin(), init.end()) {}
  /*! \brief From a range of pairs (std::map, std::unordered_map, vector of pairs...). */
  template <typename Iter,
            typename = std::enable_if_t<
                !std::is_integral_v<Iter> &&
                !std::is_same_v<typename std::iterator_traits<Iter>::value_type, void>>>
  Map(Iter first, Iter last) : Map() {
    detail::MapInsertRange<K, V>(mutable_obj(), first, last);
  }
  /*!
   * \brief View a Map with more general types (Map<String, int> as Map<Any, Any>): shares the
   * object, no element is converted.
   */
  template <typename K2, typename V2, typename = std::enable_if_t<detail::kMapWidens<K, V, K2, V2>>>
  Map(const Map<K2, V2>& other) : ObjectRef(other) {}  // NOLINT(runtime/explicit)
  template <typename K2, typename V2, typename = std::enable_if_t<detail::kMapWidens<K, V, K2, V2>>>
  Map(Map<K2, V2>&& other) : ObjectRef(std::move(other)) {}  // NOLINT(runtime/explicit)
  explicit Map(ObjectPtr<MapObj> n) : ObjectRef(std::move(n)) {}
  explicit Map(UnsafeInit tag) : ObjectRef(tag) {}
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(Map)

  const MapObj* get() const { return static_cast<const MapObj*>(data_.get()); }
  const MapObj* operator->() const { return get(); }

  /*! \brief Insert or replace key (copies the storage first if it is shared). */
  void Set(const K& key, const V& value) {
    Any k(key), v(value);
    if (!CopyOnWrite(1)->Insert(&k, &v, false)) {
      // A full small map becomes dense in a new object (the old one may be too small in place).
      ObjectPtr<MapObj> fresh = MapBaseObj::CreateCopy<MapObj>(*get(), 1);
      fresh->Insert(&k, &v, true);
      data_ = std::move(fresh);
    }
  }

  /*! \brief Remove key if present; returns the number removed (0 or 1). */
  template <typename Q>
  size_t erase(const Q& key) {
    return detail::WithKeyCell<K>(key, [this](const TVMFFIAny* cell) -> size_t {
      // Absent keys must not trigger a copy of a shared storage.
      const MapObj* obj = get();
      if (obj == nullptr || obj->FindIndex(cell) == obj->EndIndex()) return 0;
      return CopyOnWrite(0)->Erase(cell) ? 1 : 0;
    });
  }

  /*! \brief Remove every entry (a shared storage is left to the other handles). */
  void clear() {
    if (data_ != nullptr && data_.unique()) {
      mutable_obj()->Clear();
    } else {
      data_ = MapBaseObj::Create<MapObj>(0);
    }
  }

  /*!
   * \brief The storage, made unique first (copied when shared) with room for
   *  extra more entries.
   */
  MapObj* CopyOnWrite(int64_t extra = 0) {
    if (data_ == nullptr) {
      data_ = MapBaseObj::Create<MapObj>(static_cast<uint64_t>(extra));
    } else if (!data_.unique()) {
      data_ = MapBaseObj::CreateCopy<MapObj>(*get(), static_cast<uint64_t>(extra));
    }
    return mutable_obj();
  }

  using ContainerType = MapObj;
  // Not every MapObj is one of these: the elements' types are checked too.
  static constexpr bool _type_container_is_exact = false;
  static constexpr bool _type_is_nullable = false;

 private:
  MapObj* mutable_obj() { return static_cast<MapObj*>(data_.get()); }
};

/*! \brief Map<K, V> can share the storage of Map<K2, V2> when K subsumes K2 and V subsumes V2. */
template <typename K, typename V, typename K2, typename V2>
inline constexpr bool type_subsumes_v<Map<K, V>, Map<K2, V2>, void> =
    type_subsumes_v<K, K2> && type_subsumes_v<V, V2>;

/*! \brief lhs with every entry of rhs set into it (rhs wins on equal keys); lhs is copied on write.
 */
template <typename K, typename V>
inline Map<K, V> Merge(Map<K, V> lhs, const Map<K, V>& rhs) {
  for (auto kv : rhs) lhs.Set(kv.first, kv.second);
  return lhs;
}

template <typename K, typename V>
struct TypeTraits<Map<K, V>> : detail::MapTypeTraitsBase<Map<K, V>, MapObj, DictObj, K, V> {};

TVM_FFI_NAMESPACE_END
#endif  // TVM_FFI_CONTAINER_MAP_H_
