// TypeStr (names in signatures and messages) and GetMismatchTypeInfo (the type found) of the
// built-in traits, as cpp_api.md §2.1 and §6.3 give them: object types print their type key,
// String/Bytes print str/bytes, containers print the target kind with the first bad element.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/extra/stl.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>
#include <tvm/ffi/variant.h>

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <variant>
#include <vector>

#include "testing_helpers.h"

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::AnyView;
using ffi::Array;
using ffi::Dict;
using ffi::List;
using ffi::Map;
using ffi::String;
using ffi::Tuple;
using ffi::TypeTraits;
using tvm_ffi_testing::CatchError;

template <typename T>
std::string Str() {
  return ffi::detail::Type2Str<T>::v();
}

template <typename T>
std::string MismatchOf(const AnyView& v) {
  return TypeTraits<T>::GetMismatchTypeInfo(ffi::detail::AnyUnsafe::GetTVMFFIAny(v));
}

// ---- TypeStr ------------------------------------------------------------------

TEST(TypeStr, PodTypesUseTheirShortNames) {
  EXPECT_EQ(Str<int>(), "int");
  EXPECT_EQ(Str<bool>(), "bool");
  EXPECT_EQ(Str<double>(), "float");
  EXPECT_EQ(Str<std::nullptr_t>(), "None");
  EXPECT_EQ(Str<void*>(), "void*");
  EXPECT_EQ(Str<DLDevice>(), "Device");
  EXPECT_EQ(Str<DLDataType>(), "DataType");
  EXPECT_EQ(Str<DLTensor*>(), "DLTensor*");
}

TEST(TypeStr, StringKindsAreDistinguished) {
  EXPECT_EQ(Str<String>(), "str");
  EXPECT_EQ(Str<ffi::Bytes>(), "bytes");
  EXPECT_EQ(Str<std::string>(), "std::string");
  EXPECT_EQ(Str<const char*>(), "const char*");
  EXPECT_EQ(Str<TVMFFIByteArray*>(), "TVMFFIByteArray*");
}

TEST(TypeStr, AnyAndAnyViewKeepTheirOwnNames) {
  EXPECT_EQ(Str<Any>(), "Any");
  EXPECT_EQ(Str<AnyView>(), "AnyView");
  EXPECT_EQ(TypeTraits<AnyView>::TypeStr(), "AnyView");
  EXPECT_EQ(Str<void>(), "void");
}

TEST(TypeStr, ObjectReferencesPrintTheFullTypeKey) {
  EXPECT_EQ(Str<ffi::ObjectRef>(), "ffi.Object");
  EXPECT_EQ(Str<ffi::Function>(), "ffi.Function");
  EXPECT_EQ(Str<ffi::Tensor>(), "ffi.Tensor");
  EXPECT_EQ(Str<ffi::Shape>(), "ffi.Shape");
  EXPECT_EQ(Str<ffi::Error>(), "ffi.Error");
}

TEST(TypeStr, ObjectPointersPrintTheObjectKey) {
  EXPECT_EQ(Str<ffi::ObjectPtr<ffi::Object>>(), "ffi.Object");
  EXPECT_EQ(Str<ffi::ObjectPtr<ffi::ArrayObj>>(), "ffi.Array");
  EXPECT_EQ(Str<ffi::Arc<ffi::Object>>(), "ffi.Object");
  EXPECT_EQ(Str<const ffi::ArrayObj*>(), "ffi.Array");
}

TEST(TypeStr, TensorViewIsADLTensorPointer) { EXPECT_EQ(Str<ffi::TensorView>(), "DLTensor*"); }

TEST(TypeStr, ContainersNameTheirElementTypes) {
  EXPECT_EQ(Str<Array<int>>(), "Array<int>");
  EXPECT_EQ(Str<Array<Any>>(), "Array<Any>");
  EXPECT_EQ(Str<List<String>>(), "List<str>");
  EXPECT_EQ((Str<Map<String, int>>()), "Map<str, int>");
  EXPECT_EQ((Str<Dict<String, Array<int>>>()), "Dict<str, Array<int>>");
  EXPECT_EQ((Str<Tuple<int, String>>()), "Tuple<int, str>");
  EXPECT_EQ(Str<ffi::Optional<ffi::ObjectRef>>(), "Optional<ffi.Object>");
  EXPECT_EQ((Str<ffi::Variant<int, String>>()), "Variant<int, str>");
}

