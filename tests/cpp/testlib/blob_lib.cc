/*
 * A library that embeds other modules (__tvm_ffi__library_bin) in the layout
 * export_library writes (abi.md §4: byte count, import tree as CSR row pointers
 * and child indices, then each module's type key and, unless it is "_lib", its
 * payload), for the loader tests. The blob is written by a static
 * initializer, i.e. while the library is being opened, from the environment
 * variable TVM_FFI_TEST_BLOB_VARIANT (load a fresh copy of the file per variant):
 *   tree      [_lib, test_blob("child")], the library imports child
 *   two       [_lib, test_blob("a"), test_blob("b")], the library imports both
 *   root      [test_blob("outer"), _lib]: outer is the root and imports the library
 *   truncated a type key length far past the end of the data
 *   unknown   [_lib, nokind("x")]: a kind without a loader
 *   badtree   [_lib, test_blob("c")] whose tree names module 5
 * Modules of kind "test_blob" are made by the test's loader
 * ffi.Module.load_from_bytes.test_blob.
 */
#include <tvm/ffi/function.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
TVM_FFI_DLL_EXPORT char __tvm_ffi__library_bin[512];
}

namespace {
void PutU64(std::string* out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
void PutStr(std::string* out, const std::string& s) {
  PutU64(out, s.size());
  out->append(s);
}
void PutVec(std::string* out, const std::vector<uint64_t>& v) {
  PutU64(out, v.size());
  for (uint64_t x : v) PutU64(out, x);
}

std::string MakeBlob(const std::string& variant) {
  std::string body;
  if (variant == "tree") {
    PutVec(&body, {0, 1, 1});
    PutVec(&body, {1});
    PutStr(&body, "_lib");
    PutStr(&body, "test_blob");
    PutStr(&body, "child");
  } else if (variant == "two") {
    PutVec(&body, {0, 2, 2, 2});
    PutVec(&body, {1, 2});
    PutStr(&body, "_lib");
    PutStr(&body, "test_blob");
    PutStr(&body, "a");
    PutStr(&body, "test_blob");
    PutStr(&body, "b");
  } else if (variant == "root") {
    PutVec(&body, {0, 1, 1});
    PutVec(&body, {1});
    PutStr(&body, "test_blob");
    PutStr(&body, "outer");
    PutStr(&body, "_lib");
  } else if (variant == "truncated") {
    PutVec(&body, {0, 1, 1});
    PutVec(&body, {1});
    PutStr(&body, "_lib");
    PutU64(&body, 1000);  // a type key length far past the end
  } else if (variant == "badtree") {
    PutVec(&body, {0, 1, 1});
    PutVec(&body, {5});
    PutStr(&body, "_lib");
    PutStr(&body, "test_blob");
    PutStr(&body, "c");
  } else {
    PutVec(&body, {0, 1, 1});
    PutVec(&body, {1});
    PutStr(&body, "_lib");
    PutStr(&body, "nokind");
    PutStr(&body, "x");
  }
  std::string blob;
  PutU64(&blob, body.size());
  return blob + body;
}

struct BlobWriter {
  BlobWriter() {
    const char* variant = std::getenv("TVM_FFI_TEST_BLOB_VARIANT");
    std::string blob = MakeBlob(variant ? variant : "tree");
    std::memcpy(__tvm_ffi__library_bin, blob.data(), blob.size());
  }
} blob_writer;

int64_t FromLib(int64_t x) { return x + 1000; }
}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(from_lib, FromLib);
