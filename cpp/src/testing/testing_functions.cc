/*
 * More "testing.*" globals, under the names and signatures downstream test
 * suites call after a plain "import tvm_ffi":
 *  - testing.test_raise_error(kind, msg): throws an Error of that kind;
 *  - testing.schema_*: identity-like functions of one parameter type each,
 *    whose type schema (in the function metadata) the stub generators and
 *    signature printers read;
 *  - testing.make_*_with_tensor: containers holding a given tensor (the
 *    conversions back to Python of containers with tensors inside);
 *  - testing.get_add_one_c_symbol / testing.get_mlir_add_one_c_symbol: the
 *    address of a C function computing x + 1 in the safe-call and the MLIR
 *    packed calling conventions (for Function.__from_extern_c__ and
 *    Function.__from_mlir_packed_safe_call__);
 *  - testing.optional_tensor_view_has_value, testing.run_check_signal.
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <chrono>
#include <cstdint>
#include <iostream>
#include <string>
#include <thread>

TVM_FFI_NAMESPACE_BEGIN
namespace testing {
namespace {

// x + 1 through the safe-call convention; the argument is read as a C int.
int AddOneSafeCall(void*, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  if (num_args != 1) {
    TVM_FFI_THROW(TypeError) << "add_one expects 1 argument but got " << num_args;
  }
  int x = AnyView::CopyFromTVMFFIAny(args[0]).cast<int>();
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = static_cast<int64_t>(x) + 1;
  TVM_FFI_SAFE_CALL_END();
}

// The same in the MLIR packed convention: five pointers to the handle, the
// arguments, their count, the result and the return code.
void AddOneMlirPacked(void** packed) {
  void* handle = *static_cast<void**>(packed[0]);
  const TVMFFIAny* args = *static_cast<const TVMFFIAny**>(packed[1]);
  int32_t num_args = *static_cast<int32_t*>(packed[2]);
  TVMFFIAny* result = *static_cast<TVMFFIAny**>(packed[3]);
  *static_cast<int*>(packed[4]) = AddOneSafeCall(handle, args, num_args, result);
}

[[noreturn]] TVM_FFI_NOINLINE void TestRaiseError(const String& kind, const String& msg) {
  const TVMFFIByteArray* bt = TVMFFIBacktrace(__FILE__, __LINE__, TVM_FFI_FUNC_SIG, 0);
  throw Error(std::string(kind), std::string(msg),
              bt != nullptr ? std::string_view(bt->data, bt->size) : std::string_view());
}

// Sleeps in steps of 100 ms for `seconds` seconds, checking for signals after
// each step; a pending signal (a Python KeyboardInterrupt) ends the call.
void RunCheckSignal(int64_t seconds) {
  for (int64_t i = 0; i < seconds * 10; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (TVMFFIEnvCheckSignals() != 0) throw EnvErrorAlreadySet();
  }
  std::cout << "Function finished without catching signal" << std::endl;
}

}  // namespace
}  // namespace testing
TVM_FFI_NAMESPACE_END

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace ffi = tvm::ffi;
  namespace refl = tvm::ffi::reflection;
  using ffi::Any;
  using ffi::Array;
  using ffi::Dict;
  using ffi::List;
  using ffi::Map;
  using ffi::Optional;
  using ffi::String;
  using ffi::Tensor;
  using ffi::Variant;

  refl::GlobalDef()
      .def(
          "testing.test_raise_error",
          [](String kind, String msg) { ffi::testing::TestRaiseError(kind, msg); },
          "Throw an Error of the given kind and message (with this frame's backtrace).")
      .def(
          "testing.get_add_one_c_symbol",
          []() -> int64_t {
            return static_cast<int64_t>(reinterpret_cast<intptr_t>(&ffi::testing::AddOneSafeCall));
          },
          "Address of a TVMFFISafeCallType function computing x + 1.")
      .def(
          "testing.get_mlir_add_one_c_symbol",
          []() -> int64_t {
            return static_cast<int64_t>(
                reinterpret_cast<intptr_t>(&ffi::testing::AddOneMlirPacked));
          },
          "Address of an MLIR packed function void(void**) computing x + 1.")
      .def("testing.run_check_signal",
           [](int64_t seconds) { ffi::testing::RunCheckSignal(seconds); })
      .def("testing.optional_tensor_view_has_value",
           [](Optional<ffi::TensorView> t) { return t.has_value(); })
      // Containers holding a tensor.
      .def("testing.make_array_with_tensor", [](Tensor t) { return Array<Any>{t}; })
      .def("testing.make_array_with_mixed",
           [](Tensor t, int64_t v) { return Array<Any>{t, v, String("hello")}; })
      .def("testing.make_empty_array_with_tensor_input", [](Tensor) { return Array<Any>(); })
      .def("testing.make_list_with_tensor", [](Tensor t, int64_t v) { return List<Any>{t, v}; })
      .def("testing.make_nested_array_with_tensor",
           [](Tensor t) { return Array<Any>{Array<Any>{t, int64_t(42)}, t}; })
      .def("testing.make_map_with_tensor",
           [](Tensor t) {
             return Map<String, Any>{
                 {"tensor", t}, {"value", int64_t(42)}, {"name", String("test")}};
           })
      .def("testing.make_dict_with_tensor",
           [](Tensor t) {
             Dict<String, Any> d;
             d.Set("tensor", t);
             d.Set("value", int64_t(42));
             return d;
           })
      .def("testing.make_nested_map_with_tensor",
           [](Tensor a, Tensor b) {
             return Map<String, Any>{{"array", Array<Any>{a, b}},
                                     {"map", Map<String, Any>{{"t", a}}},
                                     {"scalar", int64_t(99)}};
           })
      // One function per parameter type; each returns its argument.
      .def(
          "testing.schema_id_int", [](int64_t x) { return x; },
          refl::Metadata{{"bool_attr", true}, {"int_attr", 1}, {"str_attr", "hello"}})
      .def("testing.schema_id_float", [](double x) { return x; })
      .def("testing.schema_id_bool", [](bool x) { return x; })
      .def("testing.schema_id_device", [](DLDevice x) { return x; })
      .def("testing.schema_id_dtype", [](DLDataType x) { return x; })
      .def("testing.schema_id_string", [](String x) { return x; })
      .def("testing.schema_id_bytes", [](ffi::Bytes x) { return x; })
      .def("testing.schema_id_func", [](ffi::Function x) { return x; })
      .def("testing.schema_id_func_typed",
           [](ffi::TypedFunction<void(int64_t, double, ffi::Function)> x) { return x; })
      .def("testing.schema_id_any", [](Any x) { return x; })
      .def("testing.schema_id_object", [](ffi::ObjectRef x) { return x; })
      .def("testing.schema_id_dltensor", [](DLTensor* x) { return x; })
      .def("testing.schema_id_tensor", [](Tensor x) { return x; })
      .def("testing.schema_id_opt_int", [](Optional<int64_t> x) { return x; })
      .def("testing.schema_id_opt_str", [](Optional<String> x) { return x; })
      .def("testing.schema_id_opt_obj", [](Optional<ffi::ObjectRef> x) { return x; })
      .def("testing.schema_id_arr", [](ffi::Arc<ffi::ArrayObj> x) { return x; })
      .def("testing.schema_id_arr_int", [](Array<int64_t> x) { return x; })
      .def("testing.schema_id_arr_str", [](Array<String> x) { return x; })
      .def("testing.schema_id_arr_obj", [](Array<ffi::ObjectRef> x) { return x; })
      .def("testing.schema_id_list_int", [](List<int64_t> x) { return x; })
      .def("testing.schema_id_list_str", [](List<String> x) { return x; })
      .def("testing.schema_id_list_obj", [](List<ffi::ObjectRef> x) { return x; })
      .def("testing.schema_id_map", [](ffi::Arc<ffi::MapObj> x) { return x; })
      .def("testing.schema_id_map_str_int", [](Map<String, int64_t> x) { return x; })
      .def("testing.schema_id_map_str_str", [](Map<String, String> x) { return x; })
      .def("testing.schema_id_map_str_obj", [](Map<String, ffi::ObjectRef> x) { return x; })
      .def("testing.schema_id_dict_str_int", [](Dict<String, int64_t> x) { return x; })
      .def("testing.schema_id_dict_str_str", [](Dict<String, String> x) { return x; })
      .def("testing.schema_id_variant_int_str", [](Variant<int64_t, String> x) { return x; })
      .def("testing.schema_variant_mix",
           [](Variant<int64_t, String, Array<int64_t>> x) { return x; })
      .def("testing.schema_tensor_view_input", [](ffi::TensorView) {})
      .def("testing.schema_no_args", []() -> int64_t { return 1; })
      .def("testing.schema_no_args_no_return", []() {})
      .def("testing.schema_no_return", [](int64_t) {})
      .def_packed("testing.schema_packed", [](const ffi::AnyView*, int32_t, Any*) {})
      .def("testing.schema_arr_map_opt",
           [](Array<Optional<int64_t>> values, Map<String, Array<int64_t>> table,
              Optional<String> key) {
             // table plus, when key is given, key -> the non-None values.
             Map<String, Array<int64_t>> out = table;
             if (key.has_value()) {
               Array<int64_t> kept;
               for (const Optional<int64_t>& v : values) {
                 if (v.has_value()) kept.push_back(*v);
               }
               out.Set(*key, kept);
             }
             return out;
           });
}
