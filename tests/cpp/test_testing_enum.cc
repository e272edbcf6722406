// The enum fixtures of libtvm_ffi_testing.so (testing.TestCxxIntEnum,
// testing.TestCxxStrEnum, testing.TestEnumVariant, testing.TestCxxEnumHolder)
// as the Python suite relies on them.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <tvm/ffi/any.h>
#include <tvm/ffi/enum.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/enum_def.h>
#include <tvm/ffi/reflection/type_attr.h>
#include <tvm/ffi/string.h>
#include "testing_helpers.h"

#include <string>

namespace {
namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;
using ffi::Any;
using ffi::Enum;
using ffi::Function;
using ffi::String;
using tvm_ffi_testing::ErrorMessage;

class TestingEnum : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string path = std::string(TVM_FFI_TEST_LIB_DIR) + "/libtvm_ffi_testing.so";
    // Never closed: the registry keeps the library's types and functions.
    ASSERT_NE(dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL), nullptr) << dlerror();
  }
  static Enum Get(const char* key, Any index) {
    return Function::GetGlobalRequired("testing.enum_get")(key, index).cast<Enum>();
  }
  static int32_t Index(const char* key) { return ffi::detail::GetTypeInfoByKey(key)->type_index; }
  static ffi::EnumState State(const char* key) {
    return refl::TypeAttrColumn(refl::type_attr::kEnumState)[Index(key)].cast<ffi::EnumState>();
  }
};

TEST_F(TestingEnum, IntEnumHasLowAndHigh) {
  Enum low = Get("testing.TestCxxIntEnum", int64_t{10});
  EXPECT_EQ(low->_str_index, "low");
  EXPECT_EQ(low->GetTypeKey(), "testing.TestCxxIntEnum");
  EXPECT_TRUE(Get("testing.TestCxxIntEnum", String("high"))
                  .same_as(Get("testing.TestCxxIntEnum", int64_t{20})));
  EXPECT_EQ(State("testing.TestCxxIntEnum")->entries.size(), 2u);
}

TEST_F(TestingEnum, StrEnumIsIndexedBySymbol) {
  Enum add = Get("testing.TestCxxStrEnum", String("+"));
  EXPECT_EQ(add->_int_index, 0);
  EXPECT_EQ(Get("testing.TestCxxStrEnum", int64_t{1})->_str_index, "*");
}

TEST_F(TestingEnum, VariantHasCodeAttribute) {
  Function get = Function::GetGlobalRequired("testing.enum_variant_get");
  Enum beta = get("Beta").cast<Enum>();
  EXPECT_EQ(beta->_int_index, 1);
  ffi::EnumState state = State("testing.TestEnumVariant");
  EXPECT_EQ(state->attrs["code"][beta].cast<int64_t>(), 20);
  EXPECT_EQ(ErrorMessage([&] { get("Gamma"); }, "ValueError"),
            "Enum `testing.TestEnumVariant` has no instance with index Gamma");
}

TEST_F(TestingEnum, EnumTypesConvertOnlyTheirOwnSingletons) {
  Function convert =
      refl::TypeAttrColumn(refl::type_attr::kConvert)[Index("testing.TestCxxIntEnum")]
          .cast<Function>();
  Enum low = Get("testing.TestCxxIntEnum", int64_t{10});
  EXPECT_TRUE(convert(low).cast<Enum>().same_as(low));
  EXPECT_EQ(ErrorMessage([&] { convert(int64_t{10}); }, "TypeError"),
            "Cannot cast from `int` to `testing.TestCxxIntEnum`");
}

TEST_F(TestingEnum, HolderIsBuiltByTheGeneratedInit) {
  Function init = refl::TypeAttrColumn(refl::type_attr::kInit)[Index("testing.TestCxxEnumHolder")]
                      .cast<Function>();
  Enum high = Get("testing.TestCxxIntEnum", int64_t{20});
  Enum mul = Get("testing.TestCxxStrEnum", String("*"));
  Any holder = init(high, mul);
  refl::FieldGetter priority("testing.TestCxxEnumHolder", "priority");
  refl::FieldGetter opcode("testing.TestCxxEnumHolder", "opcode");
  EXPECT_TRUE(priority(holder.cast<ffi::ObjectRef>()).cast<Enum>().same_as(high));
  EXPECT_TRUE(opcode(holder.cast<ffi::ObjectRef>()).cast<Enum>().same_as(mul));
}

TEST_F(TestingEnum, HolderRejectsAnEnumOfTheOtherType) {
  Function init = refl::TypeAttrColumn(refl::type_attr::kInit)[Index("testing.TestCxxEnumHolder")]
                      .cast<Function>();
  Enum add = Get("testing.TestCxxStrEnum", String("+"));
  std::string msg = ErrorMessage([&] { init(add, add); }, "TypeError");
  EXPECT_NE(msg.find("priority"), std::string::npos) << msg;
}

TEST_F(TestingEnum, HolderFieldsAreTypedByTheEnumKeys) {
  const TVMFFIFieldInfo* f = refl::GetFieldInfo("testing.TestCxxEnumHolder", "priority");
  std::string metadata(f->metadata.data, f->metadata.size);
  EXPECT_NE(metadata.find("testing.TestCxxIntEnum"), std::string::npos) << metadata;
  EXPECT_EQ(f->offset, 24);
  EXPECT_EQ(refl::GetFieldInfo("testing.TestCxxEnumHolder", "opcode")->offset, 32);
}

}  // namespace
