// The generated __ffi_init__ (ffi._RegisterFFIInit) on the reflected fixtures
// of libtvm_ffi_testing: binding of positional and keyword arguments, defaults,
// init-off and keyword-only fields, and the exact error texts; plus the
// fixtures' explicit constructors, __ffi_convert__ and the reflection globals
// ffi.MakeObjectFromPackedArgs and ffi.GetRegisteredTypeKeys.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/type_attr.h>
#include <tvm/ffi/string.h>

#include <string>

#include "testing_helpers.h"

namespace {

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;
using tvm_ffi_testing::ErrorMessage;

class AutoInit : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string path = std::string(TVM_FFI_TEST_LIB_DIR) + "/libtvm_ffi_testing.so";
    // Never closed: the registry keeps the library's functions.
    ASSERT_NE(dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL), nullptr) << dlerror();
  }

  static int32_t Index(const char* key) {
    int32_t index = -1;
    TVMFFIByteArray bytes = refl::AsByteArray(key);
    EXPECT_EQ(TVMFFITypeKeyToIndex(&bytes, &index), 0);
    return index;
  }

  static ffi::AnyView Attr(const char* column, const char* key) {
    return refl::TypeAttrColumn(column)[Index(key)];
  }

  static ffi::Function Init(const char* key) {
    return Attr("__ffi_init__", key).cast<ffi::Function>();
  }

  static ffi::ObjectRef Kwargs() {
    return ffi::Function::GetGlobalRequired("ffi.GetKwargsObject")().cast<ffi::ObjectRef>();
  }

  static int64_t Int(const ffi::ObjectRef& obj, const char* key, const char* field) {
    return refl::FieldGetter(key, field)(obj).cast<int64_t>();
  }
};

TEST_F(AutoInit, PositionalKeywordAndDefaultsBind) {
  const char* key = "testing.TestCxxAutoInit";
  ffi::ObjectRef obj = Init(key)(1, Kwargs(), "c", 5).cast<ffi::ObjectRef>();
  EXPECT_EQ(Int(obj, key, "a"), 1);
  EXPECT_EQ(Int(obj, key, "b"), 42);
  EXPECT_EQ(Int(obj, key, "c"), 5);
  EXPECT_EQ(Int(obj, key, "d"), 99);
}

TEST_F(AutoInit, DefaultedPositionalComesAfterRequired) {
  const char* key = "testing.TestCxxAutoInit";
  ffi::ObjectRef obj = Init(key)(1, 7, Kwargs(), "c", 5).cast<ffi::ObjectRef>();
  EXPECT_EQ(Int(obj, key, "d"), 7);
}

TEST_F(AutoInit, TooManyPositionalArguments) {
  EXPECT_EQ(ErrorMessage([&] { Init("testing.TestCxxAutoInit")(1, 2, 3); }),
            "testing.TestCxxAutoInit.__ffi_init__() takes at most 2 positional argument(s), but "
            "3 were given");
}

TEST_F(AutoInit, OddKeywordItems) {
  EXPECT_EQ(ErrorMessage([&] { Init("testing.TestCxxAutoInit")(1, Kwargs(), "c"); }),
            "testing.TestCxxAutoInit.__ffi_init__() KWARGS requires an even number of key-value "
            "arguments");
}

TEST_F(AutoInit, KeywordNamingInitOffFieldIsUnexpected) {
  EXPECT_EQ(ErrorMessage([&] { Init("testing.TestCxxAutoInit")(1, Kwargs(), "b", 2); }),
            "testing.TestCxxAutoInit.__ffi_init__() got an unexpected keyword argument 'b'");
}

TEST_F(AutoInit, KeywordRepeatingPositionalIsMultipleValues) {
  EXPECT_EQ(ErrorMessage([&] { Init("testing.TestCxxAutoInit")(1, Kwargs(), "a", 2, "c", 3); }),
            "testing.TestCxxAutoInit.__ffi_init__() got multiple values for argument 'a'");
}

