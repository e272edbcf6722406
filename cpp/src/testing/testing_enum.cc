/*
 * Enum fixtures of libtvm_ffi_testing (the keys of the reference testing
 * library, so the same Python tests run against either implementation):
 *   testing.TestCxxIntEnum     IntEnum  low = 10, high = 20
 *   testing.TestCxxStrEnum     StrEnum  add = "+", mul = "*"
 *   testing.TestEnumVariant    Enum     Alpha, Beta with attribute code 10 / 20
 *   testing.TestCxxEnumHolder  object   priority: TestCxxIntEnum, opcode: TestCxxStrEnum
 * and the globals testing.enum_variant_get(name) -> Enum and
 * testing.enum_get(type_key, int or str index) -> Enum (any enum type).
 */
#include <tvm/ffi/enum.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/enum_def.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <optional>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN
namespace testing {
namespace {

class TestCxxIntEnumObj : public IntEnumObj {
 public:
  using IntEnumObj::IntEnumObj;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCxxIntEnum", TestCxxIntEnumObj, IntEnumObj);
};

class TestCxxIntEnum : public IntEnum {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(TestCxxIntEnum, IntEnum, TestCxxIntEnumObj);
};

class TestCxxStrEnumObj : public StrEnumObj {
 public:
  using StrEnumObj::StrEnumObj;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCxxStrEnum", TestCxxStrEnumObj, StrEnumObj);
};

class TestCxxStrEnum : public StrEnum {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(TestCxxStrEnum, StrEnum, TestCxxStrEnumObj);
};

class TestEnumVariantObj : public EnumObj {
 public:
  using EnumObj::EnumObj;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestEnumVariant", TestEnumVariantObj, EnumObj);
};

class TestEnumVariant : public Enum {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(TestEnumVariant, Enum, TestEnumVariantObj);
};

class TestCxxEnumHolderObj : public Object {
 public:
  TestCxxIntEnum priority;
  TestCxxStrEnum opcode;

  TestCxxEnumHolderObj(TestCxxIntEnum p, TestCxxStrEnum o)
      : priority(std::move(p)), opcode(std::move(o)) {}
  // Reflection creates the holder empty, then sets both fields.
  explicit TestCxxEnumHolderObj(UnsafeInit) : priority(UnsafeInit{}), opcode(UnsafeInit{}) {}

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxEnumHolder", TestCxxEnumHolderObj, Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = ::tvm::ffi::reflection;
  refl::ObjectDef<TestCxxIntEnumObj>(refl::init(false)).def_convert<TestCxxIntEnum>();
  refl::EnumDef<TestCxxIntEnumObj>("low", 10);
  refl::EnumDef<TestCxxIntEnumObj>("high", 20);

  refl::ObjectDef<TestCxxStrEnumObj>(refl::init(false)).def_convert<TestCxxStrEnum>();
  refl::EnumDef<TestCxxStrEnumObj>("+");
  refl::EnumDef<TestCxxStrEnumObj>("*");

  refl::ObjectDef<TestEnumVariantObj>(refl::init(false)).def_convert<TestEnumVariant>();
  refl::EnumDef<TestEnumVariantObj>("Alpha").set_attr("code", 10);
  refl::EnumDef<TestEnumVariantObj>("Beta").set_attr("code", 20);

  refl::ObjectDef<TestCxxEnumHolderObj>()
      .def_rw("priority", &TestCxxEnumHolderObj::priority)
      .def_rw("opcode", &TestCxxEnumHolderObj::opcode);

  refl::GlobalDef().def("testing.enum_variant_get", [](String name) -> Enum {
    return EnumObj::_GetByStrIndex<TestEnumVariantObj>(name);
  });
  refl::GlobalDef().def("testing.enum_get", [](String type_key, AnyView index) -> Enum {
    int32_t type_index = -1;
    TVMFFIByteArray key{type_key.data(), type_key.size()};
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeKeyToIndex(&key, &type_index));
    if (std::optional<int64_t> i = index.as<int64_t>()) {
      return EnumObj::_GetByIntIndex(type_index, *i);
    }
    return EnumObj::_GetByStrIndex(type_index, index.cast<String>());
  });
}

}  // namespace
}  // namespace testing
TVM_FFI_NAMESPACE_END
