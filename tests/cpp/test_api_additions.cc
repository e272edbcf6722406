// Free functions, traits and container helpers of cpp_api.md that user code calls by name:
// TypeKeyToIndex, TypeTraits<TVMFFIByteArray*>, ListObj::CreateRepeated, List::Assign,
// Array::Agregate.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "testing_helpers.h"

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::AnyView;
using ffi::Array;
using ffi::Bytes;
using ffi::List;
using ffi::ListObj;
using ffi::String;
using tvm_ffi_testing::CatchError;
using tvm_ffi_testing::Cell;

// ---- TypeKeyToIndex ----------------------------------------------------------

TEST(TypeKeyToIndex, BuiltinKeysHaveTheirFixedIndices) {
  EXPECT_EQ(ffi::TypeKeyToIndex("ffi.Array"), kTVMFFIArray);
  EXPECT_EQ(ffi::TypeKeyToIndex(std::string("ffi.Map")), kTVMFFIMap);
  EXPECT_EQ(ffi::TypeKeyToIndex(String("ffi.Tensor")), kTVMFFITensor);
}

TEST(TypeKeyToIndex, UnknownKeyRaisesInternalErrorNamingTheKey) {
  ffi::Error e = CatchError([] { ffi::TypeKeyToIndex("test.additions.never_registered"); });
  EXPECT_EQ(e.kind(), "InternalError");
  EXPECT_EQ(e.message().rfind("Check failed: ", 0), 0u) << e.message();
  EXPECT_NE(e.message().find("Cannot find type `test.additions.never_registered`"),
            std::string::npos)
      << e.message();
}

// ---- TypeTraits<TVMFFIByteArray*> ----------------------------------------------

TEST(ByteArrayPtrTraits, ViewIsAByteArrayPtrCellPointingAtTheBuffer) {
  TVMFFIByteArray buf{"abc", 3};
  AnyView v = &buf;
  EXPECT_EQ(v.type_index(), kTVMFFIByteArrayPtr);
  EXPECT_EQ(Cell(v)->v_ptr, &buf);
}

TEST(ByteArrayPtrTraits, StoringInAnyMakesBytes) {
  TVMFFIByteArray small{"ab", 2};
  Any a = &small;
  EXPECT_EQ(a.type_index(), kTVMFFISmallBytes);
  std::string long_text(20, 'x');
  TVMFFIByteArray big{long_text.data(), long_text.size()};
  Any b = &big;
  EXPECT_EQ(b.type_index(), kTVMFFIBytes);
  EXPECT_EQ(std::string(b.cast<Bytes>()), long_text);
}

TEST(ByteArrayPtrTraits, ReadsBackOnlyFromAByteArrayPtrCell) {
  TVMFFIByteArray buf{"abc", 3};
  AnyView v = &buf;
  EXPECT_EQ(v.cast<TVMFFIByteArray*>(), &buf);
  Bytes abc(std::string("abc"));
  AnyView bytes_view = abc;
  EXPECT_EQ(bytes_view.try_cast<TVMFFIByteArray*>(), std::nullopt);
  // There is no strict form: as<> never succeeds.
  EXPECT_EQ(v.as<TVMFFIByteArray*>(), std::nullopt);
}

TEST(ByteArrayPtrTraits, MismatchNamesTheTypeInTheCastError) {
  AnyView v = 1;
  ffi::Error e = CatchError([&] { v.cast<TVMFFIByteArray*>(); });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_NE(e.message().find("`TVMFFIByteArray*`"), std::string::npos) << e.message();
}

TEST(ByteArrayPtrTraits, NullPointerRaisesInternalError) {
  TVMFFIByteArray* null = nullptr;
  EXPECT_EQ(CatchError([&] { AnyView{null}; }).kind(), "InternalError");
  EXPECT_EQ(CatchError([&] { Any{null}; }).kind(), "InternalError");
}

TEST(ByteArrayPtrTraits, TypedFunctionReceivesTheCallersBuffer) {
  ffi::Function f =
      ffi::Function::FromTyped([](TVMFFIByteArray* b) { return static_cast<int64_t>(b->size); });
  TVMFFIByteArray buf{"hello", 5};
  EXPECT_EQ(f(&buf).cast<int64_t>(), 5);
}

