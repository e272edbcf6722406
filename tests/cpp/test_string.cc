// Tests of String and Bytes (string.h): the small (inline, <= 7 bytes) and
// heap forms and the boundary between them, embedded NUL bytes, conversions
// with the standard string types, comparison, hashing, concatenation, their
// distinct kinds in Any, sharing of heap storage, and the C functions
// TVMFFIStringFromByteArray / TVMFFIBytesFromByteArray.
#include <gtest/gtest.h>

#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/string.h>
#include "testing_helpers.h"

#include <cstring>
#include <functional>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <utility>

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::AnyView;
using ffi::Bytes;
using ffi::String;

using tvm_ffi_testing::Cell;
using tvm_ffi_testing::ErrorMessage;

/*! \brief The heap object behind a String, seen through an Any holding it (nullptr if small). */
const ffi::Object* HeapObject(const String& s) {
  Any a = s;
  const TVMFFIAny* cell = Cell(a);
  return cell->type_index == kTVMFFIStr ? reinterpret_cast<const ffi::Object*>(cell->v_obj)
                                        : nullptr;
}

/*!
 * \brief A String whose content is on the heap even when short (as another
 *  implementation may produce).
 */
String ShortHeapString(const std::string& text) {
  ffi::ObjectPtr<ffi::StringObj> obj =
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
  return ffi::detail::AnyUnsafe::MoveTVMFFIAnyToAny(&cell).cast<String>();
}

// Operator availability, so that a missing overload fails one test instead of the build.
template <typename A, typename B, typename = void>
struct CanAdd : std::false_type {};
template <typename A, typename B>
struct CanAdd<A, B, std::void_t<decltype(std::declval<A>() + std::declval<B>())>> : std::true_type {
};
template <typename A, typename B, typename = void>
struct CanCompareEq : std::false_type {};
template <typename A, typename B>
struct CanCompareEq<A, B, std::void_t<decltype(std::declval<A>() == std::declval<B>())>>
    : std::true_type {};

template <typename A, typename B>
std::optional<String> Add(const A& a, const B& b) {
  if constexpr (CanAdd<const A&, const B&>::value) {
    return String(a + b);
  } else {
    return std::nullopt;
  }
}

template <typename A, typename B>
std::optional<bool> Equals(const A& a, const B& b) {
  if constexpr (CanCompareEq<const A&, const B&>::value) {
    return static_cast<bool>(a == b);
  } else {
    return std::nullopt;
  }
}

static_assert(sizeof(String) == 16, "String is one TVMFFIAny cell");
static_assert(sizeof(Bytes) == 16, "Bytes is one TVMFFIAny cell");

// ---------------------------------------------------------------------------
// Small and heap forms
// ---------------------------------------------------------------------------

TEST(String, DefaultIsEmptyAndSmall) {
  String s;
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(s.size(), 0u);
  EXPECT_FALSE(s.is_heap());
  EXPECT_STREQ(s.c_str(), "");
  EXPECT_EQ(s, "");
}

TEST(String, ShortContentIsStoredInlineWithoutHeap) {
  String s = "abc";
  EXPECT_FALSE(s.is_heap());
  EXPECT_EQ(s.size(), 3u);
  EXPECT_EQ(s.length(), 3u);
  EXPECT_EQ(std::string(s.data(), s.size()), "abc");
  EXPECT_EQ(s.data()[3], '\0');
  EXPECT_EQ(HeapObject(s), nullptr);
}

TEST(String, SevenBytesIsTheLargestSmallString) {
  String seven = "1234567";
  String eight = "12345678";
  EXPECT_FALSE(seven.is_heap());
  EXPECT_EQ(seven.size(), 7u);
  EXPECT_EQ(seven.data()[7], '\0');
  EXPECT_TRUE(eight.is_heap());
  EXPECT_EQ(eight.size(), 8u);
  EXPECT_EQ(Any(seven).type_index(), kTVMFFISmallStr);
  EXPECT_EQ(Any(eight).type_index(), kTVMFFIStr);
}

