// Enums: the reflected layouts of ffi.EnumState / ffi.Enum / ffi.IntEnum /
// ffi.StrEnum, EnumDef registration (entries, indexes, attributes, errors) and
// the lookups EnumObj::_GetByIntIndex / _GetByStrIndex.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/enum.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/enum_def.h>
#include <tvm/ffi/reflection/native_function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>
#include "testing_helpers.h"

#include <string>

namespace {

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;
using ffi::Any;
using ffi::Enum;
using ffi::EnumObj;
using ffi::String;
using tvm_ffi_testing::ErrorMessage;

class TColorObj : public ffi::StrEnumObj {
 public:
  using StrEnumObj::StrEnumObj;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.enum.Color", TColorObj, ffi::StrEnumObj);
};

class TLevelObj : public ffi::IntEnumObj {
 public:
  using IntEnumObj::IntEnumObj;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.enum.Level", TLevelObj, ffi::IntEnumObj);
};

// No constructor of its own: EnumDef allocates the base layout under this type's index.
class TShapeKindObj : public EnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.enum.ShapeKind", TShapeKindObj, EnumObj);
};

// An enum type whose state is registered but has no entries.
class TEmptyObj : public EnumObj {
 public:
  using EnumObj::EnumObj;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.enum.Empty", TEmptyObj, EnumObj);
};

// Its __ffi_enum__ attribute is not an EnumState.
class TBrokenObj : public EnumObj {
 public:
  using EnumObj::EnumObj;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.enum.Broken", TBrokenObj, EnumObj);
};

int64_t ColorWeight(const Any& v) { return v.cast<int64_t>() + 1000; }
const refl::AttrKey<refl::NativeFunctionView<int64_t(const Any&)>> kWeight{"weight"};
const refl::AttrKey<int64_t> kRank{"rank"};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<TColorObj>(refl::init(false));
  refl::EnumDef<TColorObj>("red").set_attr("hex", "#f00").set_attr(kRank, 1);
  refl::EnumDef<TColorObj>("green").set_attr("hex", "#0f0");
  refl::EnumDef<TColorObj>("blue").set_native_fn_attr<&ColorWeight>(kWeight);
  refl::ObjectDef<TLevelObj>(refl::init(false));
  refl::EnumDef<TLevelObj>("low", 10);
  refl::EnumDef<TLevelObj>("high", -20);
  refl::EnumDef<TShapeKindObj>("circle");
  refl::TypeAttrDef<TBrokenObj>().def(refl::type_attr::kEnumState.name, 42);
}

ffi::EnumState StateOf(int32_t type_index) {
  std::optional<ffi::EnumState> state = ffi::detail::GetEnumState(type_index);
  EXPECT_TRUE(state.has_value());
  return *state;
}

const TVMFFIFieldInfo* Field(const char* key, const char* name) {
  return refl::GetFieldInfo(key, name);
}

TEST(Enum, ObjectLayoutsMatchTheAbi) {
  EXPECT_EQ(sizeof(ffi::EnumStateObj), 48u);
  EXPECT_EQ(refl::GetFieldByteOffsetToObject(&ffi::EnumStateObj::entries), 24);
  EXPECT_EQ(refl::GetFieldByteOffsetToObject(&ffi::EnumStateObj::indexes), 32);
  EXPECT_EQ(refl::GetFieldByteOffsetToObject(&ffi::EnumStateObj::attrs), 40);
  EXPECT_EQ(sizeof(EnumObj), 48u);
  EXPECT_EQ(refl::GetFieldByteOffsetToObject(&EnumObj::_int_index), 24);
  EXPECT_EQ(refl::GetFieldByteOffsetToObject(&EnumObj::_str_index), 32);
}

TEST(Enum, BaseTypesAreRegisteredUnderTheirKeys) {
  EXPECT_EQ(EnumObj::RuntimeTypeIndex(), ffi::detail::GetTypeInfoByKey("ffi.Enum")->type_index);
  const TVMFFITypeInfo* int_enum = ffi::detail::GetTypeInfoByKey("ffi.IntEnum");
  ASSERT_EQ(int_enum->type_depth, 2);
  EXPECT_EQ(int_enum->type_ancestors[1]->type_index, EnumObj::RuntimeTypeIndex());
  EXPECT_TRUE(ffi::detail::GetTypeInfoByKey("ffi.EnumState") != nullptr);
  EXPECT_TRUE(ffi::detail::GetTypeInfoByKey("ffi.StrEnum") != nullptr);
}

