// Tests of the String/Bytes members of the 0.1.x C++ API: find, substr,
// starts_with/ends_with, compare, Split, the heap form made from
// std::string&&, implicit Bytes constructors, at()'s exception and the
// escaping helpers.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/string.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::Bytes;
using ffi::String;

TEST(StringApi, FindFollowsStringViewSemantics) {
  String s = "hello world";
  EXPECT_EQ(s.find("world"), 6u);
  EXPECT_EQ(s.find(String("o")), 4u);
  EXPECT_EQ(s.find("o", 5), 7u);
  EXPECT_EQ(s.find("xyz"), String::npos);
  EXPECT_EQ(s.find("worldwide", 0, 5), 6u);
}

TEST(StringApi, FindEmptyNeedle) {
  String s = "hello world";
  EXPECT_EQ(s.find(""), 0u);
  EXPECT_EQ(s.find("", 11), 11u);
  EXPECT_EQ(s.find("", 20), String::npos);
}

TEST(StringApi, NposIsMaxSizeT) { EXPECT_EQ(String::npos, static_cast<size_t>(-1)); }

TEST(StringApi, SubstrClampsTheCount) {
  String s = "hello world";
  EXPECT_EQ(s.substr(6), "world");
  EXPECT_EQ(s.substr(0, 5), "hello");
  EXPECT_EQ(s.substr(6, 100), "world");
  EXPECT_EQ(s.substr(11), "");
}

TEST(StringApi, SubstrPastTheEndThrowsOutOfRange) {
  String s = "hello";
  EXPECT_THROW(s.substr(6), std::out_of_range);
}

TEST(StringApi, AtThrowsStdOutOfRange) {
  String s = "abc";
  EXPECT_EQ(s.at(2), 'c');
  try {
    (void)s.at(3);
    FAIL() << "expected std::out_of_range";
  } catch (const std::out_of_range& e) {
    EXPECT_STREQ(e.what(), "tvm::String index out of bounds");
  }
}

TEST(StringApi, StartsWithAndEndsWith) {
  String s = "prefix_body_suffix";
  EXPECT_TRUE(s.starts_with("prefix"));
  EXPECT_TRUE(s.starts_with(String("pre")));
  EXPECT_TRUE(s.starts_with(std::string_view("prefix_")));
  EXPECT_TRUE(s.starts_with("prefixZZZ", 6));
  EXPECT_FALSE(s.starts_with("body"));
  EXPECT_TRUE(s.ends_with("suffix"));
  EXPECT_TRUE(s.ends_with(String("_suffix")));
  EXPECT_TRUE(s.ends_with("fixZZ", 3));
  EXPECT_FALSE(s.ends_with("prefix"));
}

TEST(StringApi, LongerAffixIsNeverMatched) {
  String s = "ab";
  EXPECT_FALSE(s.starts_with("abc"));
  EXPECT_FALSE(s.ends_with("xab"));
  EXPECT_TRUE(s.starts_with(""));
  EXPECT_TRUE(s.ends_with(""));
}

TEST(StringApi, CompareReturnsMinusOneZeroOrOne) {
  String a = "apple";
  EXPECT_EQ(a.compare(String("apple")), 0);
  EXPECT_EQ(a.compare(String("zebra-long-string")), -1);
  EXPECT_EQ(a.compare(std::string("aardvark")), 1);
  EXPECT_EQ(a.compare("apple pie"), -1);
  EXPECT_EQ(a.compare("app"), 1);
  TVMFFIByteArray bytes{"apple", 5};
  EXPECT_EQ(a.compare(bytes), 0);
}

TEST(StringApi, CompareCountsEmbeddedNulsAndUsesSignedChars) {
  String one(std::string("aaa\0one", 7));
  String two(std::string("aaa\0two", 7));
  EXPECT_EQ(one.compare(two), -1);
  EXPECT_EQ(two.compare(one), 1);
  EXPECT_EQ(one.compare("aaa"), 1);  // the C string stops at its NUL
  String high("\x80");
  EXPECT_EQ(high.compare("a"), -1);  // 0x80 is negative as char
}

TEST(StringApi, OrderingOperatorsWithStdStringAndCString) {
  String b = "b";
  EXPECT_TRUE(b < std::string("c"));
  EXPECT_TRUE(std::string("a") < b);
  EXPECT_TRUE(b > "a");
  EXPECT_TRUE("c" > b);
  EXPECT_TRUE(b <= "b");
  EXPECT_TRUE(b >= std::string("b"));
  EXPECT_TRUE(b == "b");
  EXPECT_TRUE("b" == b);
  EXPECT_TRUE(b != std::string("c"));
}

TEST(StringApi, SplitKeepsEmptyParts) {
  EXPECT_EQ(String("a,b,c").Split(','), (std::vector<std::string_view>{"a", "b", "c"}));
  EXPECT_EQ(String(",a,b,").Split(','), (std::vector<std::string_view>{"", "a", "b", ""}));
  EXPECT_EQ(String("").Split(','), (std::vector<std::string_view>{""}));
  EXPECT_EQ(String("abc").Split(','), (std::vector<std::string_view>{"abc"}));
}

TEST(StringApi, SplitPartsViewTheString) {
  String s = "long enough to be on the heap,x";
  std::vector<std::string_view> parts = s.Split(',');
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].data(), s.data());
}