TEST(String, HeapDataIsNulTerminated) {
  String s = "a string that lives on the heap";
  ASSERT_TRUE(s.is_heap());
  EXPECT_EQ(s.data()[s.size()], '\0');
  EXPECT_EQ(std::strlen(s.c_str()), s.size());
}

TEST(String, HeapObjectHasTheStringCellLayout) {
  String s = "heap string content";
  Any a = s;
  const TVMFFIAny* cell = Cell(a);
  ASSERT_EQ(cell->type_index, kTVMFFIStr);
  EXPECT_EQ(cell->v_obj->type_index, kTVMFFIStr);
  const TVMFFIByteArray* bytes = reinterpret_cast<const TVMFFIByteArray*>(
      reinterpret_cast<const char*>(cell->v_obj) + sizeof(TVMFFIObject));
  EXPECT_EQ(bytes->size, s.size());
  EXPECT_EQ(bytes->data, s.data());
}

TEST(String, EmbeddedNulBytesAreKept) {
  std::string small_src("a\0b", 3);
  std::string heap_src("abc\0defghijk", 12);
  String small = small_src;
  String heap = heap_src;
  EXPECT_EQ(small.size(), 3u);
  EXPECT_FALSE(small.is_heap());
  EXPECT_EQ(std::string(small), small_src);
  EXPECT_EQ(heap.size(), 12u);
  EXPECT_TRUE(heap.is_heap());
  EXPECT_EQ(std::string(heap), heap_src);
  EXPECT_NE(heap, String(std::string("abc\0xxxxxxxx", 12)));  // content after the NUL counts
  EXPECT_EQ(String(small_src.c_str()).size(), 1u);            // const char* stops at the NUL
  EXPECT_EQ(String("a\0b", 3).size(), 3u);
}

TEST(String, SizeCountsUtf8Bytes) {
  String s = "h\xc3\xa9llo";  // "héllo"
  EXPECT_EQ(s.size(), 6u);
}

// ---------------------------------------------------------------------------
// Conversions
// ---------------------------------------------------------------------------

TEST(String, ConvertsToAndFromStdString) {
  std::string src = "from std::string content";
  String s = src;
  std::string back = s;
  EXPECT_EQ(back, src);
  String small = std::string("tiny");
  EXPECT_EQ(std::string(small), "tiny");
}

TEST(String, ConvertsToAndFromStringView) {
  std::string_view src = "a string view source";
  String s = src;
  std::string_view back = s;
  EXPECT_EQ(back, src);
  EXPECT_EQ(s.view(), src);
  EXPECT_EQ(back.data(), s.data());  // the view borrows the String's storage
  String partial(src.substr(2, 6));
  EXPECT_EQ(partial, "string");
}

TEST(String, ConstructsFromConstCharPointerAndLength) {
  const char* text = "pointer text";
  String s = text;
  EXPECT_EQ(s, "pointer text");
  String prefix(text, 7);
  EXPECT_EQ(prefix, "pointer");
  EXPECT_STREQ(String(text).c_str(), text);
}

TEST(String, AtReturnsBytesAndThrowsOutOfRangePastTheEnd) {
  String s = "abc";
  EXPECT_EQ(s.at(0), 'a');
  EXPECT_EQ(s.at(2), 'c');
  EXPECT_EQ(s[1], 'b');
  EXPECT_THROW(s.at(3), std::out_of_range);
  String heap = "heap string!";
  EXPECT_EQ(heap.at(11), '!');
  EXPECT_THROW(heap.at(100), std::out_of_range);
}

TEST(String, PrintsItsContent) {
  std::ostringstream os;
  os << String("printed") << "|" << String("printed on the heap");
  EXPECT_EQ(os.str(), "printed|printed on the heap");
}

// ---------------------------------------------------------------------------
// Comparison and hashing
// ---------------------------------------------------------------------------

