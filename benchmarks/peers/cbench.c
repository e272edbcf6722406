/* The benchmark functions as a plain C library, called through ctypes and
 * cffi (ABI mode via dlopen, API mode via cffi_bench_api.py-style cdef).
 * Strings are NUL-terminated bytes; lists are int64 arrays with a length. */
#include <stdint.h>

void nop(void) {}

int64_t f3(int64_t a, int64_t b, int64_t c) { return a + b + c; }

int64_t add_one(int64_t x) { return x + 1; }

const char* echo(const char* s) { return s; }

int64_t sum_list(const int64_t* values, int64_t n) {
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) total += values[i];
  return total;
}

int64_t call_callback(int64_t (*cb)(int64_t)) { return cb(1); }
