/*
 * Global functions "testing.*" and object types "testing.*" that the Python
 * test suite (tests/python) calls to exercise the binding from the C++ side:
 * round trips, callbacks, errors with native frames, containers mutated in
 * C++, reflection, signals and GIL release across threads.
 *
 * They live in libtvm_ffi_testing.so (CMake option TVM_FFI_BUILD_TESTING_LIBRARY),
 * installed next to libtvm_ffi and registering them when loaded: "import tvm_ffi"
 * loads it, the C++ suite uses dlopen. The runtime itself registers no
 * "testing.*" name.
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>

TVM_FFI_NAMESPACE_BEGIN
namespace testing {
namespace {

// Throws an Error of a run-time chosen kind with this site's native backtrace.
[[noreturn]] TVM_FFI_NOINLINE void ThrowKind(const std::string& kind, const std::string& msg) {
  const TVMFFIByteArray* bt = TVMFFIBacktrace(__FILE__, __LINE__, TVM_FFI_FUNC_SIG, 0);
  throw Error(kind, msg, bt != nullptr ? std::string_view(bt->data, bt->size) : std::string_view());
}

TVM_FFI_NOINLINE void ThrowValueErrorInner(int64_t depth) {
  if (depth > 0) {
    ThrowValueErrorInner(depth - 1);
    return;
  }
  TVM_FFI_THROW(ValueError) << "raised from C++ at depth 0";
}

// A two-party barrier: the first caller waits until a second caller arrives
// (or the timeout passes). Returns whether both met.
struct Barrier {
  std::mutex mutex;
  std::condition_variable cv;
  int64_t waiting = 0;
  int64_t generation = 0;

  bool Wait(int64_t timeout_ms) {
    std::unique_lock<std::mutex> lock(mutex);
    int64_t gen = generation;
    if (++waiting == 2) {
      waiting = 0;
      ++generation;
      cv.notify_all();
      return true;
    }
    bool met =
        cv.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] { return generation != gen; });
    if (!met) --waiting;
    return met;
  }
};

Barrier& GlobalBarrier() {
  static Barrier* barrier = new Barrier();
  return *barrier;
}

// Raises SIGINT in this thread, then asks the environment to check signals:
// with Python's checker installed this returns -1 and Python's
// KeyboardInterrupt is already set (kind EnvErrorAlreadySet).
int RaiseSigintAndCheck(void*, const TVMFFIAny*, int32_t, TVMFFIAny* result) {
  std::raise(SIGINT);
  if (TVMFFIEnvCheckSignals() != 0) return -1;
  result->type_index = kTVMFFIBool;
  result->zero_padding = 0;
  result->v_int64 = 0;
  return 0;
}

// ---------------------------------------------------------------------------
// Reflected object types: testing.Base (a: int, read-only) and its subtype
// testing.Derived (b: int, writable), registered with reflection::ObjectDef.
// ---------------------------------------------------------------------------
class BaseObj : public Object {
 public:
  int64_t a = 0;
  explicit BaseObj(int64_t a) : a(a) {}
  TVM_FFI_DECLARE_OBJECT_INFO("testing.Base", BaseObj, Object);
};

class DerivedObj : public BaseObj {
 public:
  int64_t b = 0;
  DerivedObj(int64_t a, int64_t b) : BaseObj(a), b(b) {}
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.Derived", DerivedObj, BaseObj);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::ObjectDef<BaseObj>()
      .def_ro("a", &BaseObj::a)
      .def(refl::init<int64_t>())
      .def("twice_a", [](const BaseObj* self) -> int64_t { return self->a * 2; });
  refl::ObjectDef<DerivedObj>()
      .def_rw("b", &DerivedObj::b)
      .def(refl::init<int64_t, int64_t>())
      .def("sum", [](const DerivedObj* self) -> int64_t { return self->a + self->b; })
      .def_static("make_default", []() { return ObjectRef(make_object<DerivedObj>(1, 2)); });
}

}  // namespace
}  // namespace testing
TVM_FFI_NAMESPACE_END

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace ffi = tvm::ffi;
  namespace refl = tvm::ffi::reflection;
  using ffi::Any;
  using ffi::AnyView;
  refl::GlobalDef()
      .def_packed(
          "testing.echo",
          [](const AnyView* args, int32_t num_args, Any* rv) {
            // Packed, as in the reference (its schema is a bare ffi.Function); extra
            // arguments are ignored, a missing one is an error.
            if (num_args < 1) {
              TVM_FFI_THROW(TypeError) << "testing.echo expects 1 argument, got 0";
            }
            *rv = args[0];
          },
          "Return the argument unchanged.")
      .def("testing.add_one", [](int64_t x) { return x + 1; })
      .def(
          "testing.type_index", [](AnyView x) -> int64_t { return x.type_index(); },
          "Type index of the argument as C++ sees it.")
      .def("testing.throw_error",
           [](ffi::String kind, ffi::String msg) { ffi::testing::ThrowKind(kind, msg); })
      .def("testing.throw_value_error_nested",
           [](int64_t depth) { ffi::testing::ThrowValueErrorInner(depth); })
      .def("testing.call_and_catch",
           [](ffi::Function f) -> ffi::String {
             // What C++ sees of an error raised by f: "kind: message".
             try {
               f();
             } catch (const ffi::Error& err) {
               return ffi::String(err.kind() + ": " + err.message());
             }
             return ffi::String("no error");
           })
      .def("testing.swallow_error_then_call",
           [](ffi::Function f, ffi::Function cb) -> Any {
             // Native code that ignores f's error (a signal check's, say) and calls back.
             try {
               f();
             } catch (const ffi::Error&) {
             }
             return cb();
           })
      .def("testing.call_in_native_thread",
           [](ffi::Function f, Any arg) -> Any {
             // Calls f from a fresh std::thread, which has no Python thread state.
             Any result;
             std::string error;
             std::thread worker([&]() {
               try {
                 result = f(arg);
               } catch (const ffi::Error& err) {
                 error = err.kind() + ": " + err.message();
               }
             });
             worker.join();
             if (!error.empty()) TVM_FFI_THROW(RuntimeError) << "in native thread: " << error;
             return result;
           })
      .def("testing.return_error",
           [](ffi::String kind, ffi::String msg) { return ffi::Error(kind, msg); })
      .def_packed(
          "testing.nop", [](const AnyView*, int32_t, Any*) {},
          "Take any arguments and return None (the empty-call baseline of the benchmarks).")
      .def_packed("testing.apply",
                  [](const AnyView* args, int32_t num_args, Any* rv) {
                    // apply(f, *rest) -> f(*rest), through the packed calling convention.
                    ffi::Function f = args[0].cast<ffi::Function>();
                    f.CallPacked(args + 1, num_args - 1, rv);
                  })
      .def_packed("testing.call_global",
                  [](const AnyView* args, int32_t num_args, Any* rv) {
                    ffi::String name = args[0].cast<ffi::String>();
                    ffi::Function f = ffi::Function::GetGlobalRequired(std::string(name));
                    f.CallPacked(args + 1, num_args - 1, rv);
                  })
      .def(
          "testing.barrier_wait",
          [](int64_t timeout_ms) { return ffi::testing::GlobalBarrier().Wait(timeout_ms); },
          "Block until a second thread calls it too; false after timeout_ms.")
      .def("testing.list_append", [](ffi::List<Any> list, Any value) { list.push_back(value); })
      .def("testing.list_size", [](ffi::List<Any> list) -> int64_t { return list.size(); })
      .def("testing.dict_set",
           [](ffi::Dict<Any, Any> dict, Any key, Any value) { dict.Set(key, value); })
      .def("testing.make_list",
           [](int64_t n) {
             ffi::List<Any> list;
             for (int64_t i = 0; i < n; ++i) list.push_back(i);
             return list;
           })
      .def("testing.make_derived",
           [](int64_t a, int64_t b) {
             return ffi::ObjectRef(ffi::make_object<ffi::testing::DerivedObj>(a, b));
           })
      .def("testing.make_base",
           [](int64_t a) { return ffi::ObjectRef(ffi::make_object<ffi::testing::BaseObj>(a)); })
      .def_function(
          "testing.raise_sigint_and_check_signals",
          ffi::Function::FromExternC(nullptr, ffi::testing::RaiseSigintAndCheck, nullptr));
}

// Tensor helpers for tests/python/test_tensor*.py: a counting CPU allocator
// (so tests see exactly when C++ frees tensor memory) and functions taking
// each of the tensor parameter kinds (TensorView, DLTensor*, Tensor).
TVM_FFI_NAMESPACE_BEGIN
namespace testing {
namespace {

std::atomic<int64_t> tensor_alloc_count{0};
std::atomic<int64_t> tensor_free_count{0};

/*! \brief CPU allocator counting AllocData/FreeData calls. */
struct CountingCPUAlloc {
  void AllocData(DLTensor* t) {
    // At least one byte so a size-0 tensor still has a valid, unique address.
    size_t size = GetDataSize(*t);
    t->data = std::aligned_alloc(64, ((size == 0 ? 1 : size) + 63) / 64 * 64);
    if (t->data == nullptr) TVM_FFI_THROW(RuntimeError) << "testing.make_tensor: out of memory";
    tensor_alloc_count.fetch_add(1);
  }
  void FreeData(DLTensor* t) {
    std::free(t->data);
    tensor_free_count.fetch_add(1);
  }
};