TEST(String, ComparesWithStrings) {
  String a = "apple";
  String b = "banana split";
  EXPECT_TRUE(a == String("apple"));
  EXPECT_TRUE(a != b);
  EXPECT_TRUE(a < b);
  EXPECT_TRUE(b > a);
  EXPECT_TRUE(a <= a);
  EXPECT_TRUE(a >= a);
  EXPECT_FALSE(b < a);
  EXPECT_TRUE(String("abc") < String("abcdefghij"));  // prefix orders first, small vs heap
  EXPECT_LT(a.compare("apples"), 0);
  EXPECT_EQ(a.compare("apple"), 0);
  EXPECT_GT(b.compare("apple"), 0);
}

TEST(String, ComparesWithConstCharAndStdString) {
  String s = "hello world";
  EXPECT_TRUE(s == "hello world");
  EXPECT_TRUE("hello world" == s);
  EXPECT_TRUE(s != "hello");
  EXPECT_TRUE("hello" != s);
  EXPECT_TRUE(s == std::string("hello world"));
  EXPECT_TRUE(std::string("hello world") == s);
  EXPECT_TRUE(s != std::string("x"));
  EXPECT_TRUE(std::string("x") != s);
}

TEST(String, ComparesWithStringView) {
  String s = "view compare";
  EXPECT_EQ(Equals(s, std::string_view("view compare")), std::optional<bool>(true))
      << "String == std::string_view must compile (it is ambiguous when nullopt)";
  EXPECT_EQ(Equals(s, std::string_view("other")), std::optional<bool>(false));
}

TEST(String, SmallAndHeapFormsOfEqualContentAreEqual) {
  String small = "abc";
  String heap = ShortHeapString("abc");
  ASSERT_FALSE(small.is_heap());
  ASSERT_TRUE(heap.is_heap());
  EXPECT_EQ(small, heap);
  EXPECT_EQ(std::hash<String>()(small), std::hash<String>()(heap));
}

TEST(String, HashIsByContent) {
  String a = "hash me on the heap";
  String b = std::string("hash me on the heap");
  EXPECT_EQ(std::hash<String>()(a), std::hash<String>()(b));
  EXPECT_EQ(std::hash<String>()(a), std::hash<std::string_view>()("hash me on the heap"));
  std::unordered_set<String> set{a, b, String("other"), ShortHeapString("other")};
  EXPECT_EQ(set.size(), 2u);
}

// ---------------------------------------------------------------------------
// Concatenation
// ---------------------------------------------------------------------------

TEST(String, ConcatenatesStrings) {
  String a = "abcd";
  String b = "efgh";
  String ab = a + b;
  EXPECT_EQ(ab, "abcdefgh");
  EXPECT_TRUE(ab.is_heap());  // two small strings can make a heap one
  EXPECT_EQ(a, "abcd");       // operands are unchanged
  EXPECT_EQ(String() + String(), "");
}

TEST(String, ConcatenatesWithConstChar) {
  String a = "left";
  EXPECT_EQ(a + "-right", "left-right");
  EXPECT_EQ("prefix-" + a, "prefix-left");
}

TEST(String, ConcatenatesWithStdString) {
  String a = "left";
  std::string b = "-std";
  EXPECT_EQ(Add(a, b), std::optional<String>(String("left-std")))
      << "String + std::string must compile (it is ambiguous when nullopt)";
  EXPECT_EQ(Add(b, a), std::optional<String>(String("-stdleft")))
      << "std::string + String must compile (it is ambiguous when nullopt)";
}

TEST(String, ConcatenatesWithStringView) {
  String a = "left";
  EXPECT_EQ(a + std::string_view("-view"), "left-view");
  EXPECT_EQ(std::string_view("view-") + a, "view-left");
}