// Python passes bytes of up to 7 bytes as SmallBytes: a TVMFFIByteArray* parameter views them.
TEST(ByteArrayPtrTraits, TypedFunctionViewsASmallBytesArgument) {
  ffi::Function f =
      ffi::Function::FromTyped([](TVMFFIByteArray* b) { return std::string(b->data, b->size); });
  TVMFFIAny cell;
  std::memset(&cell, 0, sizeof(cell));
  cell.type_index = kTVMFFISmallBytes;
  cell.small_str_len = 3;
  std::memcpy(cell.v_bytes, "a\0b", 3);
  EXPECT_EQ(f(AnyView::CopyFromTVMFFIAny(cell)).cast<std::string>(), std::string("a\0b", 3));
}

// Python passes bytes as SmallBytes (up to 7 bytes) or as a ByteArrayPtr view (longer): every
// parameter type that takes bytes accepts both.
std::string BytesParamResult(const ffi::Function& f, const std::string& text) {
  TVMFFIByteArray view{text.data(), text.size()};
  if (text.size() <= 7) {
    Any small = Bytes(text);
    EXPECT_EQ(small.type_index(), kTVMFFISmallBytes);
    return f(small).cast<std::string>();
  }
  return f(&view).cast<std::string>();
}

TEST(BytesArgumentForms, StdStringParameterAcceptsSmallBytesAndView) {
  ffi::Function f = ffi::Function::FromTyped([](std::string s) { return s; });
  EXPECT_EQ(BytesParamResult(f, "abc"), "abc");
  EXPECT_EQ(BytesParamResult(f, "abcdefghij"), "abcdefghij");
}

TEST(BytesArgumentForms, BytesParameterAcceptsSmallBytesAndView) {
  ffi::Function f = ffi::Function::FromTyped([](Bytes b) { return std::string(b); });
  EXPECT_EQ(BytesParamResult(f, "abc"), "abc");
  EXPECT_EQ(BytesParamResult(f, "abcdefghij"), "abcdefghij");
}

TEST(BytesArgumentForms, OptionalBytesParameterAcceptsSmallBytesAndView) {
  ffi::Function f =
      ffi::Function::FromTyped([](ffi::Optional<Bytes> b) { return std::string(b.value()); });
  EXPECT_EQ(BytesParamResult(f, "abc"), "abc");
  EXPECT_EQ(BytesParamResult(f, "abcdefghij"), "abcdefghij");
}

TEST(BytesArgumentForms, ByteArrayPtrParameterAcceptsSmallBytesAndView) {
  ffi::Function f =
      ffi::Function::FromTyped([](TVMFFIByteArray* b) { return std::string(b->data, b->size); });
  EXPECT_EQ(BytesParamResult(f, "abc"), "abc");
  EXPECT_EQ(BytesParamResult(f, "abcdefghij"), "abcdefghij");
}

TEST(BytesArgumentForms, AnyParameterHoldsBytes) {
  ffi::Function f = ffi::Function::FromTyped([](Any a) { return std::string(a.cast<Bytes>()); });
  EXPECT_EQ(BytesParamResult(f, "abc"), "abc");
  EXPECT_EQ(BytesParamResult(f, "abcdefghij"), "abcdefghij");
}

TEST(ByteArrayPtrTraits, TypedFunctionRejectsAStringNamingTheParameterType) {
  ffi::Function f =
      ffi::Function::FromTyped([](TVMFFIByteArray* b) { return static_cast<int64_t>(b->size); });
  ffi::Error e = CatchError([&] { f(ffi::String("abc")); });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_NE(e.message().find("Expected `TVMFFIByteArray*` but got `ffi.SmallStr`"),
            std::string::npos)
      << e.message();
}

// ---- ListObj::CreateRepeated, List::Assign --------------------------------------

TEST(ListCreateRepeated, MakesNCopiesWithAnOutOfLineBuffer) {
  ffi::ObjectPtr<ListObj> p = ListObj::CreateRepeated(3, Any(7));
  List<int> l(p);
  EXPECT_EQ(l.size(), 3u);
  EXPECT_EQ(l[2], 7);
  EXPECT_NE(p->data_deleter, nullptr);  // List buffers always have a deleter (cpp_api.md §5.4)
}

TEST(ListCreateRepeated, NegativeCountRaisesValueError) {
  EXPECT_EQ(CatchError([] { ListObj::CreateRepeated(-1, Any()); }).kind(), "ValueError");
}

TEST(ListAssign, ReplacesTheContentSeenByEveryHandle) {
  List<int> l = {1, 2, 3};
  List<int> alias = l;
  std::vector<int> src = {9, 8};
  l.Assign(src.begin(), src.end());
  EXPECT_TRUE(alias.same_as(l));
  ASSERT_EQ(alias.size(), 2u);
  EXPECT_EQ(alias[0], 9);
  EXPECT_EQ(alias[1], 8);
}

