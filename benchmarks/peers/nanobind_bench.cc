// The benchmark functions bound through nanobind (the reference binding of the
// table); built by bench_calls.py from nanobind's shipped sources.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <string>
#include <vector>

namespace nb = nanobind;

NB_MODULE(nanobind_bench, m) {
  m.def("nop", []() {});
  m.def("f3", [](int64_t a, int64_t b, int64_t c) { return a + b + c; });
  m.def("add_one", [](int64_t x) { return x + 1; });
  m.def("echo", [](const std::string& s) { return s; });
  m.def("sum_list", [](const std::vector<int64_t>& values) {
    int64_t total = 0;
    for (int64_t v : values) total += v;
    return total;
  });
  m.def("call_callback", [](nb::callable cb) { return nb::cast<int64_t>(cb(1)); });
  m.def("tensor_data_ptr",
        [](nb::ndarray<> t) { return static_cast<int64_t>(reinterpret_cast<intptr_t>(t.data())); });
  // The same functions releasing the GIL around the call, as tvm_ffi does by
  // default: the column that shows what the release itself costs.
  using release = nb::call_guard<nb::gil_scoped_release>;
  m.def("nop_nogil", []() {}, release());
  m.def("f3_nogil", [](int64_t a, int64_t b, int64_t c) { return a + b + c; }, release());
  m.def("add_one_nogil", [](int64_t x) { return x + 1; }, release());
  m.def("echo_nogil", [](const std::string& s) { return s; }, release());
  m.def(
      "tensor_data_ptr_nogil",
      [](nb::ndarray<> t) { return static_cast<int64_t>(reinterpret_cast<intptr_t>(t.data())); },
      release());
}