TEST_F(AutoInit, MissingRequiredPositional) {
  EXPECT_EQ(ErrorMessage([&] { Init("testing.TestCxxAutoInit")(); }),
            "testing.TestCxxAutoInit.__ffi_init__() missing required argument: 'a'");
}

TEST_F(AutoInit, MissingRequiredKeywordOnly) {
  EXPECT_EQ(ErrorMessage([&] { Init("testing.TestCxxAutoInit")(1); }),
            "testing.TestCxxAutoInit.__ffi_init__() missing required keyword-only argument: 'c'");
}

TEST_F(AutoInit, NonStringKeyIsAConversionError) {
  EXPECT_EQ(ErrorMessage([&] { Init("testing.TestCxxAutoInit")(1, Kwargs(), 3, 4); }),
            "Cannot convert from type `int` to `str`");
}

TEST_F(AutoInit, RejectedValueNamesTheField) {
  EXPECT_EQ(ErrorMessage([&] { Init("testing.TestCxxAutoInit")(1.5, Kwargs(), "c", 1); }),
            "testing.TestCxxAutoInit.__ffi_init__() field 'a':\n"
            "  Cannot convert from type `float` to `int`");
}

TEST_F(AutoInit, AllInitOffFieldsTakeDefaultsOrKeepCreatorValue) {
  const char* key = "testing.TestCxxAutoInitAllInitOff";
  ffi::ObjectRef obj = Init(key)().cast<ffi::ObjectRef>();
  EXPECT_EQ(Int(obj, key, "x"), 7);
  EXPECT_EQ(Int(obj, key, "y"), 9);
  EXPECT_EQ(Int(obj, key, "z"), 1234);  // no reflected default: the C++ initializer's value
  EXPECT_EQ(ErrorMessage([&] { Init(key)(1); }),
            "testing.TestCxxAutoInitAllInitOff.__ffi_init__() takes at most 0 positional "
            "argument(s), but 1 were given");
}

TEST_F(AutoInit, KeywordOnlyDefaultsAndHiddenField) {
  const char* key = "testing.TestCxxAutoInitKwOnlyDefaults";
  ffi::ObjectRef obj = Init(key)(1, Kwargs(), "k_required", 2).cast<ffi::ObjectRef>();
  EXPECT_EQ(Int(obj, key, "p_required"), 1);
  EXPECT_EQ(Int(obj, key, "p_default"), 11);
  EXPECT_EQ(Int(obj, key, "k_required"), 2);
  EXPECT_EQ(Int(obj, key, "k_default"), 22);
  EXPECT_EQ(Int(obj, key, "hidden"), 33);
}

TEST_F(AutoInit, InheritedFieldsComeFirstAndRequiredBeforeDefaulted) {
  const char* child = "testing.TestCxxAutoInitChild";
  const char* parent = "testing.TestCxxAutoInitParent";
  ffi::ObjectRef obj = Init(child)(1, 2, 6, Kwargs(), "child_kw_only", 3).cast<ffi::ObjectRef>();
  EXPECT_EQ(Int(obj, parent, "parent_required"), 1);
  EXPECT_EQ(Int(obj, child, "child_required"), 2);
  EXPECT_EQ(Int(obj, parent, "parent_default"), 6);
  EXPECT_EQ(Int(obj, child, "child_kw_only"), 3);
}

TEST_F(AutoInit, KeywordOnlyTypeTakesOnlyKeywords) {
  const char* key = "testing.TestCxxKwOnly";
  ffi::ObjectRef obj = Init(key)(Kwargs(), "x", 1, "y", 2, "z", 3).cast<ffi::ObjectRef>();
  EXPECT_EQ(Int(obj, key, "w"), 100);
  EXPECT_EQ(ErrorMessage([&] { Init(key)(1); }),
            "testing.TestCxxKwOnly.__ffi_init__() takes at most 0 positional argument(s), but 1 "
            "were given");
}

