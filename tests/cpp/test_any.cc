// Tests of Any and AnyView (any.h): every POD kind of docs/abi.md §2.1 stored and
// read back, reference counts of stored objects, the cast / as / try_cast
// rules and their error messages, type keys, AnyEqual / AnyHash, and the
// ownership rule of AnyView -> Any for borrowed strings.
#include <gtest/gtest.h>

#include <tvm/ffi/any.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/string.h>
#include "testing_helpers.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::AnyView;
using ffi::ObjectPtr;
using ffi::String;

class PointObj : public ffi::Object {
 public:
  PointObj(int64_t x, int64_t y) : x(x), y(y) {}
  int64_t x, y;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.any.Point", PointObj, ffi::Object);
};

class Point : public ffi::ObjectRef {
 public:
  Point(int64_t x, int64_t y) : ffi::ObjectRef(ffi::make_object<PointObj>(x, y)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Point, ffi::ObjectRef, PointObj);
};

using tvm_ffi_testing::Cell;
using tvm_ffi_testing::ErrorMessage;

int32_t UseCount(const ffi::Object* obj) { return obj->use_count(); }

// ---------------------------------------------------------------------------
// The POD kinds
// ---------------------------------------------------------------------------

TEST(AnyPOD, DefaultIsNone) {
  Any a;
  AnyView v;
  EXPECT_TRUE(a.is_none());
  EXPECT_TRUE(v.is_none());
  EXPECT_EQ(a.type_index(), kTVMFFINone);
  EXPECT_EQ(Cell(a)->zero_padding, 0u);
  EXPECT_EQ(Cell(a)->v_int64, 0);
}

TEST(AnyPOD, NullptrIsNone) {
  Any a = nullptr;
  EXPECT_TRUE(a.is_none());
  EXPECT_EQ(a.cast<std::nullptr_t>(), nullptr);
  Any b = 1;
  EXPECT_EQ(ErrorMessage([&] { b.cast<std::nullptr_t>(); }),
            "Cannot convert from type `int` to `None`");
}

TEST(AnyPOD, IntIsStoredInline) {
  Any a = 42;
  EXPECT_EQ(a.type_index(), kTVMFFIInt);
  EXPECT_EQ(Cell(a)->v_int64, 42);
  EXPECT_EQ(Cell(a)->zero_padding, 0u);
  EXPECT_EQ(a.cast<int>(), 42);
  EXPECT_EQ(a.cast<int64_t>(), 42);
  AnyView v = -7;
  EXPECT_EQ(v.type_index(), kTVMFFIInt);
  EXPECT_EQ(v.cast<int>(), -7);
}

TEST(AnyPOD, Int64LimitsRoundTrip) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(Any(kMax).cast<int64_t>(), kMax);
  EXPECT_EQ(Any(kMin).cast<int64_t>(), kMin);
  EXPECT_EQ(AnyView(kMax).cast<int64_t>(), kMax);
  uint64_t fits = static_cast<uint64_t>(kMax);
  EXPECT_EQ(Any(fits).cast<uint64_t>(), fits);
}

TEST(AnyPOD, UnsignedAboveInt64MaxRaisesOverflowError) {
  uint64_t too_big = std::numeric_limits<uint64_t>::max();
  EXPECT_EQ(ErrorMessage([&] { Any a = too_big; }, "OverflowError"),
            "Integer value 18446744073709551615 is too large to fit in int64_t. Consider "
            "explicitly casting to int64_t first if this is intentional.");
}

TEST(AnyPOD, BoolIsStoredAsBool) {
  Any t = true;
  Any f = false;
  EXPECT_EQ(t.type_index(), kTVMFFIBool);
  EXPECT_EQ(Cell(t)->v_int64, 1);
  EXPECT_EQ(Cell(f)->v_int64, 0);
  EXPECT_TRUE(t.cast<bool>());
  EXPECT_FALSE(f.cast<bool>());
}

TEST(AnyPOD, FloatAndDoubleAreStoredAsFloat) {
  Any d = 3.25;
  Any f = 1.5f;
  EXPECT_EQ(d.type_index(), kTVMFFIFloat);
  EXPECT_EQ(f.type_index(), kTVMFFIFloat);
  EXPECT_EQ(Cell(d)->v_float64, 3.25);
  EXPECT_EQ(d.cast<double>(), 3.25);
  EXPECT_EQ(f.cast<float>(), 1.5f);
}

