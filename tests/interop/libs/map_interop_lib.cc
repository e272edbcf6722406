// Builds, reads, grows and erases Map/Dict/List objects with inline header
// code, so that compiling it against one copy of the tvm-ffi headers and
// loading it into a runtime built from another checks that both sides agree
// on the container layouts and on the key hash.
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace ffi = tvm::ffi;

namespace {

// The key of entry i: an int, a short string (inline), a long string (heap).
ffi::Any KeyOf(int64_t i, int64_t kind) {
  if (kind == 0) return ffi::Any(i * 7 + 1);
  if (kind == 1) return ffi::Any(ffi::String("k" + std::to_string(i)));
  return ffi::Any(ffi::String("a rather long key number " + std::to_string(i)));
}

// A Map of n entries key(i) -> i * 10 of the given key kind.
ffi::Map<ffi::Any, ffi::Any> MakeMap(int64_t n, int64_t kind) {
  ffi::Map<ffi::Any, ffi::Any> m;
  for (int64_t i = 0; i < n; ++i) m.Set(KeyOf(i, kind), ffi::Any(i * 10));
  return m;
}

ffi::Dict<ffi::Any, ffi::Any> MakeDict(int64_t n, int64_t kind) {
  ffi::Dict<ffi::Any, ffi::Any> d;
  for (int64_t i = 0; i < n; ++i) d.Set(KeyOf(i, kind), ffi::Any(i * 10));
  return d;
}

// Checks that m holds exactly key(i) -> i * 10 for i in [0, n); returns the number of mismatches.
template <typename M>
int64_t CheckEntries(const M& m, int64_t n, int64_t kind) {
  int64_t bad = static_cast<int64_t>(m.size()) == n ? 0 : 1;
  for (int64_t i = 0; i < n; ++i) {
    auto it = m.find(KeyOf(i, kind));
    if (it == m.end() || (*it).second.template cast<int64_t>() != i * 10) ++bad;
  }
  if (m.count(KeyOf(n + 5, kind)) != 0) ++bad;
  int64_t seen = 0;
  for (auto kv : m) {
    (void)kv;
    ++seen;
  }
  return bad + (seen == n ? 0 : 1);
}

// Grows m from n to n2 entries, then erases the even ones below n; returns the map.
ffi::Map<ffi::Any, ffi::Any> GrowAndErase(ffi::Map<ffi::Any, ffi::Any> m, int64_t n, int64_t n2,
                                          int64_t kind) {
  for (int64_t i = n; i < n2; ++i) m.Set(KeyOf(i, kind), ffi::Any(i * 10));
  for (int64_t i = 0; i < n; i += 2) m.erase(KeyOf(i, kind));
  return m;
}

// Checks the state GrowAndErase leaves: odd keys below n and every key in [n, n2).
template <typename M>
int64_t CheckGrown(const M& m, int64_t n, int64_t n2, int64_t kind) {
  int64_t bad = 0;
  int64_t expect = 0;
  for (int64_t i = 0; i < n2; ++i) {
    bool present = i >= n || i % 2 == 1;
    expect += present;
    auto it = m.find(KeyOf(i, kind));
    if (present != (it != m.end())) ++bad;
    if (present && it != m.end() && (*it).second.template cast<int64_t>() != i * 10) ++bad;
  }
  return bad + (static_cast<int64_t>(m.size()) == expect ? 0 : 1);
}

void DictGrowAndErase(ffi::Dict<ffi::Any, ffi::Any> d, int64_t n, int64_t n2, int64_t kind) {
  for (int64_t i = n; i < n2; ++i) d.Set(KeyOf(i, kind), ffi::Any(i * 10));
  for (int64_t i = 0; i < n; i += 2) d.erase(KeyOf(i, kind));
}

ffi::List<ffi::Any> ListPushBack(ffi::List<ffi::Any> l, int64_t count) {
  for (int64_t i = 0; i < count; ++i) l.push_back(ffi::Any(i));
  return l;
}

// Keys of a map in iteration order, as an Array.
ffi::Array<ffi::Any> MapKeys(const ffi::Map<ffi::Any, ffi::Any>& m) {
  ffi::Array<ffi::Any> keys;
  for (auto kv : m) keys.push_back(kv.first);
  return keys;
}

using AnyMap = ffi::Map<ffi::Any, ffi::Any>;
using AnyDict = ffi::Dict<ffi::Any, ffi::Any>;
int64_t CheckMap(const AnyMap& m, int64_t n, int64_t kind) { return CheckEntries(m, n, kind); }
int64_t CheckDict(const AnyDict& d, int64_t n, int64_t kind) { return CheckEntries(d, n, kind); }
int64_t CheckGrownMap(const AnyMap& m, int64_t n, int64_t n2, int64_t kind) {
  return CheckGrown(m, n, n2, kind);
}
int64_t CheckGrownDict(const AnyDict& d, int64_t n, int64_t n2, int64_t kind) {
  return CheckGrown(d, n, n2, kind);
}

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_map, MakeMap);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_dict, MakeDict);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(check_map, CheckMap);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(check_dict, CheckDict);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(grow_and_erase, GrowAndErase);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(check_grown_map, CheckGrownMap);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(check_grown_dict, CheckGrownDict);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(dict_grow_and_erase, DictGrowAndErase);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(list_push_back, ListPushBack);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(map_keys, MapKeys);