TEST(String, ConcatenationKeepsEmbeddedNuls) {
  String a(std::string("a\0", 2));
  String b(std::string("\0b", 2));
  String ab = a + b;
  EXPECT_EQ(ab.size(), 4u);
  EXPECT_EQ(std::string(ab), std::string("a\0\0b", 4));
}

// ---------------------------------------------------------------------------
// Ownership of the heap storage
// ---------------------------------------------------------------------------

TEST(String, CopiesShareTheHeapObject) {
  String a = "shared heap storage";
  String b = a;
  EXPECT_EQ(a.data(), b.data());
  const ffi::Object* obj = HeapObject(a);
  ASSERT_NE(obj, nullptr);
  EXPECT_EQ(obj, HeapObject(b));
  EXPECT_EQ(obj->use_count(), 2);  // a and b
  {
    String c = b;
    EXPECT_EQ(obj->use_count(), 3);
  }
  EXPECT_EQ(obj->use_count(), 2);
}

TEST(String, MoveLeavesAnEmptySmallString) {
  String a = "moved heap storage";
  const ffi::Object* obj = HeapObject(a);
  String b = std::move(a);
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): documented moved-from state
  EXPECT_FALSE(a.is_heap());
  EXPECT_EQ(HeapObject(b), obj);
  EXPECT_EQ(obj->use_count(), 1);
}

TEST(String, AssignmentReleasesThePreviousHeapObject) {
  String keep = "first heap string";
  const ffi::Object* first = HeapObject(keep);
  String s = keep;
  EXPECT_EQ(first->use_count(), 2);
  s = "second heap string";
  EXPECT_EQ(first->use_count(), 1);
  s = keep;
  EXPECT_EQ(first->use_count(), 2);
  s = String("tiny");
  EXPECT_EQ(first->use_count(), 1);
}

TEST(String, CastFromAnySharesTheHeapObject) {
  String s = "round trip through Any";
  Any a = s;
  String back = a.cast<String>();
  EXPECT_EQ(back.data(), s.data());
  EXPECT_EQ(HeapObject(s)->use_count(), 3);  // s, a and back
}

// ---------------------------------------------------------------------------
// String and Bytes in Any
// ---------------------------------------------------------------------------

TEST(String, SchemaNames) {
  EXPECT_EQ(ffi::TypeTraits<String>::TypeStr(), "str");
  EXPECT_EQ(ffi::TypeTraits<String>::TypeSchema(), R"({"type":"ffi.String"})");
  EXPECT_EQ(ffi::TypeTraits<Bytes>::TypeStr(), "bytes");
  EXPECT_EQ(ffi::TypeTraits<Bytes>::TypeSchema(), R"({"type":"ffi.Bytes"})");
}

TEST(String, BytesFromACStringStopsAtTheTerminator) {
  Bytes b("ab\0cd");
  EXPECT_EQ(b.size(), 2u);
  EXPECT_TRUE(b == "ab");
}

TEST(String, BytesComparesWithACString) {
  Bytes small("abc", 3);
  Bytes heap(std::string("bytes on the heap"));
  EXPECT_TRUE(small == "abc");
  EXPECT_TRUE("bytes on the heap" == heap);
  EXPECT_TRUE(small != "abcd");
  EXPECT_TRUE("ab" != small);
}

TEST(String, BytesIsNotAString) {
  Any small_bytes = Bytes("abc", 3);
  Any heap_bytes = Bytes(std::string("bytes on the heap"));
  EXPECT_EQ(small_bytes.try_cast<String>(), std::nullopt);
  EXPECT_EQ(heap_bytes.try_cast<String>(), std::nullopt);
  EXPECT_EQ(small_bytes.as<String>(), std::nullopt);
  EXPECT_EQ(ErrorMessage([&] { small_bytes.cast<String>(); }, "TypeError"),
            "Cannot convert from type `ffi.SmallBytes` to `str`");
}