TEST(AnyPOD, NanAndInfinityRoundTrip) {
  Any nan = std::numeric_limits<double>::quiet_NaN();
  Any inf = std::numeric_limits<double>::infinity();
  Any ninf = -std::numeric_limits<double>::infinity();
  EXPECT_TRUE(std::isnan(nan.cast<double>()));
  EXPECT_EQ(inf.cast<double>(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(ninf.cast<double>(), -std::numeric_limits<double>::infinity());
}

TEST(AnyPOD, OpaquePointerRoundTrips) {
  int target = 0;
  void* p = &target;
  Any a = p;
  EXPECT_EQ(a.type_index(), kTVMFFIOpaquePtr);
  EXPECT_EQ(a.cast<void*>(), p);
  void* null = nullptr;
  Any n = null;
  EXPECT_EQ(n.type_index(), kTVMFFIOpaquePtr);
  EXPECT_EQ(n.cast<void*>(), nullptr);
  // None reads back as a null pointer.
  EXPECT_EQ(Any().cast<void*>(), nullptr);
  EXPECT_EQ(ErrorMessage([] { Any(1).cast<void*>(); }),
            "Cannot convert from type `int` to `void*`");
}

TEST(AnyPOD, DataTypeRoundTrips) {
  DLDataType f32{kDLFloat, 32, 1};
  Any a = f32;
  EXPECT_EQ(a.type_index(), kTVMFFIDataType);
  DLDataType back = a.cast<DLDataType>();
  EXPECT_EQ(back.code, kDLFloat);
  EXPECT_EQ(back.bits, 32);
  EXPECT_EQ(back.lanes, 1);
  AnyView v = f32;
  EXPECT_EQ(v.type_index(), kTVMFFIDataType);
}

TEST(AnyPOD, DeviceRoundTrips) {
  DLDevice dev{kDLCUDA, 3};
  Any a = dev;
  EXPECT_EQ(a.type_index(), kTVMFFIDevice);
  DLDevice back = a.cast<DLDevice>();
  EXPECT_EQ(back.device_type, kDLCUDA);
  EXPECT_EQ(back.device_id, 3);
  EXPECT_EQ(ErrorMessage([] { Any(1).cast<DLDevice>(); }),
            "Cannot convert from type `int` to `Device`");
}

TEST(AnyPOD, DLTensorPointerIsBorrowedInAView) {
  DLTensor tensor{};
  DLTensor* p = &tensor;
  AnyView v = p;
  EXPECT_EQ(v.type_index(), kTVMFFIDLTensorPtr);
  EXPECT_EQ(v.cast<DLTensor*>(), p);
  EXPECT_EQ(ErrorMessage([] { Any(String("x")).cast<DLTensor*>(); }),
            "Cannot convert from type `ffi.SmallStr` to `DLTensor*`");
}

TEST(AnyPOD, SmallStringIsStoredInline) {
  Any a = String("abc");
  EXPECT_EQ(a.type_index(), kTVMFFISmallStr);
  EXPECT_EQ(Cell(a)->small_str_len, 3u);
  EXPECT_EQ(std::string(Cell(a)->v_bytes, 3), "abc");
  EXPECT_EQ(Cell(a)->v_bytes[3], '\0');
  EXPECT_EQ(a.cast<String>(), "abc");
  EXPECT_EQ(a.cast<std::string>(), "abc");
}

TEST(AnyPOD, LongStringIsAHeapObject) {
  Any a = String("a string longer than seven bytes");
  EXPECT_EQ(a.type_index(), kTVMFFIStr);
  EXPECT_EQ(Cell(a)->v_obj->type_index, kTVMFFIStr);
  EXPECT_EQ(a.cast<String>(), "a string longer than seven bytes");
}

TEST(AnyPOD, StringLiteralAndStdStringAreStoredAsOwnedStrings) {
  Any lit = "hello world";
  EXPECT_EQ(lit.type_index(), kTVMFFIStr);
  EXPECT_EQ(lit.cast<std::string>(), "hello world");
  Any small = "hi";
  EXPECT_EQ(small.type_index(), kTVMFFISmallStr);
  Any from_std = std::string("from a std::string");
  EXPECT_EQ(from_std.type_index(), kTVMFFIStr);
  EXPECT_EQ(from_std.cast<String>(), "from a std::string");
}

TEST(AnyPOD, StringArgumentsAreBorrowedRawStrInAView) {
  const char* text = "borrowed text";
  AnyView v = text;
  EXPECT_EQ(v.type_index(), kTVMFFIRawStr);
  EXPECT_EQ(Cell(v)->v_c_str, text);
  std::string s = "std string text";
  AnyView sv = s;
  EXPECT_EQ(sv.type_index(), kTVMFFIRawStr);
  EXPECT_EQ(Cell(sv)->v_c_str, s.c_str());
  EXPECT_EQ(sv.cast<String>(), "std string text");
  EXPECT_EQ(sv.cast<std::string>(), "std string text");
}

TEST(AnyPOD, BytesSmallAndHeap) {
  Any small = ffi::Bytes("\x01\x00\x02", 3);
  EXPECT_EQ(small.type_index(), kTVMFFISmallBytes);
  EXPECT_EQ(small.cast<ffi::Bytes>().size(), 3u);
  std::string raw(20, '\0');
  raw[5] = 'x';
  Any heap = ffi::Bytes(raw);
  EXPECT_EQ(heap.type_index(), kTVMFFIBytes);
  EXPECT_EQ(std::string(heap.cast<ffi::Bytes>()), raw);
}

TEST(AnyPOD, ByteArrayPointerViewCastsToBytes) {
  TVMFFIByteArray arr{"\x00\x01payload", 9};
  TVMFFIAny raw;
  raw.type_index = kTVMFFIByteArrayPtr;
  raw.zero_padding = 0;
  raw.v_ptr = &arr;
  AnyView v = AnyView::CopyFromTVMFFIAny(raw);
  ffi::Bytes b = v.cast<ffi::Bytes>();
  EXPECT_EQ(b.size(), 9u);
  EXPECT_EQ(std::string(b), std::string("\x00\x01payload", 9));
}

TEST(AnyPOD, ObjectIsStoredByReference) {
  Point p(1, 2);
  Any a = p;
  EXPECT_EQ(a.type_index(), PointObj::RuntimeTypeIndex());
  EXPECT_EQ(Cell(a)->v_obj, ffi::detail::ObjectUnsafe::GetHeader(p.get()));
  EXPECT_EQ(a.cast<Point>()->y, 2);
}

TEST(AnyPOD, PaddingIsZeroForEveryKindButSmallStrings) {
  int x = 0;
  void* ptr = &x;
  DLTensor tensor{};
  DLTensor* tensor_ptr = &tensor;
  DLDataType i8{kDLInt, 8, 1};
  DLDevice dev{kDLCPU, 0};
  Point point(1, 2);
  String heap = "a heap string value";
  std::vector<AnyView> views = {AnyView(),      AnyView(1),     AnyView(true), AnyView(1.5),
                                AnyView(ptr),   AnyView(i8),    AnyView(dev),  AnyView(tensor_ptr),
                                AnyView("raw"), AnyView(point), AnyView(heap)};
  for (const AnyView& v : views) {
    EXPECT_EQ(Cell(v)->zero_padding, 0u) << "type index " << v.type_index();
  }
  // A data type fills 4 of the 8 value bytes; the rest are zero so equal values hash equally.
  EXPECT_EQ(Cell(AnyView(i8))->v_uint64 >> 32, 0u);
  EXPECT_EQ(Cell(AnyView(true))->v_uint64, 1u);
}

// ---------------------------------------------------------------------------
// Reference counts
// ---------------------------------------------------------------------------

TEST(AnyRefCount, CopyRetainsAndDestructionReleases) {
  Point p(1, 2);
  {
    Any a = p;
    EXPECT_EQ(UseCount(p.get()), 2);
    Any b = a;
    EXPECT_EQ(UseCount(p.get()), 3);
    Any c;
    c = b;
    EXPECT_EQ(UseCount(p.get()), 4);
  }
  EXPECT_EQ(UseCount(p.get()), 1);
}

TEST(AnyRefCount, MoveTransfersAndLeavesNone) {
  Point p(1, 2);
  Any a = p;
  Any b = std::move(a);
  EXPECT_TRUE(a.is_none());  // NOLINT(bugprone-use-after-move): moved-from Any is None
  EXPECT_EQ(UseCount(p.get()), 2);
  Any c;
  c = std::move(b);
  EXPECT_TRUE(b.is_none());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(UseCount(p.get()), 2);
}

TEST(AnyRefCount, MovingARefIntoAnyDoesNotCount) {
  Point p(1, 2);
  Point q = p;
  Any a = std::move(q);
  EXPECT_EQ(UseCount(p.get()), 2);
}

TEST(AnyRefCount, ReassignReleasesThePreviousObject) {
  Point p(1, 2);
  Any a = p;
  EXPECT_EQ(UseCount(p.get()), 2);
  a = 5;
  EXPECT_EQ(UseCount(p.get()), 1);
  a = p;
  a.reset();
  EXPECT_TRUE(a.is_none());
  EXPECT_EQ(UseCount(p.get()), 1);
}

TEST(AnyRefCount, SelfAssignmentKeepsTheCount) {
  Point p(1, 2);
  Any a = p;
  Any& alias = a;
  a = alias;
  EXPECT_EQ(UseCount(p.get()), 2);
  a = std::move(alias);
  EXPECT_EQ(UseCount(p.get()), 2);
  EXPECT_FALSE(a.is_none());
}

TEST(AnyRefCount, ViewsHoldNoReference) {
  Point p(1, 2);
  AnyView v = p;
  AnyView w = v;
  EXPECT_EQ(UseCount(p.get()), 1);
  Any owned = w;  // a view becomes an owned value
  EXPECT_EQ(UseCount(p.get()), 2);
  AnyView from_any = owned;
  EXPECT_EQ(from_any.type_index(), PointObj::RuntimeTypeIndex());
  EXPECT_EQ(UseCount(p.get()), 2);
}

TEST(AnyRefCount, CastCopiesAndRvalueCastMoves) {
  Point p(1, 2);
  Any a = p;
  Point copy = a.cast<Point>();
  EXPECT_EQ(UseCount(p.get()), 3);
  Point moved = std::move(a).cast<Point>();
  EXPECT_TRUE(a.is_none());  // NOLINT(bugprone-use-after-move): exact-type cast moved out
  EXPECT_EQ(UseCount(p.get()), 3);
}

TEST(AnyRefCount, FailedCastLeavesTheCountUnchanged) {
  Point p(1, 2);
  Any a = p;
  EXPECT_THROW(a.cast<String>(), ffi::Error);
  EXPECT_THROW(std::move(a).cast<int>(), ffi::Error);
  EXPECT_FALSE(a.is_none());  // NOLINT(bugprone-use-after-move): a failed cast takes nothing
  EXPECT_EQ(UseCount(p.get()), 2);
}

TEST(AnyRefCount, HeapStringCopiesShareOneObject) {
  Any a = String("shared heap string content");
  Any b = a;
  EXPECT_EQ(Cell(a)->v_obj, Cell(b)->v_obj);
  EXPECT_EQ(reinterpret_cast<const ffi::Object*>(Cell(a)->v_obj)->use_count(), 2);
}

// ---------------------------------------------------------------------------
// as / try_cast / cast
// ---------------------------------------------------------------------------

TEST(AnyCast, AsIsExact) {
  Any i = 1;
  EXPECT_EQ(i.as<int>(), std::optional<int>(1));
  EXPECT_EQ(i.as<double>(), std::nullopt);
  EXPECT_EQ(i.as<bool>(), std::nullopt);
  Any b = true;
  EXPECT_EQ(b.as<int>(), std::nullopt);
  EXPECT_EQ(b.as<bool>(), std::optional<bool>(true));
  Any f = 2.5;
  EXPECT_EQ(f.as<int>(), std::nullopt);
  EXPECT_EQ(f.as<double>(), std::optional<double>(2.5));
  Any s = String("x");
  EXPECT_EQ(s.as<int>(), std::nullopt);
  EXPECT_EQ(s.as<String>().value(), "x");
}

TEST(AnyCast, AsOnObjectTypesReturnsPointers) {
  Any a = Point(3, 4);
  const PointObj* p = a.as<PointObj>();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->x, 3);
  EXPECT_NE(a.as<ffi::Object>(), nullptr);
  EXPECT_EQ(Any(1).as<PointObj>(), nullptr);
  EXPECT_EQ(Any().as<PointObj>(), nullptr);
}

TEST(AnyCast, TryCastIntToDouble) {
  EXPECT_EQ(Any(3).try_cast<double>(), std::optional<double>(3.0));
  EXPECT_EQ(Any(3).cast<double>(), 3.0);
}

TEST(AnyCast, TryCastBoolToInt) {
  EXPECT_EQ(Any(true).try_cast<int>(), std::optional<int>(1));
  EXPECT_EQ(Any(false).try_cast<int>(), std::optional<int>(0));
  EXPECT_EQ(Any(true).cast<int64_t>(), 1);
}

TEST(AnyCast, TryCastIntToBool) {
  EXPECT_EQ(Any(5).try_cast<bool>(), std::optional<bool>(true));
  EXPECT_EQ(Any(0).try_cast<bool>(), std::optional<bool>(false));
  EXPECT_TRUE(Any(1).cast<bool>());
}

TEST(AnyCast, TryCastReturnsNulloptWhenImpossible) {
  EXPECT_EQ(Any(2.5).try_cast<int>(), std::nullopt);
  EXPECT_EQ(Any(String("1")).try_cast<int>(), std::nullopt);
  EXPECT_EQ(Any().try_cast<int>(), std::nullopt);
  EXPECT_EQ(Any(1).try_cast<String>(), std::nullopt);
}

TEST(AnyCast, StringToIntThrowsWithExactMessage) {
  Any s = "hello";
  try {
    s.cast<int>();
    FAIL() << "expected a TypeError";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "TypeError");
    EXPECT_EQ(e.message(), "Cannot convert from type `ffi.SmallStr` to `int`");
    EXPECT_STREQ(e.what(), "Cannot convert from type `ffi.SmallStr` to `int`");
  }
}