TEST(TypeStr, StlTypesKeepTheirStdNames) {
  EXPECT_EQ(Str<std::vector<int>>(), "std::vector<int>");
  EXPECT_EQ((Str<std::array<double, 3>>()), "std::array<float, 3>");
  EXPECT_EQ((Str<std::tuple<int, String>>()), "std::tuple<int, str>");
  EXPECT_EQ((Str<std::map<std::string, int>>()), "std::map<std::string, int>");
  EXPECT_EQ((Str<std::unordered_map<String, bool>>()), "std::unordered_map<str, bool>");
  EXPECT_EQ(Str<std::optional<int>>(), "std::optional<int>");
  EXPECT_EQ((Str<std::variant<int, String>>()), "std::variant<int, str>");
  EXPECT_EQ((Str<std::function<int(int, String)>>()), "std::function<int(int, str)>");
  EXPECT_EQ(Str<std::function<void()>>(), "std::function<void()>");
}

TEST(TypeStr, SignatureUsesTheSameNames) {
  EXPECT_EQ(ffi::TypedFunction<ffi::Function(ffi::ObjectRef, int, AnyView)>::Sig(),
            "(0: ffi.Object, 1: int, 2: AnyView) -> ffi.Function");
}

// ---- GetMismatchTypeInfo: the type key of what was found ------------------------

TEST(MismatchTypeInfo, RawCStringIsConstCharPointer) {
  EXPECT_EQ(MismatchOf<int>(AnyView("abc")), "const char*");
}

TEST(MismatchTypeInfo, SmallAndHeapStringsPrintTheirKeys) {
  EXPECT_EQ(MismatchOf<int>(AnyView(String("abc"))), "ffi.SmallStr");
  EXPECT_EQ(MismatchOf<int>(AnyView(String("a long string"))), "ffi.String");
  EXPECT_EQ(MismatchOf<int>(AnyView(ffi::Bytes("ab", 2))), "ffi.SmallBytes");
}

TEST(MismatchTypeInfo, PodsAndNonePrintTheirKeys) {
  EXPECT_EQ(MismatchOf<String>(AnyView(1.5)), "float");
  EXPECT_EQ(MismatchOf<String>(AnyView(nullptr)), "None");
  EXPECT_EQ(MismatchOf<String>(AnyView(true)), "bool");
}

TEST(MismatchTypeInfo, ObjectsPrintTheirKeys) {
  Array<int> a = {1};
  EXPECT_EQ(MismatchOf<int>(AnyView(a)), "ffi.Array");
  EXPECT_EQ(MismatchOf<int>(AnyView(ffi::Function())), "None");
}

TEST(MismatchTypeInfo, ArrayNamesTheFirstBadElement) {
  Array<Any> a = {1, String("x")};
  EXPECT_EQ(MismatchOf<Array<int>>(AnyView(a)), "Array[index 1: ffi.SmallStr]");
}

TEST(MismatchTypeInfo, ListIntoArrayIsReportedUnderTheArrayName) {
  List<Any> l = {1, String("x")};
  EXPECT_EQ(MismatchOf<Array<int>>(AnyView(l)), "Array[index 1: ffi.SmallStr]");
}

TEST(MismatchTypeInfo, ListNamesTheFirstBadElement) {
  Array<Any> a = {String("x")};
  EXPECT_EQ(MismatchOf<List<int>>(AnyView(a)), "List[index 0: ffi.SmallStr]");
}

TEST(MismatchTypeInfo, NestedArraysNestTheReport) {
  Array<Any> inner = {String("x")};
  Array<Any> outer = {Array<Any>{1}, inner};
  EXPECT_EQ(MismatchOf<Array<Array<int>>>(AnyView(outer)),
            "Array[index 1: Array[index 0: ffi.SmallStr]]");
}

TEST(MismatchTypeInfo, MapNamesABadKey) {
  Map<Any, Any> m = {{1, 2}};
  EXPECT_EQ((MismatchOf<Map<String, int>>(AnyView(m))), "Map[some key is int, V]");
}

