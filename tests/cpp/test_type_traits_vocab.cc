// Tests of the type_traits.h vocabulary: type-index aliases and keys,
// storage_enabled, use_default_type_traits_v, type_subsumes_v, integral enums,
// StrictBool, the fallback trait bases, raw object pointers and the
// field/runtime type-index helpers.
#include <gtest/gtest.h>

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/type_traits.h>
#include "testing_helpers.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace test_vocab {

namespace ffi = tvm::ffi;

enum class Color : uint8_t { kRed = 1, kBlue = 200 };
enum Plain { kPlainA = -3 };

struct NoTraits {};

// Converts from a StrictBool or an int (tried in that order), never stored as itself.
struct Level {
  int64_t value;
};

class TagObj : public ffi::Object {
 public:
  std::string name;
  explicit TagObj(std::string n) : name(std::move(n)) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.vocab.Tag", TagObj, ffi::Object);
};

// A reference class that also converts from a string or a StrictBool.
class Tag : public ffi::ObjectRef {
 public:
  explicit Tag(std::string name) { data_ = ffi::make_object<TagObj>(std::move(name)); }
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Tag, ffi::ObjectRef, TagObj);
};

// A reference class with hand-written traits (the default ones switched off).
class Custom : public ffi::ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Custom, ffi::ObjectRef, TagObj);
};

class MutableObj : public ffi::Object {
 public:
  int64_t v = 0;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.vocab.Mutable", MutableObj, ffi::Object);
};

}  // namespace test_vocab

namespace tvm {
namespace ffi {
template <>
struct TypeTraits<test_vocab::Level>
    : public FallbackOnlyTraitsBase<test_vocab::Level, StrictBool, int64_t> {
  static test_vocab::Level ConvertFallbackValue(int64_t v) { return {v}; }
  static test_vocab::Level ConvertFallbackValue(StrictBool b) { return {b ? 100 : 0}; }
  static void CopyToAnyView(const test_vocab::Level& src, TVMFFIAny* r) {
    TypeTraits<int64_t>::CopyToAnyView(src.value, r);
  }
  static void MoveToAny(test_vocab::Level src, TVMFFIAny* r) { CopyToAnyView(src, r); }
  static std::string TypeStr() { return "Level"; }
  static std::string TypeSchema() { return R"({"type":"int"})"; }
};

template <>
struct TypeTraits<test_vocab::Tag>
    : public ObjectRefWithFallbackTraitsBase<test_vocab::Tag, String, StrictBool> {
  static test_vocab::Tag ConvertFallbackValue(String s) { return test_vocab::Tag(s); }
  static test_vocab::Tag ConvertFallbackValue(StrictBool b) {
    return test_vocab::Tag(b ? "yes" : "no");
  }
};

template <>
inline constexpr bool use_default_type_traits_v<test_vocab::Custom> = false;

// Only the check is overridden: a Custom accepts nothing but None.
template <>
struct TypeTraits<test_vocab::Custom> : public ObjectRefTypeTraitsBase<test_vocab::Custom> {
  static bool CheckAnyStrict(const TVMFFIAny* src) { return src->type_index == kTVMFFINone; }
};
}  // namespace ffi
}  // namespace tvm