TEST(AnyCast, StringAndBytesFormsAreNamedByTheirTypeKeys) {
  EXPECT_EQ(ErrorMessage([] { Any(String("a long heap string")).cast<int>(); }),
            "Cannot convert from type `ffi.String` to `int`");
  EXPECT_EQ(ErrorMessage([] { AnyView("raw").cast<int>(); }),
            "Cannot convert from type `const char*` to `int`");
  EXPECT_EQ(ErrorMessage([] { Any(ffi::Bytes("b", 1)).cast<int>(); }),
            "Cannot convert from type `ffi.SmallBytes` to `int`");
}

TEST(AnyCast, FloatToIntIsAnError) {
  EXPECT_EQ(ErrorMessage([] { Any(2.5).cast<int>(); }),
            "Cannot convert from type `float` to `int`");
  EXPECT_EQ(ErrorMessage([] { Any(2.0).cast<int64_t>(); }),
            "Cannot convert from type `float` to `int`");
}

// cpp_api.md §2.1: reading an Int into a narrower integer is a plain static_cast.
TEST(AnyCast, NarrowingIsAPlainStaticCast) {
  EXPECT_EQ(Any(300).cast<int8_t>(), static_cast<int8_t>(300));
  EXPECT_EQ(Any(-1).cast<uint8_t>(), 255);
  EXPECT_EQ(Any(int64_t{1} << 40).cast<int32_t>(), 0);
  EXPECT_EQ(Any(-128).cast<int8_t>(), -128);
  EXPECT_EQ(Any(255).cast<uint8_t>(), 255);
  EXPECT_EQ(Any(300).as<int8_t>(), std::optional<int8_t>(static_cast<int8_t>(300)));
  EXPECT_EQ(Any(300).try_cast<int8_t>(), std::optional<int8_t>(static_cast<int8_t>(300)));
}