TEST(ListAssign, FromItsOwnElementsKeepsThem) {
  List<String> l = {"a", "b"};
  l.Assign(l.begin(), l.end());
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(l[1], "b");
}

// ---- Array::Agregate ---------------------------------------------------------------

TEST(ArrayAgregate, ConcatenatesValuesAndArraysInOrder) {
  Array<int> out = Array<int>::Agregate(1, Array<int>{2, 3}, 4, Array<int>{});
  ASSERT_EQ(out.size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], i + 1);
}

TEST(ArrayAgregate, WithNoArgumentsIsEmpty) { EXPECT_TRUE(Array<String>::Agregate().empty()); }

TEST(ArrayAgregate, ConvertsValuesToTheElementType) {
  Array<String> out = Array<String>::Agregate("a", std::string("bc"), Array<String>{"d"});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[1], "bc");
}

// ---- TensorObj::ToDLPack*, DLTensor* in Any -------------------------------------------

struct MallocAlloc {
  void AllocData(DLTensor* t) { t->data = std::calloc(1, ffi::GetDataSize(*t) + 1); }
  void FreeData(DLTensor* t) { std::free(t->data); }
};

TEST(TensorObjDLPack, ToDLPackFromTheObjectHoldsOneReference) {
  ffi::Tensor t = ffi::Tensor::FromNDAlloc(MallocAlloc(), {2, 3}, {kDLFloat, 32, 1}, {kDLCPU, 0});
  const ffi::TensorObj* obj = t.get();
  DLManagedTensor* dl = obj->ToDLPack();
  EXPECT_EQ(t.use_count(), 2);
  EXPECT_EQ(dl->dl_tensor.data, t.data_ptr());
  EXPECT_EQ(dl->dl_tensor.shape[1], 3);
  dl->deleter(dl);
  EXPECT_EQ(t.use_count(), 1);
}

TEST(TensorObjDLPack, ToDLPackVersionedCarriesThisHeadersVersion) {
  ffi::Tensor t = ffi::Tensor::FromNDAlloc(MallocAlloc(), {4}, {kDLInt, 8, 1}, {kDLCPU, 0});
  DLManagedTensorVersioned* dl = t.get()->ToDLPackVersioned();
  EXPECT_EQ(dl->version.major, static_cast<uint32_t>(DLPACK_MAJOR_VERSION));
  EXPECT_EQ(dl->version.minor, static_cast<uint32_t>(DLPACK_MINOR_VERSION));
  EXPECT_EQ(dl->dl_tensor.ndim, 1);
  EXPECT_EQ(t.use_count(), 2);
  dl->deleter(dl);
  EXPECT_EQ(t.use_count(), 1);
}

TEST(DLTensorPtrTraits, StoringInAnOwningAnyRaisesRuntimeError) {
  DLTensor tensor{};
  DLTensor* p = &tensor;
  ffi::Error e = CatchError([&] { Any{p}; });
  EXPECT_EQ(e.kind(), "RuntimeError");
  EXPECT_EQ(e.message(),
            "DLTensor* cannot be held in Any as it does not retain ownership, use Tensor instead");
}

TEST(DLTensorPtrTraits, NullPointerViewRaisesInternalError) {
  DLTensor* p = nullptr;
  EXPECT_EQ(CatchError([&] { AnyView{p}; }).kind(), "InternalError");
}

// ---- small names of cpp_api.md §2.6, §2.7, §2.10, §3.1 ------------------------------------

static_assert(std::is_same_v<ffi::detail::StringObj, ffi::StringObj>);
static_assert(std::is_base_of_v<ffi::detail::BytesObjBase, ffi::detail::BytesObj>);
static_assert(std::is_base_of_v<TVMFFIByteArray, ffi::detail::BytesObjBase>);
static_assert(sizeof(ffi::StringObj) == sizeof(TVMFFIObject) + sizeof(TVMFFIByteArray));
static_assert(TVM_FFI_USE_LIBBACKTRACE == 1 && TVM_FFI_BACKTRACE_ON_SEGFAULT == 1);

TEST(ErrorBuilderForms, GivenBacktraceStringIsKept) {
  ffi::Error e = CatchError([] {
    ffi::detail::ErrorBuilder("ValueError", std::string("  File \"a.cc\", line 3, in f\n"), false)
            .stream()
        << "bad " << 7;
  });
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(e.message(), "bad 7");
  EXPECT_EQ(e.backtrace(), "  File \"a.cc\", line 3, in f\n");
}