TEST(String, StdStringReadsTextAndBytesAlike) {
  Any small_bytes = Bytes("abc", 3);
  Any heap_bytes = Bytes(std::string("bytes on the heap"));
  EXPECT_EQ(small_bytes.cast<std::string>(), "abc");
  EXPECT_EQ(heap_bytes.cast<std::string>(), "bytes on the heap");
  TVMFFIByteArray array{"\x00\x01", 2};
  TVMFFIAny cell;
  cell.type_index = kTVMFFIByteArrayPtr;
  cell.zero_padding = 0;
  cell.v_ptr = &array;
  EXPECT_EQ(AnyView::CopyFromTVMFFIAny(cell).cast<std::string>(), std::string("\x00\x01", 2));
  EXPECT_EQ(Any(String("text")).cast<std::string>(), "text");
  EXPECT_EQ(Any(1).try_cast<std::string>(), std::nullopt);
}

TEST(String, StringIsNotBytes) {
  Any small = String("abc");
  Any heap = String("string on the heap");
  EXPECT_EQ(small.try_cast<Bytes>(), std::nullopt);
  EXPECT_EQ(heap.try_cast<Bytes>(), std::nullopt);
  EXPECT_EQ(AnyView("raw").try_cast<Bytes>(), std::nullopt);
  EXPECT_EQ(ErrorMessage([&] { heap.cast<Bytes>(); }, "TypeError"),
            "Cannot convert from type `ffi.String` to `bytes`");
}

TEST(String, CastToStdStringFromEveryStringForm) {
  EXPECT_EQ(Any(String("small")).cast<std::string>(), "small");
  EXPECT_EQ(Any(String("on the heap")).cast<std::string>(), "on the heap");
  EXPECT_EQ(AnyView("raw view").cast<std::string>(), "raw view");
  EXPECT_EQ(AnyView("raw view").cast<String>(), "raw view");
}

TEST(String, CastToConstCharPointerFromEveryStringForm) {
  Any heap = String("on the heap");
  EXPECT_STREQ(heap.cast<const char*>(), "on the heap");
  const char* raw = "raw view";
  EXPECT_EQ(AnyView(raw).cast<const char*>(), raw);
  // A small string's bytes live in the Any cell, which outlives the pointer here.
  Any small = String("small");
  std::optional<const char*> p = small.try_cast<const char*>();
  ASSERT_TRUE(p.has_value()) << "a small string held by an Any must cast to const char*";
  EXPECT_STREQ(*p, "small");
}

// ---------------------------------------------------------------------------
// Bytes
// ---------------------------------------------------------------------------

static_assert(!std::is_convertible_v<const char*, Bytes>, "text must not become Bytes implicitly");
static_assert(std::is_convertible_v<std::string, Bytes>,
              "std::string converts to Bytes implicitly (Bytes b = s;)");

TEST(Bytes, SmallAndHeapBoundaryIsSevenBytes) {
  Bytes seven("\x01\x02\x03\x04\x05\x06\x07", 7);
  Bytes eight("\x01\x02\x03\x04\x05\x06\x07\x08", 8);
  EXPECT_FALSE(seven.is_heap());
  EXPECT_TRUE(eight.is_heap());
  EXPECT_EQ(Any(seven).type_index(), kTVMFFISmallBytes);
  EXPECT_EQ(Any(eight).type_index(), kTVMFFIBytes);
}

TEST(Bytes, KeepsArbitraryBinaryContent) {
  std::string raw;
  for (int i = 0; i < 256; ++i) raw.push_back(static_cast<char>(i));
  Bytes b(raw);
  EXPECT_EQ(b.size(), 256u);
  EXPECT_EQ(std::string(b), raw);
  EXPECT_EQ(b.data()[256], '\0');
  Any a = b;
  EXPECT_EQ(std::string(a.cast<Bytes>()), raw);
}