TEST(AnyCast, MessagesNameThePODTypes) {
  EXPECT_EQ(ErrorMessage([] { Any().cast<int>(); }), "Cannot convert from type `None` to `int`");
  EXPECT_EQ(ErrorMessage([] { Any().cast<double>(); }),
            "Cannot convert from type `None` to `float`");
  EXPECT_EQ(ErrorMessage([] { Any(String("x")).cast<bool>(); }),
            "Cannot convert from type `ffi.SmallStr` to `bool`");
  EXPECT_EQ(ErrorMessage([] { Any(1.5).cast<String>(); }),
            "Cannot convert from type `float` to `str`");
  EXPECT_EQ(ErrorMessage([] { Any(true).cast<ffi::Bytes>(); }),
            "Cannot convert from type `bool` to `bytes`");
  DLDevice dev{kDLCPU, 0};
  EXPECT_EQ(ErrorMessage([&] { Any(dev).cast<int>(); }),
            "Cannot convert from type `Device` to `int`");
  int x = 0;
  void* p = &x;
  EXPECT_EQ(ErrorMessage([&] { Any(p).cast<int>(); }), "Cannot convert from type `void*` to `int`");
  DLDataType f32{kDLFloat, 32, 1};
  EXPECT_EQ(ErrorMessage([&] { Any(f32).cast<int>(); }),
            "Cannot convert from type `DataType` to `int`");
}