TEST_F(AutoInit, InitFalseSuppressesTheGeneratedInit) {
  EXPECT_EQ(Attr("__ffi_init__", "testing.TestCxxNoAutoInit").type_index(), kTVMFFINone);
  EXPECT_EQ(Attr("__ffi_new__", "testing.TestCxxNoAutoInit").type_index(), kTVMFFIFunction);
}

TEST_F(AutoInit, FieldDefaultsOfTestObjectBase) {
  const char* key = "testing.TestObjectBase";
  ffi::ObjectRef obj = Init(key)().cast<ffi::ObjectRef>();
  EXPECT_EQ(Int(obj, key, "v_i64"), 10);
  EXPECT_EQ(refl::FieldGetter(key, "v_f64")(obj).cast<double>(), 10.0);
  EXPECT_EQ(refl::FieldGetter(key, "v_str")(obj).cast<std::string>(), "hello");
  EXPECT_EQ(refl::GetMethod(key, "add_i64")(obj, 5).cast<int64_t>(), 15);
}

TEST_F(AutoInit, ExplicitInitRunsTheConstructor) {
  const char* key = "testing.TestCxxClassBase";
  ffi::ObjectRef obj = Init(key)(1, 2).cast<ffi::ObjectRef>();
  EXPECT_EQ(Int(obj, key, "v_i64"), 2);
  EXPECT_EQ(Int(obj, key, "v_i32"), 4);
}

TEST_F(AutoInit, ConvertAcceptsOnlyTheType) {
  ffi::Function convert = Attr("__ffi_convert__", "testing.TestIntPair").cast<ffi::Function>();
  ffi::ObjectRef pair = Init("testing.TestIntPair")(1, 2).cast<ffi::ObjectRef>();
  EXPECT_TRUE(convert(pair).cast<ffi::ObjectRef>().same_as(pair));
  EXPECT_EQ(ErrorMessage([&] { convert(1); }), "Cannot cast from `int` to `testing.TestIntPair`");
}

TEST_F(AutoInit, NonCopyableTypeHasNoShallowCopy) {
  EXPECT_EQ(Attr("__ffi_shallow_copy__", "testing.TestNonCopyable").type_index(), kTVMFFINone);
  EXPECT_EQ(Attr("__ffi_shallow_copy__", "testing.TestObjectBase").type_index(), kTVMFFIFunction);
}

TEST_F(AutoInit, MakeObjectFromPackedArgsUsesSettersAndDefaults) {
  ffi::Function make = ffi::Function::GetGlobalRequired("ffi.MakeObjectFromPackedArgs");
  ffi::ObjectRef pair = make("testing.TestIntPair", "b", 2, "a", 1).cast<ffi::ObjectRef>();
  EXPECT_EQ(Int(pair, "testing.TestIntPair", "a"), 1);
  EXPECT_EQ(Int(pair, "testing.TestIntPair", "b"), 2);
  ffi::ObjectRef base = make(Index("testing.TestObjectBase"), "v_i64", 3).cast<ffi::ObjectRef>();
  EXPECT_EQ(Int(base, "testing.TestObjectBase", "v_i64"), 3);
  EXPECT_EQ(ErrorMessage([&] { make("testing.TestIntPair", "a", 1); }),
            "Required field `b` not set in type `testing.TestIntPair`");
  EXPECT_EQ(ErrorMessage([&] { make("testing.TestIntPair", "a", 1, "b", 2, "c", 3); }),
            "Type `testing.TestIntPair` does not have field `c`");
}

TEST_F(AutoInit, RegisteredTypeKeysListEveryType) {
  ffi::Array<ffi::String> keys = ffi::Function::GetGlobalRequired("ffi.GetRegisteredTypeKeys")()
                                     .cast<ffi::Array<ffi::String>>();
  bool has_object = false, has_fixture = false;
  for (const ffi::String& k : keys) {
    has_object |= k == "ffi.Object";
    has_fixture |= k == "testing.TestObjectBase";
  }
  EXPECT_TRUE(has_object);
  EXPECT_TRUE(has_fixture);
}

}  // namespace