TEST(Bytes, ComparesAndHashesByContent) {
  Bytes a("\x00\x01", 2);
  Bytes b(std::string("\x00\x01", 2));
  Bytes c("\x00\x02", 2);
  EXPECT_TRUE(a == b);
  EXPECT_TRUE(a != c);
  EXPECT_TRUE(a < c);
  EXPECT_EQ(std::hash<Bytes>()(a), std::hash<Bytes>()(b));
}

// ---------------------------------------------------------------------------
// C functions
// ---------------------------------------------------------------------------

Any TakeOwned(TVMFFIAny* cell) { return ffi::detail::AnyUnsafe::MoveTVMFFIAnyToAny(cell); }

TEST(StringCAPI, StringFromByteArrayMakesSmallOrHeapStrings) {
  TVMFFIByteArray small{"abc", 3};
  TVMFFIAny out;
  ASSERT_EQ(TVMFFIStringFromByteArray(&small, &out), 0);
  EXPECT_EQ(out.type_index, kTVMFFISmallStr);
  EXPECT_EQ(TakeOwned(&out).cast<String>(), "abc");

  TVMFFIByteArray heap{"heap string via C", 17};
  ASSERT_EQ(TVMFFIStringFromByteArray(&heap, &out), 0);
  EXPECT_EQ(out.type_index, kTVMFFIStr);
  Any owned = TakeOwned(&out);
  EXPECT_EQ(owned.cast<String>(), "heap string via C");
  EXPECT_EQ(reinterpret_cast<const ffi::Object*>(Cell(owned)->v_obj)->use_count(), 1);
}

TEST(StringCAPI, StringFromByteArrayCopiesTheInput) {
  std::string src("copied \0 content!", 17);
  TVMFFIByteArray arr{src.data(), src.size()};
  TVMFFIAny out;
  ASSERT_EQ(TVMFFIStringFromByteArray(&arr, &out), 0);
  src.assign(src.size(), '#');
  EXPECT_EQ(std::string(TakeOwned(&out).cast<String>()), std::string("copied \0 content!", 17));
}

TEST(StringCAPI, EmptyByteArrayWithNullDataIsAnEmptyString) {
  TVMFFIByteArray empty{nullptr, 0};
  TVMFFIAny out;
  ASSERT_EQ(TVMFFIStringFromByteArray(&empty, &out), 0);
  EXPECT_EQ(out.type_index, kTVMFFISmallStr);
  EXPECT_EQ(TakeOwned(&out).cast<String>(), "");
}

TEST(StringCAPI, NullInputRaisesValueError) {
  TVMFFIAny out;
  out.type_index = kTVMFFINone;
  out.zero_padding = 0;
  out.v_int64 = 0;
  ASSERT_EQ(TVMFFIStringFromByteArray(nullptr, &out), -1);
  ffi::Error err = ffi::detail::MoveFromRaised();
  EXPECT_EQ(err.kind(), "ValueError");
  EXPECT_EQ(err.message(), "byte array must not be NULL");
  TVMFFIByteArray bad{nullptr, 5};
  ASSERT_EQ(TVMFFIBytesFromByteArray(&bad, &out), -1);
  EXPECT_EQ(ffi::detail::MoveFromRaised().kind(), "ValueError");
}

TEST(StringCAPI, BytesFromByteArrayMakesBytes) {
  TVMFFIByteArray small{"\x00\x01", 2};
  TVMFFIAny out;
  ASSERT_EQ(TVMFFIBytesFromByteArray(&small, &out), 0);
  EXPECT_EQ(out.type_index, kTVMFFISmallBytes);
  EXPECT_EQ(std::string(TakeOwned(&out).cast<Bytes>()), std::string("\x00\x01", 2));
  TVMFFIByteArray heap{"bytes on the heap", 17};
  ASSERT_EQ(TVMFFIBytesFromByteArray(&heap, &out), 0);
  EXPECT_EQ(out.type_index, kTVMFFIBytes);
  EXPECT_EQ(std::string(TakeOwned(&out).cast<Bytes>()), "bytes on the heap");
}

}  // namespace