TEST(AnyCast, MessagesNameObjectTypes) {
  EXPECT_EQ(ErrorMessage([] { Any(Point(1, 2)).cast<int>(); }),
            "Cannot convert from type `test.any.Point` to `int`");
  EXPECT_EQ(ErrorMessage([] { Any(1).cast<Point>(); }),
            "Cannot convert from type `int` to `test.any.Point`");
  EXPECT_EQ(ErrorMessage([] { Any(1).cast<ffi::ObjectRef>(); }),
            "Cannot convert from type `int` to `ffi.Object`");
  EXPECT_EQ(ErrorMessage([] { Any(String("a long heap string")).cast<Point>(); }),
            "Cannot convert from type `ffi.String` to `test.any.Point`");
}

TEST(AnyCast, AnyViewCastsLikeAny) {
  Any owner = Point(5, 6);
  AnyView v = owner;
  EXPECT_EQ(v.cast<Point>()->x, 5);
  EXPECT_EQ(v.as<PointObj>()->y, 6);
  EXPECT_EQ(v.try_cast<int>(), std::nullopt);
  EXPECT_EQ(ErrorMessage([&] { v.cast<int>(); }),
            "Cannot convert from type `test.any.Point` to `int`");
}

TEST(AnyCast, CastToAnyAndAnyViewAlwaysSucceeds) {
  Any a = 7;
  Any copy = a.cast<Any>();
  EXPECT_EQ(copy.cast<int>(), 7);
  AnyView view = a.cast<AnyView>();
  EXPECT_EQ(view.cast<int>(), 7);
}

// ---------------------------------------------------------------------------
// type_index / GetTypeKey
// ---------------------------------------------------------------------------