/*! \brief Add one to every element (honouring strides and byte_offset). */
template <typename T>
void AddOneTyped(const DLTensor& t) {
  int64_t numel = 1;
  for (int32_t i = 0; i < t.ndim; ++i) numel *= t.shape[i];
  char* base = static_cast<char*>(t.data) + t.byte_offset;
  std::vector<int64_t> index(static_cast<size_t>(t.ndim), 0);
  for (int64_t k = 0; k < numel; ++k) {
    int64_t offset = 0;
    int64_t expected = 1;
    for (int32_t d = t.ndim - 1; d >= 0; --d) {
      int64_t stride = t.strides != nullptr ? t.strides[d] : expected;
      offset += index[static_cast<size_t>(d)] * stride;
      expected *= t.shape[d];
    }
    reinterpret_cast<T*>(base)[offset] += T(1);
    for (int32_t d = t.ndim - 1; d >= 0; --d) {
      if (++index[static_cast<size_t>(d)] < t.shape[d]) break;
      index[static_cast<size_t>(d)] = 0;
    }
  }
}

void AddOne(const DLTensor& t, const char* who) {
  if (t.device.device_type != kDLCPU) {
    TVM_FFI_THROW(ValueError) << who << ": only CPU tensors are supported";
  }
  DLDataType dt = t.dtype;
  if (dt.code == kDLFloat && dt.bits == 32 && dt.lanes == 1) return AddOneTyped<float>(t);
  if (dt.code == kDLFloat && dt.bits == 64 && dt.lanes == 1) return AddOneTyped<double>(t);
  if (dt.code == kDLInt && dt.bits == 32 && dt.lanes == 1) return AddOneTyped<int32_t>(t);
  if (dt.code == kDLInt && dt.bits == 64 && dt.lanes == 1) return AddOneTyped<int64_t>(t);
  TVM_FFI_THROW(TypeError) << who << ": unsupported dtype " << DLDataTypeToString(dt);
}

