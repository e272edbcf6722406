/*
 * Library exports of libtvm_ffi_testing, linkable and loadable as a module
 * (tvm_ffi.load_module on the library itself): two typed functions exported
 * with their metadata (and one with its doc), and a plain C symbol.
 */
#define TVM_FFI_DLL_EXPORT_INCLUDE_METADATA 1

#include <tvm/ffi/function.h>

#include <cstdint>

namespace {

int64_t SchemaIdInt(int64_t x) { return x; }

int64_t AddWithDocstring(int64_t a, int64_t b) { return a + b; }

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(testing_dll_schema_id_int, SchemaIdInt);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(testing_dll_test_add_with_docstring, AddWithDocstring);
TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(testing_dll_test_add_with_docstring,
                                  "Add two integers and return the sum.\n"
                                  "\n"
                                  "Parameters\n"
                                  "----------\n"
                                  "a : int\n"
                                  "    First integer\n"
                                  "b : int\n"
                                  "    Second integer\n"
                                  "\n"
                                  "Returns\n"
                                  "-------\n"
                                  "result : int\n"
                                  "    Sum of a and b");

/*! \brief A C symbol with a known address and no arguments (returns 0). */
extern "C" TVM_FFI_DLL_EXPORT int TVMFFITestingDummyTarget() { return 0; }
