/* A C program built with $(tvm-ffi-config --cflags --ldflags --libs): looks up
 * the global function ffi.SystemLib, calls it through the C ABI and checks
 * that the result is a module object. */
#include <stdio.h>
#include <string.h>
#include <tvm/ffi/c_api.h>

int main(void) {
  TVMFFIByteArray name = {"ffi.SystemLib", strlen("ffi.SystemLib")};
  TVMFFIObjectHandle func = NULL;
  if (TVMFFIFunctionGetGlobal(&name, &func) != 0 || func == NULL) {
    fprintf(stderr, "ffi.SystemLib is not registered\n");
    return 1;
  }
  TVMFFIAny result;
  memset(&result, 0, sizeof(result));
  if (TVMFFIFunctionCall(func, NULL, 0, &result) != 0) {
    fprintf(stderr, "call failed\n");
    return 1;
  }
  printf("type_index=%d\n", (int)result.type_index);
  if (result.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(result.v_obj);
  TVMFFIObjectDecRef(func);
  return result.type_index == kTVMFFIModule ? 0 : 1;
}