TEST(AnyTypeKey, PODKindsHaveRegisteredKeys) {
  EXPECT_EQ(Any().GetTypeKey(), "None");
  EXPECT_EQ(Any(1).GetTypeKey(), "int");
  EXPECT_EQ(Any(true).GetTypeKey(), "bool");
  EXPECT_EQ(Any(1.0).GetTypeKey(), "float");
  DLDevice dev{kDLCPU, 0};
  EXPECT_EQ(Any(dev).GetTypeKey(), "Device");
  DLDataType f32{kDLFloat, 32, 1};
  EXPECT_EQ(Any(f32).GetTypeKey(), "DataType");
}

TEST(AnyTypeKey, StringsAndObjectsHaveTheirKeys) {
  EXPECT_EQ(Any(String("a long heap string")).GetTypeKey(), "ffi.String");
  EXPECT_EQ(Any(String("ab")).GetTypeKey(), "ffi.SmallStr");
  EXPECT_EQ(Any(Point(1, 2)).GetTypeKey(), "test.any.Point");
  EXPECT_EQ(AnyView(Point(1, 2)).GetTypeKey(), "test.any.Point");
}

// ---------------------------------------------------------------------------
// AnyEqual / AnyHash
// ---------------------------------------------------------------------------

/*!
 * \brief An Any holding a heap String object with `text`, as another
 *  implementation may make even for short text.
 */
Any HeapString(const std::string& text) {
  ObjectPtr<ffi::StringObj> obj =
      ffi::make_inplace_array_object<ffi::StringObj, char>(text.size() + 1);
  char* data = ffi::InplaceArrayBase<ffi::StringObj, char>(obj.get());
  std::memcpy(data, text.data(), text.size());
  data[text.size()] = '\0';
  obj->data = data;
  obj->size = text.size();
  TVMFFIAny cell;
  cell.type_index = kTVMFFIStr;
  cell.zero_padding = 0;
  cell.v_obj = ffi::detail::ObjectUnsafe::MoveObjectPtrToHandle(std::move(obj));
  return ffi::detail::AnyUnsafe::MoveTVMFFIAnyToAny(&cell);
}

TEST(AnyEqualHash, SmallHeapAndRawStringsWithEqualContentAreEqual) {
  Any small = String("abc");
  Any heap = HeapString("abc");
  AnyView raw = "abc";
  ASSERT_EQ(small.type_index(), kTVMFFISmallStr);
  ASSERT_EQ(heap.type_index(), kTVMFFIStr);
  ASSERT_EQ(raw.type_index(), kTVMFFIRawStr);
  ffi::AnyEqual eq;
  ffi::AnyHash hash;
  EXPECT_TRUE(eq(small, heap));
  EXPECT_TRUE(eq(AnyView(small), raw));
  EXPECT_TRUE(eq(AnyView(heap), raw));
  EXPECT_EQ(hash(small), hash(heap));
  EXPECT_EQ(hash(AnyView(small)), hash(raw));
  EXPECT_TRUE(small == heap);
}

TEST(AnyEqualHash, DifferentStringsAreUnequal) {
  EXPECT_FALSE(ffi::AnyEqual()(Any(String("abc")), Any(String("abd"))));
  EXPECT_FALSE(ffi::AnyEqual()(Any(String("abc")), Any(String("abc "))));
  EXPECT_TRUE(Any(String("abc")) != Any(String("xyz")));
}

TEST(AnyEqualHash, BytesAndStrWithSameContentAreUnequal) {
  Any s = String("abc");
  Any b = ffi::Bytes("abc", 3);
  EXPECT_FALSE(ffi::AnyEqual()(s, b));
  EXPECT_FALSE(ffi::AnyEqual()(b, s));
  Any hs = String("longer than seven");
  Any hb = ffi::Bytes(std::string("longer than seven"));
  EXPECT_FALSE(ffi::AnyEqual()(hs, hb));
  EXPECT_TRUE(ffi::AnyEqual()(hb, Any(ffi::Bytes(std::string("longer than seven")))));
}

TEST(AnyEqualHash, IntsCompareByValue) {
  EXPECT_TRUE(ffi::AnyEqual()(Any(42), Any(42)));
  EXPECT_FALSE(ffi::AnyEqual()(Any(42), Any(43)));
  EXPECT_EQ(ffi::AnyHash()(Any(42)), ffi::AnyHash()(Any(int64_t{42})));
  EXPECT_FALSE(ffi::AnyEqual()(Any(1), Any(String("1"))));
}

TEST(AnyEqualHash, FloatsCompareBitwise) {
  Any pz = 0.0;
  Any nz = -0.0;
  EXPECT_FALSE(ffi::AnyEqual()(pz, nz));
  EXPECT_NE(ffi::AnyHash()(pz), ffi::AnyHash()(nz));
  Any nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(ffi::AnyEqual()(nan, nan));
  EXPECT_FALSE(ffi::AnyEqual()(Any(1.5), Any(2.5)));
}