Array<Any> TensorInfo(const DLTensor& t) {
  Array<Any> shape;
  Array<Any> strides;
  for (int32_t i = 0; i < t.ndim; ++i) {
    shape.push_back(t.shape[i]);
    if (t.strides != nullptr) strides.push_back(t.strides[i]);
  }
  return Array<Any>{static_cast<int64_t>(reinterpret_cast<uintptr_t>(t.data)),
                    shape,
                    strides,
                    static_cast<int64_t>(t.byte_offset),
                    t.dtype,
                    t.device};
}

}  // namespace
}  // namespace testing
TVM_FFI_NAMESPACE_END

TVM_FFI_NAMESPACE_BEGIN
namespace testing {
namespace {
/*! \brief Registers `name`: returns the type indexes of its arguments as an
 *  Array<int>; its metadata declares parameters `params` (JSON schema list). */
void RegisterArgKindProbe(const char* name, const char* params) {
  Function f = Function::FromPacked([](const AnyView* args, int32_t num_args, Any* rv) {
    Array<int64_t> kinds;
    for (int32_t i = 0; i < num_args; ++i) kinds.push_back(args[i].type_index());
    *rv = kinds;
  });
  std::string schema =
      std::string(R"({"type":"ffi.Function","args":[{"type":"ffi.Array"},)") + params + "]}";
  std::string metadata = detail::MakeFuncMetadata(schema);
  TVMFFIMethodInfo info;
  info.name = TVMFFIByteArray{name, std::strlen(name)};
  info.doc = TVMFFIByteArray{nullptr, 0};
  info.metadata = TVMFFIByteArray{metadata.data(), metadata.size()};
  info.flags = 0;
  TypeTraits<Function>::CopyToAnyView(f, &info.method);
  TVM_FFI_CHECK_SAFE_CALL(TVMFFIFunctionSetGlobalFromMethodInfo(&info, 0));
}
}  // namespace
}  // namespace testing
TVM_FFI_NAMESPACE_END

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace ffi = tvm::ffi;
  namespace refl = tvm::ffi::reflection;
  refl::GlobalDef()
      .def(
          "testing.make_tensor",
          [](ffi::Shape shape, DLDataType dtype) {
            return ffi::Tensor::FromNDAlloc(ffi::testing::CountingCPUAlloc(), shape, dtype,
                                            DLDevice{kDLCPU, 0});
          },
          "A compact CPU tensor from the counting allocator (memory uninitialised).")
      .def("testing.tensor_alloc_count",
           []() -> int64_t { return ffi::testing::tensor_alloc_count.load(); })
      .def("testing.tensor_free_count",
           []() -> int64_t { return ffi::testing::tensor_free_count.load(); })
      .def("testing.tensor_add_one_inplace",
           [](ffi::TensorView t) {
             ffi::testing::AddOne(*t.GetDLTensorPtr(), "testing.tensor_add_one_inplace");
           })
      .def("testing.dltensor_ptr_add_one",
           [](DLTensor* t) { ffi::testing::AddOne(*t, "testing.dltensor_ptr_add_one"); })
      .def("testing.tensor_obj_add_one",
           [](ffi::Tensor t) {
             ffi::testing::AddOne(*t.GetDLTensorPtr(), "testing.tensor_obj_add_one");
           })
      .def("testing.tensor_identity", [](ffi::Tensor t) { return t; })
      .def(
          "testing.tensor_info",
          [](ffi::TensorView t) { return ffi::testing::TensorInfo(*t.GetDLTensorPtr()); },
          "[data address, shape, strides, byte_offset, dtype, device] as C++ sees them.")
      .def("testing.dltensor_ptr_info", [](DLTensor* t) { return ffi::testing::TensorInfo(*t); });
  // Packed functions reporting the type index each argument arrived with, under
  // a declared schema: bindings choose how to pass arrays from the schema only.
  ffi::testing::RegisterArgKindProbe("testing.arg_kinds_view_tensor_view",
                                     R"({"type":"DLTensor*"},{"type":"ffi.Tensor"},)"
                                     R"({"type":"DLTensor*"})");
}
