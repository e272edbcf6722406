// The benchmark functions bound through pybind11 (header-only); built by
// bench_calls.py with `python -m pybind11 --includes`.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <vector>

namespace py = pybind11;

PYBIND11_MODULE(pybind11_bench, m) {
  m.def("nop", []() {});
  m.def("f3", [](int64_t a, int64_t b, int64_t c) { return a + b + c; });
  m.def("add_one", [](int64_t x) { return x + 1; });
  m.def("echo", [](const std::string& s) { return s; });
  m.def("sum_list", [](const std::vector<int64_t>& values) {
    int64_t total = 0;
    for (int64_t v : values) total += v;
    return total;
  });
  m.def("call_callback", [](py::function cb) { return cb(1).cast<int64_t>(); });
}