TEST(AnyEqualHash, ObjectsCompareByIdentity) {
  Point a(1, 2);
  Point b(1, 2);
  EXPECT_FALSE(ffi::AnyEqual()(Any(a), Any(b)));
  EXPECT_TRUE(ffi::AnyEqual()(Any(a), Any(a)));
  EXPECT_EQ(ffi::AnyHash()(Any(a)), ffi::AnyHash()(Any(a)));
}

TEST(AnyEqualHash, DevicesAndDataTypesCompareByValue) {
  DLDevice d1{kDLCUDA, 1}, d2{kDLCUDA, 1}, d3{kDLCUDA, 2};
  EXPECT_TRUE(ffi::AnyEqual()(Any(d1), Any(d2)));
  EXPECT_FALSE(ffi::AnyEqual()(Any(d1), Any(d3)));
  EXPECT_EQ(ffi::AnyHash()(Any(d1)), ffi::AnyHash()(Any(d2)));
  DLDataType t1{kDLInt, 8, 4}, t2{kDLInt, 8, 4}, t3{kDLInt, 8, 1};
  EXPECT_TRUE(ffi::AnyEqual()(Any(t1), Any(t2)));
  EXPECT_FALSE(ffi::AnyEqual()(Any(t1), Any(t3)));
  EXPECT_EQ(ffi::AnyHash()(Any(t1)), ffi::AnyHash()(Any(t2)));
}

TEST(AnyEqualHash, NoneEqualsNone) {
  EXPECT_TRUE(ffi::AnyEqual()(Any(), Any(nullptr)));
  EXPECT_FALSE(ffi::AnyEqual()(Any(), Any(0)));
}

TEST(AnyEqualHash, WorksAsUnorderedMapKey) {
  std::unordered_map<Any, int, ffi::AnyHash, ffi::AnyEqual> map;
  map[Any(String("key"))] = 1;
  map[HeapString("key")] = 2;  // same key
  map[Any(1)] = 3;
  map[Any(ffi::Bytes("key", 3))] = 4;  // distinct from the str key
  EXPECT_EQ(map.size(), 3u);
  EXPECT_EQ(map[Any(String("key"))], 2);
  std::unordered_map<Any, int> std_map;  // std::hash<Any> and operator==
  std_map[Any(String("key"))] = 5;
  EXPECT_EQ(std_map.count(HeapString("key")), 1u);
}

// ---------------------------------------------------------------------------
// AnyView -> Any takes ownership of borrowed values
// ---------------------------------------------------------------------------

TEST(AnyViewToAny, RawStrBecomesAnOwnedStringThatOutlivesTheSource) {
  Any owned;
  {
    auto source = std::make_unique<std::string>("a borrowed string beyond seven bytes");
    AnyView view = *source;
    ASSERT_EQ(view.type_index(), kTVMFFIRawStr);
    owned = Any(view);
    source->assign(source->size(), 'X');  // the view's bytes change, the owned copy must not
  }
  EXPECT_EQ(owned.type_index(), kTVMFFIStr);
  EXPECT_EQ(owned.cast<std::string>(), "a borrowed string beyond seven bytes");
}

TEST(AnyViewToAny, ShortRawStrBecomesASmallString) {
  Any owned;
  {
    std::string source = "tiny";
    owned = Any(AnyView(source));
  }
  EXPECT_EQ(owned.type_index(), kTVMFFISmallStr);
  EXPECT_EQ(owned.cast<String>(), "tiny");
}

TEST(AnyViewToAny, ByteArrayPointerBecomesOwnedBytes) {
  std::string storage("\x00\x01\x02 bytes beyond seven", 21);
  TVMFFIByteArray arr{storage.data(), storage.size()};
  TVMFFIAny raw;
  raw.type_index = kTVMFFIByteArrayPtr;
  raw.zero_padding = 0;
  raw.v_ptr = &arr;
  Any owned = AnyView::CopyFromTVMFFIAny(raw);
  storage.assign(storage.size(), 'Z');
  EXPECT_EQ(owned.type_index(), kTVMFFIBytes);
  EXPECT_EQ(std::string(owned.cast<ffi::Bytes>()),
            std::string("\x00\x01\x02 bytes beyond seven", 21));
}

TEST(AnyViewToAny, PODsAndObjectsAreCopied) {
  Point p(1, 2);
  Any a = AnyView(p);
  EXPECT_EQ(UseCount(p.get()), 2);
  Any i = AnyView(9);
  EXPECT_EQ(i.cast<int>(), 9);
}

/*! \brief A view of kind ObjectRValueRef pointing at `slot`. */
AnyView RValueRefView(TVMFFIObject** slot) {
  TVMFFIAny raw;
  raw.type_index = kTVMFFIObjectRValueRef;
  raw.zero_padding = 0;
  raw.v_ptr = slot;
  return AnyView::CopyFromTVMFFIAny(raw);
}

