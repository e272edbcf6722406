/*
 * docs/abi.md §0: our classes live in an inline namespace, so a hand-written
 * `namespace tvm { namespace ffi { class ObjectRef; } }` declares a different
 * class. Forward declarations go through TVM_FFI_NAMESPACE_BEGIN/_END of the
 * small <tvm/ffi/base.h> instead; this file does that before any other header.
 */
#include <tvm/ffi/base.h>

TVM_FFI_NAMESPACE_BEGIN
class ObjectRef;
class Any;
class String;
TVM_FFI_NAMESPACE_END

#include <cstdint>

namespace fwd_test {
// Declared against the forward declarations only.
int64_t UseCountOf(const tvm::ffi::ObjectRef& ref);
tvm::ffi::String Describe(const tvm::ffi::Any& value);
}  // namespace fwd_test

#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <string>

namespace fwd_test {
int64_t UseCountOf(const tvm::ffi::ObjectRef& ref) { return ref.use_count(); }
tvm::ffi::String Describe(const tvm::ffi::Any& value) { return value.GetTypeKey(); }
}  // namespace fwd_test

namespace {

TEST(ForwardDeclaration, ThroughTheNamespaceMacrosNamesTheSameClasses) {
  tvm::ffi::Array<int> array{1, 2};
  tvm::ffi::ObjectRef ref = array;
  EXPECT_EQ(fwd_test::UseCountOf(ref), 2);
  EXPECT_EQ(std::string(fwd_test::Describe(tvm::ffi::Any(1))), "int");
}

}  // namespace