namespace {
ffi::Any MapGet(const ffi::Map<ffi::Any, ffi::Any>& m, ffi::Any key) { return m.at(key); }
void DictSet(ffi::Dict<ffi::Any, ffi::Any> d, ffi::Any key, ffi::Any value) { d.Set(key, value); }
}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(map_get, MapGet);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(dict_set, DictSet);

namespace {
// Crowded tables: 1970 spread keys, then 40 keys whose hashes share their top 11 bits (one home
// slot in every table of up to 2048 slots). Tables this full need far jumps (index >= 82) to place
// the colliding keys, which exercises the whole jump-distance table.
uint64_t HashCombine(uint64_t key, uint64_t value) {
  return key ^ (value + 0x9e3779b9 + (key << 6) + (key >> 2));
}
uint64_t IntKeyHash(int64_t v) { return HashCombine(1, static_cast<uint64_t>(v)); }

std::vector<int64_t> CrowdedKeys(int64_t seed) {
  std::vector<int64_t> keys;
  for (int64_t i = 0; i < 1970; ++i) keys.push_back((-1 - i) * 7919 - seed);
  int64_t found = 0;
  for (int64_t v = seed * 1000003; found < 40; ++v) {
    if (((11400714819323198485ULL * IntKeyHash(v)) >> 53) == 5) {
      keys.push_back(v);
      ++found;
    }
  }
  return keys;
}

ffi::Dict<ffi::Any, ffi::Any> MakeCrowdedDict(int64_t seed) {
  ffi::Dict<ffi::Any, ffi::Any> d;
  std::vector<int64_t> keys = CrowdedKeys(seed);
  for (size_t i = 0; i < keys.size(); ++i) d.Set(ffi::Any(keys[i]), ffi::Any(int64_t(i)));
  return d;
}

// The number of keys of CrowdedKeys(seed) not found with their value; erases every third key
// first when `erase` is set (and then also checks that those are gone).
int64_t CheckCrowdedDict(ffi::Dict<ffi::Any, ffi::Any> d, int64_t seed, bool erase) {
  std::vector<int64_t> keys = CrowdedKeys(seed);
  int64_t bad = 0;
  if (erase) {
    for (size_t i = 0; i < keys.size(); i += 3) d.erase(ffi::Any(keys[i]));
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    auto it = d.find(ffi::Any(keys[i]));
    bool expect = !(erase && i % 3 == 0);
    if (expect != (it != d.end())) ++bad;
    if (expect && it != d.end() && (*it).second.cast<int64_t>() != int64_t(i)) ++bad;
  }
  return bad;
}

// The largest jump index in the dense metadata of a map (read through the agreed layout).
int64_t MaxJumpIndex(const ffi::Dict<ffi::Any, ffi::Any>& d) {
  const char* obj = reinterpret_cast<const char*>(d.get());
  uint64_t data, slots;
  std::memcpy(&data, obj + 24, 8);
  std::memcpy(&slots, obj + 40, 8);
  if (slots >> 63) return 0;  // small layout
  const uint8_t* blocks = reinterpret_cast<const uint8_t*>(data);
  int64_t best = 0;
  for (uint64_t i = 0; i < slots; ++i) {
    uint8_t m = blocks[(i / 16) * 784 + i % 16];
    if (m == 0xFF || m == 0xFE) continue;
    if ((m & 0x7F) > best) best = m & 0x7F;
  }
  return best;
}
}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_crowded_dict, MakeCrowdedDict);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(check_crowded_dict, CheckCrowdedDict);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(max_jump_index, MaxJumpIndex);