TEST(AnyViewToAny, ObjectRValueRefGivesUpItsObject) {
  Point p(1, 2);
  // The slot owns a reference, as the ObjectPtr inside an RValueRef does.
  TVMFFIObject* slot = ffi::detail::ObjectUnsafe::GetHeader(p.get());
  ffi::detail::ObjectUnsafe::IncRefObjectHandle(slot);
  Any owned = RValueRefView(&slot);
  EXPECT_EQ(slot, nullptr);
  EXPECT_EQ(owned.type_index(), PointObj::RuntimeTypeIndex());
  EXPECT_EQ(UseCount(p.get()), 2);
}

TEST(AnyViewToAny, UsedUpObjectRValueRefRaisesInternalError) {
  TVMFFIObject* slot = nullptr;
  EXPECT_EQ(ErrorMessage([&] { Any owned = RValueRefView(&slot); }, "InternalError"),
            "RValueRef already moved");
}

// cpp_api.md §2.1: ObjectRef traits check the cell strictly; only RValueRef<R> (and Any) take an
// ObjectRValueRef, so a reference type refuses it and names it in the error.
TEST(AnyCast, ObjectRefTypesRefuseAnObjectRValueRef) {
  Point p(1, 2);
  TVMFFIObject* slot = ffi::detail::ObjectUnsafe::GetHeader(p.get());
  AnyView view = RValueRefView(&slot);
  EXPECT_FALSE(view.try_cast<Point>().has_value());
  EXPECT_FALSE(view.try_cast<ffi::ObjectRef>().has_value());
  EXPECT_FALSE(view.try_cast<ObjectPtr<PointObj>>().has_value());
  EXPECT_EQ(ErrorMessage([&] { view.cast<Point>(); }),
            "Cannot convert from type `ObjectRValueRef` to `test.any.Point`");
  EXPECT_EQ(slot, ffi::detail::ObjectUnsafe::GetHeader(p.get()));
}

TEST(AnyCast, ObjectRValueRefIsNamedByItsKeyInErrors) {
  Point p(1, 2);
  TVMFFIObject* slot = ffi::detail::ObjectUnsafe::GetHeader(p.get());
  AnyView view = RValueRefView(&slot);
  EXPECT_EQ(ErrorMessage([&] { view.cast<int>(); }),
            "Cannot convert from type `ObjectRValueRef` to `int`");
}

// TVMFFIAnyViewToOwnedAny follows Any(const AnyView&): the object is taken over, not copied.
TEST(AnyViewToOwnedAnyCApi, ObjectRValueRefGivesUpItsObject) {
  Point p(1, 2);
  TVMFFIObject* slot = ffi::detail::ObjectUnsafe::GetHeader(p.get());
  ffi::detail::ObjectUnsafe::IncRefObjectHandle(slot);
  TVMFFIAny view;
  view.type_index = kTVMFFIObjectRValueRef;
  view.zero_padding = 0;
  view.v_ptr = &slot;
  TVMFFIAny out;
  ASSERT_EQ(TVMFFIAnyViewToOwnedAny(&view, &out), 0);
  EXPECT_EQ(slot, nullptr);
  EXPECT_EQ(out.type_index, PointObj::RuntimeTypeIndex());
  EXPECT_EQ(out.v_obj, ffi::detail::ObjectUnsafe::GetHeader(p.get()));
  EXPECT_EQ(UseCount(p.get()), 2);
  TVMFFIObjectDecRef(out.v_obj);
}

TEST(AnyViewToOwnedAnyCApi, UsedUpObjectRValueRefRaisesInternalError) {
  TVMFFIObject* slot = nullptr;
  TVMFFIAny view;
  view.type_index = kTVMFFIObjectRValueRef;
  view.zero_padding = 0;
  view.v_ptr = &slot;
  TVMFFIAny out;
  out.type_index = kTVMFFINone;
  ASSERT_EQ(TVMFFIAnyViewToOwnedAny(&view, &out), -1);
  ffi::Error err = ffi::detail::MoveFromSafeCallRaised();
  EXPECT_EQ(err.kind(), "InternalError");
  EXPECT_EQ(err.message(), "RValueRef already moved");
}

TEST(AnyUnsafe, MoveRoundTripThroughARawCell) {
  Point p(1, 2);
  Any a = p;
  TVMFFIAny raw = ffi::detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(a));
  EXPECT_TRUE(a.is_none());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(UseCount(p.get()), 2);
  Any back = ffi::detail::AnyUnsafe::MoveTVMFFIAnyToAny(&raw);
  EXPECT_EQ(raw.type_index, kTVMFFINone);
  EXPECT_EQ(UseCount(p.get()), 2);
  EXPECT_EQ(back.cast<Point>()->x, 1);
}

}  // namespace