TEST(StringApi, RvalueStdStringMakesAHeapString) {
  Any b = String(std::string("a1"));
  EXPECT_EQ(b.type_index(), kTVMFFIStr);
  Any a = "a1";
  EXPECT_EQ(a.type_index(), kTVMFFISmallStr);
  Any c = std::string("a1");
  EXPECT_EQ(c.type_index(), kTVMFFIStr);
  EXPECT_EQ(b.cast<String>(), "a1");
}

TEST(StringApi, RvalueStdStringTakesOverTheBuffer) {
  std::string source(100, 'x');
  const char* buffer = source.data();
  String s(std::move(source));
  EXPECT_EQ(s.data(), buffer);
  EXPECT_EQ(s.size(), 100u);
  EXPECT_EQ(s.c_str()[100], '\0');
}

TEST(StringApi, LvalueStdStringStaysSmall) {
  std::string source = "ab";
  Any a = String(source);
  EXPECT_EQ(a.type_index(), kTVMFFISmallStr);
}

TEST(StringApi, ByteArrayConstructor) {
  TVMFFIByteArray bytes{"abc", 3};
  String s(bytes);
  EXPECT_EQ(s, "abc");
  EXPECT_EQ(ffi::ToStringView(bytes), "abc");
}

TEST(BytesApi, ImplicitConstructors) {
  std::string text = "bytes";
  Bytes from_string = text;
  EXPECT_EQ(from_string.size(), 5u);
  TVMFFIByteArray array{"xy", 2};
  Bytes from_array = array;
  EXPECT_EQ(std::string(from_array), "xy");
  Bytes assigned;
  assigned = std::string("zz");
  EXPECT_EQ(std::string(assigned), "zz");
}

TEST(BytesApi, RvalueStdStringMakesHeapBytes) {
  Any b = Bytes(std::string("a1"));
  EXPECT_EQ(b.type_index(), kTVMFFIBytes);
  Any small = Bytes("a1", 2);
  EXPECT_EQ(small.type_index(), kTVMFFISmallBytes);
}

TEST(BytesApi, MemncmpAndMemequal) {
  EXPECT_EQ(Bytes::memncmp("abc", "abd", 3, 3), -1);
  EXPECT_EQ(Bytes::memncmp("abd", "abc", 3, 3), 1);
  EXPECT_EQ(Bytes::memncmp("ab", "abc", 2, 3), -1);
  EXPECT_EQ(Bytes::memncmp("abc", "ab", 3, 2), 1);
  EXPECT_EQ(Bytes::memncmp("abc", "abc", 3, 3), 0);
  EXPECT_TRUE(Bytes::memequal("abc", "abc", 3, 3));
  EXPECT_FALSE(Bytes::memequal("abc", "abc", 3, 2));
  EXPECT_FALSE(Bytes::memequal("abc", "abd", 3, 3));
}

TEST(StringEscape, JsonEscapesQuotesSlashesAndControls) {
  EXPECT_EQ(ffi::EscapeStringJSON("plain"), "\"plain\"");
  EXPECT_EQ(ffi::EscapeStringJSON("a\"b\\c/d"), "\"a\\\"b\\\\c\\/d\"");
  EXPECT_EQ(ffi::EscapeStringJSON("\b\f\n\r\t"), "\"\\b\\f\\n\\r\\t\"");
  EXPECT_EQ(ffi::EscapeStringJSON(String(std::string("\x01\x1f\x7f", 3))),
            "\"\\u0001\\u001f\\u007f\"");
  EXPECT_EQ(ffi::EscapeStringJSON("\xc3\xa9"), "\"\xc3\xa9\"");
}

TEST(StringEscape, PythonStyleEscapes) {
  EXPECT_EQ(ffi::EscapedStringPy("a\nb\tc\rd\\e\"f"), "\"a\\nb\\tc\\rd\\\\e\\\"f\"");
  EXPECT_EQ(ffi::EscapedStringPy(String(std::string("\x01\x7f", 2))), "\"\\x01\\x7f\"");
}

TEST(StringEscape, PythonStyleKeepsAnsiSequences) {
  EXPECT_EQ(ffi::EscapedStringPy("\x1b[31mred\x1b[0m"), "\"\\x1b[31mred\\x1b[0m\"");
  EXPECT_EQ(ffi::EscapedStringPy("\x1b[K"), "\"\\x1b[K\"");
  EXPECT_EQ(ffi::EscapedStringPy("\x1bx"), "\"\\x1bx\"");
}

TEST(StringEscape, PythonStyleEscapesUtf8) {
  EXPECT_EQ(ffi::EscapedStringPy("\xc3\xa9"), "\"\\u00e9\"");              // é
  EXPECT_EQ(ffi::EscapedStringPy("\xe2\x82\xac"), "\"\\u20ac\"");          // €
  EXPECT_EQ(ffi::EscapedStringPy("\xf0\x9f\x98\x80"), "\"\\U0001f600\"");  // 😀
  EXPECT_EQ(ffi::EscapedStringPy("\xff"), "\"\\xff\"");
  EXPECT_EQ(ffi::EscapedStringPy("\xc3"), "\"\\xc3\"");
}

}  // namespace
