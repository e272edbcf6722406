// Nanoseconds per call of a typed 3-int function, called through
// ffi::Function, TypedFunction, the C ABI (TVMFFIFunctionCall) and the raw
// safe_call pointer, against a plain (non-inlined) C++ call as a baseline.
//
// Build with -DTVM_FFI_BUILD_BENCHMARKS=ON; run build/benchmarks/bench_function
// [iterations].
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/function.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>

namespace {
namespace ffi = tvm::ffi;

TVM_FFI_NOINLINE int64_t Add3(int64_t a, int64_t b, int64_t c) { return a + b + c; }

// Keeps results observable so the loops are not optimized away.
volatile int64_t g_sink = 0;

template <typename F>
double NsPerCall(int64_t iters, F&& body) {
  // Warm-up, then the timed run.
  for (int64_t i = 0; i < iters / 10 + 1; ++i) body(i);
  auto start = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < iters; ++i) body(i);
  auto end = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(end - start).count() / static_cast<double>(iters);
}

TVMFFIAny IntCell(int64_t v) {
  TVMFFIAny a;
  a.type_index = kTVMFFIInt;
  a.zero_padding = 0;
  a.v_int64 = v;
  return a;
}
}  // namespace

int main(int argc, char** argv) {
  int64_t iters = argc > 1 ? std::atoll(argv[1]) : 10000000;
  if (iters <= 0) {
    std::fprintf(stderr, "usage: %s [iterations > 0]\n", argv[0]);
    return 1;
  }
  ffi::Function f = ffi::Function::FromTyped(Add3, "add3");
  ffi::TypedFunction<int64_t(int64_t, int64_t, int64_t)> typed(f);
  std::function<int64_t(int64_t, int64_t, int64_t)> std_fn = Add3;
  TVMFFIObjectHandle handle = ffi::detail::ObjectUnsafe::GetHeader(f.get());
  const TVMFFIFunctionCell* cell = f.get();

  double ns_plain = NsPerCall(iters, [](int64_t i) { g_sink = g_sink + Add3(i, 1, 2); });
  double ns_std = NsPerCall(iters, [&](int64_t i) { g_sink = g_sink + std_fn(i, 1, 2); });
  double ns_function =
      NsPerCall(iters, [&](int64_t i) { g_sink = g_sink + f(i, 1, 2).cast<int64_t>(); });
  double ns_typed = NsPerCall(iters, [&](int64_t i) { g_sink = g_sink + typed(i, 1, 2); });
  double ns_c_abi = NsPerCall(iters, [&](int64_t i) {
    TVMFFIAny args[3] = {IntCell(i), IntCell(1), IntCell(2)};
    TVMFFIAny result = IntCell(0);
    result.type_index = kTVMFFINone;
    if (TVMFFIFunctionCall(handle, args, 3, &result) != 0) std::abort();
    g_sink = g_sink + result.v_int64;
  });
  double ns_safe_call = NsPerCall(iters, [&](int64_t i) {
    TVMFFIAny args[3] = {IntCell(i), IntCell(1), IntCell(2)};
    TVMFFIAny result = IntCell(0);
    result.type_index = kTVMFFINone;
    if (cell->safe_call(handle, args, 3, &result) != 0) std::abort();
    g_sink = g_sink + result.v_int64;
  });

  std::printf("typed 3-int function, %lld calls each\n", static_cast<long long>(iters));
  std::printf("%-36s %10s\n", "path", "ns/call");
  std::printf("%-36s %10.2f\n", "plain C++ call (baseline)", ns_plain);
  std::printf("%-36s %10.2f\n", "std::function", ns_std);
  std::printf("%-36s %10.2f\n", "ffi::Function f(a, b, c)", ns_function);
  std::printf("%-36s %10.2f\n", "ffi::TypedFunction", ns_typed);
  std::printf("%-36s %10.2f\n", "C ABI TVMFFIFunctionCall", ns_c_abi);
  std::printf("%-36s %10.2f\n", "C ABI cell.safe_call directly", ns_safe_call);
  return 0;
}