TEST(MismatchTypeInfo, MapNamesABadValue) {
  Map<Any, Any> m = {{String("a"), String("b")}};
  EXPECT_EQ((MismatchOf<Map<String, int>>(AnyView(m))), "Map[K, some value is ffi.SmallStr]");
}

TEST(MismatchTypeInfo, DictIntoMapIsReportedUnderTheMapName) {
  Dict<Any, Any> d = {{String("a"), 1.5}};
  EXPECT_EQ((MismatchOf<Map<String, int>>(AnyView(d))), "Map[K, some value is float]");
  EXPECT_EQ((MismatchOf<Dict<String, int>>(AnyView(d))), "Dict[K, some value is float]");
}

TEST(MismatchTypeInfo, TupleOfTheWrongSizeReportsTheSize) {
  Array<Any> a = {1, 2, 3};
  EXPECT_EQ((MismatchOf<Tuple<int, int>>(AnyView(a))), "Array[size=3]");
}

TEST(MismatchTypeInfo, TupleNamesTheFirstBadElement) {
  Array<Any> a = {1, String("x")};
  EXPECT_EQ((MismatchOf<Tuple<int, int>>(AnyView(a))), "Array[index 1: ffi.SmallStr]");
}

TEST(MismatchTypeInfo, ShapeFromABadArrayPrintsTheArrayKey) {
  Array<Any> a = {1, String("x")};
  EXPECT_EQ(MismatchOf<ffi::Shape>(AnyView(a)), "ffi.Array");
}

// ---- The messages built from them ------------------------------------------------

TEST(TypeStrMessages, CastErrorUsesTheKeyFoundAndTheTargetName) {
  ffi::Error e = CatchError([] { Any(String("ab")).cast<int>(); });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_EQ(e.message(), "Cannot convert from type `ffi.SmallStr` to `int`");
}

TEST(TypeStrMessages, CastToAnObjectRefNamesItsKey) {
  ffi::Error e = CatchError([] { Any(1).cast<ffi::Function>(); });
  EXPECT_EQ(e.message(), "Cannot convert from type `int` to `ffi.Function`");
}

TEST(TypeStrMessages, TypedArgumentMismatchNamesTheKeyFound) {
  ffi::Function f = ffi::Function::FromTyped([](int x) { return x; }, "add_one");
  ffi::Error e = CatchError([&] { f("abc"); });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_EQ(e.message(),
            "Mismatched type on argument #0 when calling: `add_one(0: int) -> int`. "
            "Expected `int` but got `const char*`");
}

TEST(TypeStrMessages, TypedContainerMismatchNamesTheElement) {
  ffi::Function f = ffi::Function::FromTyped([](Array<int> a) { return a; }, "f");
  ffi::Error e = CatchError([&] { f(Array<Any>{1, String("a")}); });
  EXPECT_EQ(e.message(),
            "Mismatched type on argument #0 when calling: `f(0: Array<int>) -> Array<int>`. "
            "Expected `Array<int>` but got `Array[index 1: ffi.SmallStr]`");
}

// ---- DataType from strings ------------------------------------------------------

TEST(DataTypeCast, BadDtypeTextRaisesTheParserValueError) {
  ffi::Error e = CatchError([] { AnyView("nonsense").cast<DLDataType>(); });
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_NE(e.message().find("nonsense"), std::string::npos) << e.message();
}

TEST(DataTypeCast, BadDtypeArgumentRaisesValueErrorNotTypeError) {
  ffi::Function f = ffi::Function::FromTyped([](DLDataType t) {}, "f");
  ffi::Error e = CatchError([&] { f("nonsense"); });
  EXPECT_EQ(e.kind(), "ValueError");
}

TEST(DataTypeCast, BytesHoldingDtypeTextParse) {
  DLDataType t = Any(ffi::Bytes("int32", 5)).cast<DLDataType>();
  EXPECT_EQ(t.code, kDLInt);
  EXPECT_EQ(t.bits, 32);
}

TEST(DataTypeCast, NonStringStillReportsAMismatch) {
  ffi::Error e = CatchError([] { Any(1).cast<DLDataType>(); });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_EQ(e.message(), "Cannot convert from type `int` to `DataType`");
}

}  // namespace