TEST(Enum, EnumTypesCompareByIdentity) {
  EXPECT_EQ(ffi::detail::GetTypeInfoByKey("ffi.Enum")->metadata->structural_eq_hash_kind,
            kTVMFFISEqHashKindUniqueInstance);
  EXPECT_EQ(ffi::detail::GetTypeInfoByKey("ffi.IntEnum")->metadata->structural_eq_hash_kind,
            kTVMFFISEqHashKindUniqueInstance);
  EXPECT_EQ(ffi::detail::GetTypeInfoByKey("ffi.EnumState")->metadata->structural_eq_hash_kind,
            kTVMFFISEqHashKindUnsupported);
  EXPECT_EQ(ffi::detail::GetTypeInfoByKey("ffi.Enum")->metadata->total_size, 48);
}

TEST(Enum, EnumStateFieldsAreReadOnlyAndInitOff) {
  const char* names[] = {"entries", "indexes", "attrs"};
  int64_t offset = 24;
  for (const char* name : names) {
    const TVMFFIFieldInfo* f = Field("ffi.EnumState", name);
    EXPECT_EQ(f->offset, offset) << name;
    EXPECT_EQ(f->flags, kTVMFFIFieldFlagBitMaskInitOff) << name;
    offset += 8;
  }
  EXPECT_EQ(Field("ffi.EnumState", "entries")->field_static_type_index,
            ffi::TypeIndex::kTVMFFIList);
}

TEST(Enum, EnumStateHasZeroArgumentInit) {
  ffi::Function init = refl::GetMethod("ffi.EnumState", "__ffi_init__");
  Any state = init();
  ASSERT_TRUE(state.as<ffi::EnumState>().has_value());
  EXPECT_EQ(state.cast<ffi::EnumState>()->entries.size(), 0u);
}

TEST(Enum, EnumIndexFieldsAndTheirValueAliases) {
  EXPECT_EQ(Field("ffi.Enum", "_int_index")->offset, 24);
  EXPECT_EQ(Field("ffi.Enum", "_int_index")->flags, kTVMFFIFieldFlagBitMaskSEqHashIgnore);
  EXPECT_EQ(Field("ffi.Enum", "_str_index")->offset, 32);
  EXPECT_EQ(Field("ffi.Enum", "_str_index")->flags, 0);
  EXPECT_EQ(Field("ffi.IntEnum", "value")->offset, 24);
  EXPECT_EQ(Field("ffi.IntEnum", "value")->flags, 520);
  EXPECT_EQ(Field("ffi.IntEnum", "value")->field_static_type_index, ffi::TypeIndex::kTVMFFIInt);
  EXPECT_EQ(Field("ffi.StrEnum", "value")->offset, 32);
  EXPECT_EQ(Field("ffi.StrEnum", "value")->flags, 520);
}

TEST(Enum, StrEnumEntriesGetOrdinalIntIndices) {
  Enum green = EnumObj::_GetByStrIndex<TColorObj>("green");
  EXPECT_EQ(green->_int_index, 1);
  EXPECT_EQ(green->_str_index, "green");
  EXPECT_TRUE(EnumObj::_GetByIntIndex<TColorObj>(1).same_as(green));
  EXPECT_EQ(green->type_index(), TColorObj::RuntimeTypeIndex());
}

TEST(Enum, IntEnumEntriesUseTheGivenIndex) {
  Enum high = EnumObj::_GetByIntIndex<TLevelObj>(-20);
  EXPECT_EQ(high->_str_index, "high");
  EXPECT_TRUE(EnumObj::_GetByStrIndex<TLevelObj>("high").same_as(high));
  EXPECT_EQ(Any(high).cast<ffi::IntEnum>()->value(), -20);
}

TEST(Enum, StateListsEntriesInRegistrationOrder) {
  ffi::EnumState state = StateOf(TColorObj::RuntimeTypeIndex());
  ASSERT_EQ(state->entries.size(), 3u);
  EXPECT_EQ(state->entries[0].as<EnumObj>()->_str_index, "red");
  EXPECT_EQ(state->entries[2].as<EnumObj>()->_str_index, "blue");
  EXPECT_EQ(state->indexes.size(), 6u);
}

