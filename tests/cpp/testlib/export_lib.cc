/*
 * A user library for the module tests: built by CMake as its own shared
 * object (export_lib.so in TVM_FFI_TEST_LIB_DIR), using only the public
 * headers, and loaded with Module::LoadFromFile. It exports functions with
 * TVM_FFI_DLL_EXPORT_TYPED_FUNC (metadata turned on part-way through, to
 * check that the flag is read where the macro is used) and doc strings with
 * TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC.
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace export_lib {
namespace ffi = tvm::ffi;

int64_t SubOne(int64_t x) { return x - 1; }

int64_t AddOne(int64_t x) { return x + 1; }

/*! \brief output = input * 2 over float32 tensors of the same size (the guide's example). */
void ProcessBatch(ffi::TensorView input, ffi::TensorView output) {
  for (const ffi::TensorView* t : {&input, &output}) {
    if (t->dtype().code != kDLFloat || t->dtype().bits != 32 || t->dtype().lanes != 1) {
      TVM_FFI_THROW(TypeError) << "process_batch expects float32 tensors";
    }
  }
  if (input.numel() != output.numel()) {
    TVM_FFI_THROW(ValueError) << "process_batch: input has " << input.numel()
                              << " elements, output has " << output.numel();
  }
  const float* src = reinterpret_cast<const float*>(static_cast<const char*>(input.data_ptr()) +
                                                    input.byte_offset());
  float* dst =
      reinterpret_cast<float*>(static_cast<char*>(output.data_ptr()) + output.byte_offset());
  for (int64_t i = 0; i < input.numel(); ++i) dst[i] = src[i] * 2.0f;
}

ffi::String Concat(const ffi::String& a, std::string b) { return a + std::string_view(b); }

// Raise an ffi::Error of the given kind from inside the library.
void RaiseError(const std::string& kind, const std::string& msg) {
  if (kind == "ValueError") TVM_FFI_THROW(ValueError) << msg;
  if (kind == "IndexError") TVM_FFI_THROW(IndexError) << msg;
  if (kind == "std") throw std::out_of_range(msg);
  TVM_FFI_THROW(RuntimeError) << msg;
}

// Call back into the caller: errors cross two boundaries on their way back.
int64_t CallBack(ffi::Function f, int64_t x) { return f(x).cast<int64_t>() + 1; }

// A closure whose code lives in this library (for lifetime tests).
ffi::Function MakeAdder(int64_t base) {
  return ffi::Function::FromTyped([base](int64_t x) { return base + x; }, "adder");
}

}  // namespace export_lib

/*! \brief Set by the loader to the Module handle after dlopen. */
extern "C" {
TVM_FFI_DLL_EXPORT void* __tvm_ffi__library_ctx = nullptr;
}

/*! \brief A context symbol: the loader writes what the test registered under this name. */
extern "C" {
TVM_FFI_DLL_EXPORT void* __tvm_ffi_test_context_symbol = nullptr;
// Declared by the environment API header; repeated here so the library only
// needs the core headers.
TVM_FFI_DLL int TVMFFIEnvModLookupFromImports(TVMFFIObjectHandle library_ctx, const char* func_name,
                                              TVMFFIObjectHandle* out);
}

namespace export_lib {
void* GetLibraryCtx() { return __tvm_ffi__library_ctx; }
void* GetContextSymbol() { return __tvm_ffi_test_context_symbol; }

/*! \brief Call name(x) found through this library's imports (or the global registry). */
ffi::Any CallFromImports(const std::string& name, int64_t x) {
  TVMFFIObjectHandle handle = nullptr;
  TVM_FFI_CHECK_SAFE_CALL(
      TVMFFIEnvModLookupFromImports(__tvm_ffi__library_ctx, name.c_str(), &handle));
  // Borrowed: the module's cache keeps the function alive.
  ffi::Function f = ffi::detail::ObjectUnsafe::ObjectRefFromObjectPtr<ffi::Function>(
      ffi::detail::ObjectUnsafe::ObjectPtrFromUnowned<ffi::Object>(
          static_cast<TVMFFIObject*>(handle)));
  return f(x);
}
}  // namespace export_lib

// Before the flag is set: no metadata symbol.
TVM_FFI_DLL_EXPORT_TYPED_FUNC(sub_one, export_lib::SubOne);

#define TVM_FFI_DLL_EXPORT_INCLUDE_METADATA 1

TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, export_lib::AddOne);
TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(add_one, "Add one to x.");

TVM_FFI_DLL_EXPORT_TYPED_FUNC(process_batch, export_lib::ProcessBatch);
TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(process_batch,
                                  R"(Process a batch of inputs and write results to output tensor.

Parameters
----------
input : TensorView
    Input tensor to process
output : TensorView
    Output tensor for results)");

TVM_FFI_DLL_EXPORT_TYPED_FUNC(concat, export_lib::Concat);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(raise_error, export_lib::RaiseError);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(call_back, export_lib::CallBack);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_adder, export_lib::MakeAdder);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(get_library_ctx, export_lib::GetLibraryCtx);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(get_context_symbol, export_lib::GetContextSymbol);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(call_from_imports, export_lib::CallFromImports);