TEST(ErrorBuilderForms, ByteArrayBacktraceWithCauseAndContext) {
  std::string bt = "  File \"b.cc\", line 1, in g\n";
  TVMFFIByteArray bytes{bt.data(), bt.size()};
  ffi::Error cause("KeyError", "inner", "");
  ffi::Error e = CatchError([&] {
    ffi::detail::ErrorBuilder("RuntimeError", &bytes, false, cause, Array<int>{1}).stream()
        << "outer";
  });
  EXPECT_EQ(e.backtrace(), bt);
  ASSERT_TRUE(e.cause_chain().has_value());
  EXPECT_EQ(e.cause_chain()->message(), "inner");
  ASSERT_TRUE(e.extra_context().has_value());
  EXPECT_EQ(e.extra_context()->GetTypeKey(), "ffi.Array");
}

TEST(ErrorBuilderForms, NullByteArrayMeansNoBacktrace) {
  ffi::Error e = CatchError([] {
    ffi::detail::ErrorBuilder("TypeError", static_cast<const TVMFFIByteArray*>(nullptr), false);
  });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_EQ(e.backtrace(), "");
}

TEST(LogCheck, NullWhenTheRelationHolds) {
  EXPECT_EQ(ffi::detail::LogCheck_LT(1, 2), nullptr);
  EXPECT_EQ(ffi::detail::LogCheck_EQ(String("a"), String("a")), nullptr);
  EXPECT_EQ(ffi::detail::LogCheck_GE(3, 3), nullptr);
}

TEST(LogCheck, FailureFormatsBothOperands) {
  std::unique_ptr<std::string> msg = ffi::detail::LogCheck_GT(2, 3);
  ASSERT_NE(msg, nullptr);
  EXPECT_EQ(*msg, " (2 vs. 3) ");
  EXPECT_EQ(*ffi::detail::LogCheck_NE(5, 5), " (5 vs. 5) ");
  EXPECT_EQ(*ffi::detail::LogCheckFormat(1.5, "x"), " (1.5 vs. x) ");
}

class InfoObj : public ffi::Object {
 public:
  int64_t Add(int64_t x) const { return x + 1; }
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.additions.Info", InfoObj, ffi::Object);
};

class InfoRef : public ffi::ObjectRef {
 public:
  int64_t Twice(int64_t x) { return 2 * x; }
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(InfoRef, ffi::ObjectRef, InfoObj);
};

int64_t FreeFunction(int64_t a, String b) { return a + static_cast<int64_t>(b.size()); }

TEST(FunctionInfo, DescribesAFunctionPointer) {
  using Info = ffi::detail::FunctionInfo<decltype(&FreeFunction)>;
  static_assert(std::is_same_v<Info::RetType, int64_t>);
  static_assert(std::is_same_v<Info::ArgType, std::tuple<int64_t, String>>);
  static_assert(Info::num_args == 2 && Info::unpacked_supported);
  EXPECT_EQ(Info::Sig(), "(0: int, 1: str) -> int");
}

TEST(FunctionInfo, DescribesALambda) {
  auto f = [](double x) { return x > 0; };
  using Info = ffi::detail::FunctionInfo<decltype(f)>;
  static_assert(std::is_same_v<Info::RetType, bool>);
  EXPECT_EQ(Info::Sig(), "(0: float) -> bool");
  EXPECT_NE(Info::TypeSchema().find("ffi.Function"), std::string::npos);
}

TEST(FunctionInfo, ObjectMethodTakesThePointerFirst) {
  using Info = ffi::detail::FunctionInfo<decltype(&InfoObj::Add)>;
  static_assert(std::is_same_v<Info::ArgType, std::tuple<const InfoObj*, int64_t>>);
  static_assert(Info::num_args == 2);
  using RefInfo = ffi::detail::FunctionInfo<decltype(&InfoRef::Twice)>;
  static_assert(std::is_same_v<RefInfo::ArgType, std::tuple<InfoRef, int64_t>>);
  EXPECT_EQ(RefInfo::Sig(), "(0: test.additions.Info, 1: int) -> int");
}

TEST(FunctionInfo, NonConstLvalueReferenceIsNotUnpackable) {
  using Info = ffi::detail::FunctionInfo<void (*)(int64_t&)>;
  static_assert(!Info::unpacked_supported);
  SUCCEED();
}

TEST(Arg2Str, NumbersTheParameters) {
  std::ostringstream os;
  ffi::detail::Arg2Str<std::tuple<int, String, Any>>::Run(os, std::make_index_sequence<3>{});
  EXPECT_EQ(os.str(), "0: int, 1: str, 2: Any");
}

}  // namespace