TEST(Enum, StateIsTheEnumStateTypeAttribute) {
  refl::TypeAttrColumn column(refl::type_attr::kEnumState);
  Any cell = column[TLevelObj::RuntimeTypeIndex()];
  ASSERT_TRUE(cell.as<ffi::EnumState>().has_value());
  EXPECT_TRUE(cell.cast<ffi::EnumState>().same_as(StateOf(TLevelObj::RuntimeTypeIndex())));
  EXPECT_TRUE(column[EnumObj::RuntimeTypeIndex()] == nullptr);
}

TEST(Enum, ClassWithoutConstructorStillGetsItsTypeIndex) {
  Enum circle = EnumObj::_GetByStrIndex<TShapeKindObj>("circle");
  EXPECT_EQ(circle->type_index(), TShapeKindObj::RuntimeTypeIndex());
  EXPECT_EQ(circle->GetTypeKey(), "test.enum.ShapeKind");
}

TEST(Enum, LookupByMissingIntIndexIsValueError) {
  EXPECT_EQ(ErrorMessage([] { EnumObj::_GetByIntIndex<TLevelObj>(7); }, "ValueError"),
            "Enum `test.enum.Level` has no instance with index 7");
}

TEST(Enum, LookupByMissingStrIndexIsValueError) {
  EXPECT_EQ(ErrorMessage([] { EnumObj::_GetByStrIndex<TColorObj>("pink"); }, "ValueError"),
            "Enum `test.enum.Color` has no instance with index pink");
}

TEST(Enum, LookupInTypeWithoutStateIsValueError) {
  EXPECT_EQ(
      ErrorMessage([] { EnumObj::_GetByIntIndex(TEmptyObj::RuntimeTypeIndex(), 0); }, "ValueError"),
      "Enum `test.enum.Empty` has no instance with index 0");
}

TEST(Enum, DuplicateStrIndexIsValueError) {
  EXPECT_EQ(ErrorMessage([] { refl::EnumDef<TColorObj>("red"); }, "ValueError"),
            "Duplicate enum index for type `test.enum.Color`");
  EXPECT_EQ(StateOf(TColorObj::RuntimeTypeIndex())->entries.size(), 3u);
}

TEST(Enum, DuplicateIntIndexIsValueError) {
  EXPECT_EQ(ErrorMessage([] { refl::EnumDef<TLevelObj>("lowest", 10); }, "ValueError"),
            "Duplicate enum index for type `test.enum.Level`");
  EXPECT_FALSE(refl::EnumDef<TLevelObj>::IsDefined("lowest"));
}

TEST(Enum, IsDefinedChecksTheStrIndex) {
  EXPECT_TRUE(refl::EnumDef<TColorObj>::IsDefined("red"));
  EXPECT_FALSE(refl::EnumDef<TColorObj>::IsDefined("pink"));
  EXPECT_FALSE(refl::EnumDef<TEmptyObj>::IsDefined("anything"));
}

TEST(Enum, IsDefinedRejectsANonStateAttribute) {
  std::string msg = ErrorMessage([] { refl::EnumDef<TBrokenObj>::IsDefined("x"); }, "TypeError");
  EXPECT_NE(msg.find("test.enum.Broken"), std::string::npos) << msg;
}

TEST(Enum, SetAttrFillsPerNameTables) {
  ffi::EnumState state = StateOf(TColorObj::RuntimeTypeIndex());
  Enum red = EnumObj::_GetByStrIndex<TColorObj>("red");
  Enum green = EnumObj::_GetByStrIndex<TColorObj>("green");
  ffi::Dict<ffi::ObjectRef, Any> hex = state->attrs["hex"];
  EXPECT_EQ(hex.size(), 2u);
  EXPECT_EQ(hex[red].cast<String>(), "#f00");
  EXPECT_EQ(hex[green].cast<String>(), "#0f0");
  EXPECT_EQ(state->attrs["rank"][red].cast<int64_t>(), 1);
}

TEST(Enum, NativeFnAttrStoresTheAdapter) {
  ffi::EnumState state = StateOf(TColorObj::RuntimeTypeIndex());
  Enum blue = EnumObj::_GetByStrIndex<TColorObj>("blue");
  Any hook = state->attrs["weight"][blue];
  EXPECT_EQ(hook.type_index(), ffi::TypeIndex::kTVMFFIOpaquePtr);
  EXPECT_EQ(hook.cast<refl::NativeFunctionView<int64_t(const Any&)>>()(Any(int64_t{5})), 1005);
}

}  // namespace
