// Map lookup and insert cost per entry, against std::unordered_map with the same keys.
//
// Prints one table row per (key kind, size): ns per lookup and ns per insert
// for ffi::Map, ffi::Dict and std::unordered_map, and the lookup ratio
// Map / std::unordered_map. Built with -O2 under -DTVM_FFI_BUILD_BENCHMARKS=ON;
// run with no arguments.
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/string.h>

#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

namespace ffi = tvm::ffi;

// Keeps the compiler from discarding the measured work.
volatile int64_t g_sink = 0;

// Thread CPU time: the benchmark machine may be shared, and wall time would
// count the time other processes hold the CPU.
double NowNs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

// Enough repetitions that every measurement covers at least ~2M operations.
int64_t RepeatsFor(size_t n) { return std::max<int64_t>(1, 2000000 / static_cast<int64_t>(n)); }

struct Row {
  double map_lookup = 1e300, dict_lookup = 1e300, std_lookup = 1e300;
  double map_insert = 1e300, dict_insert = 1e300, std_insert = 1e300;
};

// Time f over reps * n operations; keep the best per-operation time in *best.
template <typename F>
void Time(double* best, int64_t reps, size_t n, F&& f) {
  double start = NowNs();
  for (int64_t r = 0; r < reps; ++r) g_sink = g_sink + f();
  *best = std::min(*best, (NowNs() - start) / static_cast<double>(reps * static_cast<int64_t>(n)));
}

template <typename MapT, typename Keys>
int64_t Build(const Keys& keys) {
  MapT m;
  for (size_t i = 0; i < keys.size(); ++i) m.Set(keys[i], static_cast<int64_t>(i));
  return static_cast<int64_t>(m.size());
}

template <typename MapT, typename Keys>
int64_t SumLookups(const MapT& m, const Keys& probe) {
  int64_t sum = 0;
  for (const auto& k : probe) sum += m.at(k);
  return sum;
}

// KeyT: the ffi key type; StdKeyT: the std key type; both hold the same key values.
template <typename KeyT, typename StdKeyT>
Row Measure(const std::vector<StdKeyT>& std_keys) {
  const size_t n = std_keys.size();
  const int64_t reps = RepeatsFor(n);
  std::vector<KeyT> keys(std_keys.begin(), std_keys.end());
  // Lookups go in an order unrelated to insertion order, with keys that are
  // equal to, but not the same objects as, the stored ones.
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(7));
  std::vector<KeyT> probe;
  std::vector<StdKeyT> std_probe;
  for (size_t i : order) {
    probe.push_back(KeyT(std_keys[i]));
    std_probe.push_back(std_keys[i]);
  }
  ffi::Map<KeyT, int64_t> m;
  ffi::Dict<KeyT, int64_t> d;
  std::unordered_map<StdKeyT, int64_t> s;
  for (size_t i = 0; i < n; ++i) {
    m.Set(keys[i], static_cast<int64_t>(i));
    d.Set(keys[i], static_cast<int64_t>(i));
    s[std_keys[i]] = static_cast<int64_t>(i);
  }

  Row row;
  // Rounds interleave the contenders so that all see the same machine load.
  for (int round = 0; round < 5; ++round) {
    Time(&row.map_insert, reps, n, [&] { return Build<ffi::Map<KeyT, int64_t>>(keys); });
    Time(&row.dict_insert, reps, n, [&] { return Build<ffi::Dict<KeyT, int64_t>>(keys); });
    Time(&row.std_insert, reps, n, [&] {
      std::unordered_map<StdKeyT, int64_t> u;
      for (size_t i = 0; i < n; ++i) u[std_keys[i]] = static_cast<int64_t>(i);
      return static_cast<int64_t>(u.size());
    });
    Time(&row.map_lookup, reps, n, [&] { return SumLookups(m, probe); });
    Time(&row.dict_lookup, reps, n, [&] { return SumLookups(d, probe); });
    Time(&row.std_lookup, reps, n, [&] { return SumLookups(s, std_probe); });
  }
  return row;
}

void Print(const char* kind, size_t n, const Row& r) {
  std::printf("%-7s %7zu | %8.1f %8.1f %8.1f %6.2fx | %8.1f %8.1f %8.1f\n", kind, n, r.map_lookup,
              r.dict_lookup, r.std_lookup, r.map_lookup / r.std_lookup, r.map_insert, r.dict_insert,
              r.std_insert);
}

}  // namespace

int main() {
  std::printf(
      "ns per operation (thread CPU time, best of 5 rounds);"
      " ratio = Map lookup / std::unordered_map lookup\n");
  std::printf("%-7s %7s | %8s %8s %8s %7s | %8s %8s %8s\n", "keys", "entries", "Map", "Dict", "std",
              "ratio", "Map", "Dict", "std");
  std::printf("%-15s | %-35s | %s\n", "", "lookup", "insert");
  const size_t sizes[] = {10, 1000, 100000};
  for (size_t n : sizes) {
    std::mt19937_64 rng(n);
    std::vector<int64_t> keys;
    for (size_t i = 0; i < n; ++i) keys.push_back(static_cast<int64_t>(rng() >> 1));
    Print("int64", n, Measure<int64_t>(keys));
  }
  // "key_<number>": 5 to 11 bytes, so a mix of inline and heap Strings.
  for (size_t n : sizes) {
    std::vector<std::string> keys;
    for (size_t i = 0; i < n; ++i)
      keys.push_back("key_" + std::to_string(i * 2654435761u % 1000003u));
    Print("string", n, Measure<ffi::String>(keys));
  }
  return 0;
}