namespace test_vocab {
namespace {

using tvm_ffi_testing::Cell;
using tvm_ffi_testing::ErrorMessage;

TEST(TypeTraitsVocab, TypeIndexAliasesTheCEnum) {
  static_assert(std::is_same_v<ffi::TypeIndex, TVMFFITypeIndex>);
  static_assert(std::is_same_v<ffi::TypeInfo, TVMFFITypeInfo>);
  EXPECT_EQ(ffi::TypeIndex::kTVMFFIInt, kTVMFFIInt);
}

TEST(TypeTraitsVocab, StaticTypeKeysMatchTheRuntimeTable) {
  EXPECT_EQ(ffi::TypeIndexToTypeKey(kTVMFFIInt), ffi::StaticTypeKey::kTVMFFIInt);
  EXPECT_EQ(ffi::TypeIndexToTypeKey(kTVMFFIFloat), ffi::StaticTypeKey::kTVMFFIFloat);
  EXPECT_EQ(ffi::TypeIndexToTypeKey(kTVMFFINone), ffi::StaticTypeKey::kTVMFFINone);
  EXPECT_EQ(ffi::TypeIndexToTypeKey(kTVMFFIStr), ffi::StaticTypeKey::kTVMFFIStr);
  EXPECT_EQ(ffi::TypeIndexToTypeKey(kTVMFFIArray), ffi::StaticTypeKey::kTVMFFIArray);
  EXPECT_EQ(ffi::TypeIndexToTypeKey(kTVMFFIFunction), ffi::StaticTypeKey::kTVMFFIFunction);
  EXPECT_EQ(ffi::TypeIndexToTypeKey(kTVMFFIObject), ffi::StaticTypeKey::kTVMFFIObject);
  EXPECT_STREQ(ffi::StaticTypeKey::kTVMFFIRawStr, "const char*");
  EXPECT_STREQ(ffi::StaticTypeKey::kTVMFFIObjectRValueRef, "ObjectRValueRef");
}

TEST(TypeTraitsVocab, StorageEnabledMarksWhatAnyCanHold) {
  static_assert(ffi::TypeTraits<int>::storage_enabled);
  static_assert(ffi::TypeTraits<ffi::String>::storage_enabled);
  static_assert(ffi::TypeTraits<ffi::Array<int>>::storage_enabled);
  static_assert(!ffi::TypeTraits<std::string>::storage_enabled);
  static_assert(!ffi::TypeTraits<const char*>::storage_enabled);
  static_assert(!ffi::TypeTraits<DLTensor*>::storage_enabled);
  static_assert(!ffi::TypeTraits<Level>::storage_enabled);
  static_assert(!ffi::TypeTraits<NoTraits>::convert_enabled);
  static_assert(!ffi::TypeTraits<NoTraits>::storage_enabled);
}

TEST(TypeTraitsVocab, TypeSubsumesFollowsInheritance) {
  static_assert(ffi::type_subsumes_v<int, int>);
  static_assert(!ffi::type_subsumes_v<int, double>);
  static_assert(ffi::type_subsumes_v<ffi::Any, double>);
  static_assert(ffi::type_subsumes_v<ffi::ObjectRef, Tag>);
  static_assert(!ffi::type_subsumes_v<Tag, ffi::ObjectRef>);
  static_assert(ffi::type_subsumes_v<ffi::ObjectPtr<ffi::Object>, ffi::ObjectPtr<TagObj>>);
  static_assert(ffi::type_subsumes_v<ffi::ObjectPtr<ffi::Object>, ffi::Arc<TagObj>>);
  static_assert(!ffi::type_subsumes_v<ffi::Arc<TagObj>, ffi::Arc<ffi::Object>>);
}

TEST(TypeTraitsVocab, FieldAndRuntimeTypeIndex) {
  EXPECT_EQ(ffi::TypeToFieldStaticTypeIndex<int>::value, kTVMFFIInt);
  EXPECT_EQ(ffi::TypeToFieldStaticTypeIndex<double>::value, kTVMFFIFloat);
  EXPECT_EQ(ffi::TypeToFieldStaticTypeIndex<bool>::value, kTVMFFIBool);
  EXPECT_EQ(ffi::TypeToFieldStaticTypeIndex<ffi::Any>::value, kTVMFFIAny);
  EXPECT_EQ(ffi::TypeToFieldStaticTypeIndex<NoTraits>::value, kTVMFFIAny);
  EXPECT_EQ(ffi::TypeToFieldStaticTypeIndex<Level>::value, kTVMFFIAny);
  EXPECT_EQ(ffi::TypeToRuntimeTypeIndex<Tag>::v(), TagObj::RuntimeTypeIndex());
  EXPECT_EQ(ffi::TypeToRuntimeTypeIndex<ffi::ObjectPtr<TagObj>>::v(), TagObj::RuntimeTypeIndex());
  EXPECT_EQ(ffi::TypeToRuntimeTypeIndex<int64_t>::v(), kTVMFFIInt);
}

TEST(TypeTraitsVocab, IntegralEnumIsStoredAsInt) {
  static_assert(ffi::is_integeral_enum_v<Color>);
  static_assert(!ffi::is_integeral_enum_v<int>);
  ffi::AnyView v = Color::kBlue;
  EXPECT_EQ(v.type_index(), kTVMFFIInt);
  EXPECT_EQ(Cell(v)->v_int64, 200);
  ffi::Any a = kPlainA;
  EXPECT_EQ(a.cast<int>(), -3);
  EXPECT_EQ(a.cast<Plain>(), kPlainA);
  EXPECT_EQ(ffi::Any(Color::kRed).cast<Color>(), Color::kRed);
}

TEST(TypeTraitsVocab, UnsignedOverflowMessage) {
  uint64_t big = std::numeric_limits<uint64_t>::max();
  EXPECT_EQ(ErrorMessage([&] { ffi::Any a(big); }, "OverflowError"),
            "Integer value 18446744073709551615 is too large to fit in int64_t. Consider "
            "explicitly casting to int64_t first if this is intentional.");
}

TEST(TypeTraitsVocab, StrictBoolRejectsInt) {
  EXPECT_TRUE(ffi::Any(true).cast<ffi::StrictBool>());
  EXPECT_FALSE(ffi::Any(1).try_cast<ffi::StrictBool>().has_value());
  EXPECT_TRUE(ffi::Any(1).try_cast<bool>().has_value());
  ffi::Any stored = ffi::StrictBool(false);
  EXPECT_EQ(stored.type_index(), kTVMFFIBool);
}

TEST(TypeTraitsVocab, FallbackOnlyTriesEachTypeInOrder) {
  EXPECT_EQ(ffi::Any(7).cast<Level>().value, 7);
  EXPECT_EQ(ffi::Any(true).cast<Level>().value, 100);
  EXPECT_FALSE(ffi::Any(1.5).try_cast<Level>().has_value());
  EXPECT_FALSE(ffi::Any(7).as<Level>().has_value());
}

TEST(TypeTraitsVocab, ObjectRefWithFallbackPrefersTheObject) {
  Tag original("x");
  ffi::Any a = original;
  EXPECT_TRUE(a.cast<Tag>().same_as(original));
  EXPECT_EQ(ffi::Any("name").cast<Tag>()->name, "name");
  EXPECT_EQ(ffi::Any(false).cast<Tag>()->name, "no");
  EXPECT_FALSE(ffi::Any(1).try_cast<Tag>().has_value());
}

TEST(TypeTraitsVocab, OverriddenCheckDrivesConversion) {
  ffi::Any tag = Tag("t");
  // Custom's traits accept only None, although the object is a TagObj.
  EXPECT_FALSE(tag.try_cast<Custom>().has_value());
  EXPECT_TRUE(ffi::Any(nullptr).try_cast<Custom>().has_value());
}

TEST(TypeTraitsVocab, RawObjectPointerRoundTrips) {
  Tag tag("p");
  const TagObj* raw = tag.get();
  ffi::Any a = raw;  // takes a new reference
  EXPECT_EQ(tag.use_count(), 2);
  EXPECT_EQ(a.cast<const TagObj*>(), raw);
  EXPECT_EQ(ffi::Any(1).try_cast<const TagObj*>(), std::nullopt);
  ffi::ObjectPtr<MutableObj> m = ffi::make_object<MutableObj>();
  ffi::Any ma = m;
  ma.cast<MutableObj*>()->v = 5;
  EXPECT_EQ(m->v, 5);
  EXPECT_EQ(ffi::TypeTraits<const TagObj*>::TypeStr(), "test.vocab.Tag");
}

TEST(TypeTraitsVocab, UnknownIndexKeyIsDescriptive) {
  EXPECT_EQ(ffi::TypeIndexToTypeKey(99999), "<unknown type index 99999>");
}

}  // namespace
}  // namespace test_vocab
