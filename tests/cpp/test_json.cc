// Tests of the JSON parser and printer (tvm/ffi/extra/json.h): value kinds,
// extensions (NaN, Infinity, lenient numbers), escapes, error messages with
// line/column/char, printing rules for floats, strings and indentation, and
// deep nesting without native recursion.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/extra/json.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "testing_helpers.h"

namespace {

namespace ffi = tvm::ffi;
namespace json = tvm::ffi::json;
using ffi::Any;
using AnyMap = tvm::ffi::Map<Any, Any>;
using ffi::Array;
using ffi::Map;
using ffi::String;
using tvm_ffi_testing::ErrorMessage;
using tvm_ffi_testing::RunWithSmallStack;

std::string ParseError(const std::string& text) {
  return ErrorMessage([&] { json::Parse(String(text)); }, "ValueError");
}

std::string Round(const std::string& text) { return json::Stringify(json::Parse(String(text))); }

TEST(JSONParse, ScalarsHaveTheirFFITypes) {
  EXPECT_EQ(json::Parse("null").type_index(), kTVMFFINone);
  EXPECT_EQ(json::Parse("true").cast<bool>(), true);
  EXPECT_EQ(json::Parse(" false ").cast<bool>(), false);
  EXPECT_EQ(json::Parse("-42").type_index(), kTVMFFIInt);
  EXPECT_EQ(json::Parse("-42").cast<int64_t>(), -42);
  EXPECT_EQ(json::Parse("2.5").type_index(), kTVMFFIFloat);
  EXPECT_EQ(json::Parse("1e3").type_index(), kTVMFFIFloat);
  EXPECT_EQ(json::Parse("1E3").cast<double>(), 1000.0);
  EXPECT_EQ(json::Parse("\"hi\"").cast<String>(), "hi");
}

TEST(JSONParse, IntegerBeyondInt64IsFloat) {
  Any v = json::Parse("9223372036854775808");
  EXPECT_EQ(v.type_index(), kTVMFFIFloat);
  EXPECT_EQ(v.cast<double>(), 9223372036854775808.0);
  EXPECT_EQ(json::Parse("9223372036854775807").cast<int64_t>(), INT64_MAX);
  EXPECT_EQ(json::Parse("-9223372036854775808").cast<int64_t>(), INT64_MIN);
}

TEST(JSONParse, AcceptsNaNInfinityAndLenientNumbers) {
  EXPECT_TRUE(std::isnan(json::Parse("NaN").cast<double>()));
  EXPECT_EQ(json::Parse("Infinity").cast<double>(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(json::Parse("-Infinity").cast<double>(), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(json::Parse("+1").cast<int64_t>(), 1);
  EXPECT_EQ(json::Parse("01").cast<int64_t>(), 1);
  EXPECT_EQ(json::Parse(".5").cast<double>(), 0.5);
  EXPECT_EQ(json::Parse("1.").cast<double>(), 1.0);
}

TEST(JSONParse, ObjectKeepsInsertionOrderAndLastDuplicate) {
  Map<Any, Any> m = json::Parse(R"({"b": 1, "a": [1, 2.5, null], "b": 3})").cast<AnyMap>();
  ASSERT_EQ(m.size(), 2u);
  auto it = m.begin();
  EXPECT_EQ((*it).first.cast<String>(), "b");
  EXPECT_EQ((*it).second.cast<int64_t>(), 3);
  ++it;
  EXPECT_EQ((*it).first.cast<String>(), "a");
  Array<Any> a = (*it).second.cast<Array<Any>>();
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0].cast<int64_t>(), 1);
  EXPECT_EQ(a[1].cast<double>(), 2.5);
  EXPECT_EQ(a[2].type_index(), kTVMFFINone);
}

TEST(JSONParse, EmptyContainers) {
  EXPECT_EQ(json::Parse("[]").cast<Array<Any>>().size(), 0u);
  EXPECT_EQ(json::Parse("{ }").cast<AnyMap>().size(), 0u);
  EXPECT_EQ(json::Parse("[[],{}]").cast<Array<Any>>().size(), 2u);
}

TEST(JSONParse, StringEscapesAndUnicode) {
  EXPECT_EQ(json::Parse(R"("\" \\ \/ \b \f \n \r \t")").cast<String>(),
            std::string("\" \\ / \b \f \n \r \t"));
  EXPECT_EQ(json::Parse(R"("\u00e9\u4e2d")").cast<String>(), "\xc3\xa9\xe4\xb8\xad");
  // A surrogate pair is one code point (U+1F600), four UTF-8 bytes.
  EXPECT_EQ(json::Parse(R"("\ud83d\ude00")").cast<String>(), "\xf0\x9f\x98\x80");
  // Bytes >= 0x80 pass through as they are.
  EXPECT_EQ(json::Parse("\"\xc3\xa9\"").cast<String>(), "\xc3\xa9");
}

TEST(JSONParse, ErrorsNameWhatLineColumnAndChar) {
  EXPECT_EQ(ParseError("[1,2,]"), "Expecting value: line 1 column 6 (char 5)");
  EXPECT_EQ(ParseError("1 2"), "Extra data: line 1 column 3 (char 2)");
  EXPECT_EQ(ParseError(R"("\q")"), "Invalid \\escape: line 1 column 3 (char 2)");
  EXPECT_EQ(ParseError(""), "Expecting value: line 1 column 1 (char 0)");
  EXPECT_EQ(ParseError("{1: 2}"),
            "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)");
  EXPECT_EQ(ParseError(R"({"a" 2})"), "Expecting ':' delimiter: line 1 column 6 (char 5)");
  EXPECT_EQ(ParseError("[1 2]"), "Expecting ',' delimiter: line 1 column 4 (char 3)");
  EXPECT_EQ(ParseError("[\n  \"abc"), "Unterminated string starting at: line 2 column 3 (char 4)");
  EXPECT_EQ(ParseError("\"a\x01\""), "Invalid control character at: line 1 column 3 (char 2)");
  EXPECT_EQ(ParseError(R"("\u12G4")"), "Invalid \\uXXXX escape: line 1 column 3 (char 2)");
  EXPECT_EQ(ParseError(R"("\ud83d")"),
            "Invalid surrogate pair of \\uXXXX escapes: line 1 column 3 (char 2)");
  EXPECT_EQ(ParseError(R"("\ud83d\u0041")"),
            "Invalid surrogate pair of \\uXXXX escapes: line 1 column 10 (char 9)");
  EXPECT_EQ(ParseError(R"("\ud83d\u12")"), "Invalid \\uXXXX escape: line 1 column 10 (char 9)");
  EXPECT_EQ(ParseError("\"\\"), "Invalid \\escape: line 1 column 3 (char 2)");
  EXPECT_EQ(ParseError("tru"), "Expecting value: line 1 column 1 (char 0)");
  EXPECT_EQ(ParseError("[1\n,\n2"), "Expecting ',' delimiter: line 3 column 2 (char 6)");
}

TEST(JSONParse, TextEndingAfterACommaIsSyntaxError) {
  EXPECT_EQ(ParseError("[1,"), "Syntax error near: line 1 column 4 (char 3)");
  EXPECT_EQ(ParseError(" [1, "), "Syntax error near: line 1 column 6 (char 5)");
  EXPECT_EQ(ParseError(R"({"a":1,)"), "Syntax error near: line 1 column 8 (char 7)");
  EXPECT_EQ(ParseError("["), "Expecting value: line 1 column 2 (char 1)");
}

TEST(JSONParse, MalformedOrOutOfRangeNumbersAreExpectingValue) {
  for (const char* text :
       {"-", "+", ".", "1e", "1-2", "--1", "1.5.5", "-NaN", "+Infinity", "1e400", "1e-400"}) {
    EXPECT_EQ(ParseError(text), "Expecting value: line 1 column 1 (char 0)") << text;
  }
  EXPECT_EQ(ParseError("[1,-]"), "Expecting value: line 1 column 4 (char 3)");
  EXPECT_EQ(ParseError("0x1"), "Extra data: line 1 column 2 (char 1)");
  EXPECT_EQ(json::Parse("99999999999999999999").cast<double>(), 1e20);
}

TEST(JSONParse, ErrorMessageOutParameterInsteadOfThrowing) {
  String msg;
  Any v = json::Parse("[1,]", &msg);
  EXPECT_EQ(v.type_index(), kTVMFFINone);
  EXPECT_EQ(msg, "Expecting value: line 1 column 4 (char 3)");
  String untouched("keep");
  EXPECT_EQ(json::Parse("7", &untouched).cast<int64_t>(), 7);
  EXPECT_EQ(untouched, "keep");
}

TEST(JSONParse, DeepNestingNeedsNoNativeRecursion) {
  const int depth = 5000;
  std::string text(depth, '[');
  text += std::string(depth, ']');
  Any v;
  std::string printed;
  // Parse and print stay within a small stack; the value is freed on the main thread.
  RunWithSmallStack([&] {
    v = json::Parse(String(text));
    printed = json::Stringify(v);
  });
  EXPECT_EQ(v.type_index(), kTVMFFIArray);
  EXPECT_EQ(printed, text);
}

TEST(JSONStringify, CompactScalarsAndContainers) {
  EXPECT_EQ(json::Stringify(Any(nullptr)), "null");
  EXPECT_EQ(json::Stringify(true), "true");
  EXPECT_EQ(json::Stringify(-7), "-7");
  EXPECT_EQ(Round(R"({"a": [1, 2.5, null, "x"], "b": {}})"), R"({"a":[1,2.5,null,"x"],"b":{}})");
}

TEST(JSONStringify, FloatFormats) {
  EXPECT_EQ(json::Stringify(1.0), "1.0");
  EXPECT_EQ(json::Stringify(-0.0), "-0.0");
  EXPECT_EQ(json::Stringify(100.0), "100.0");
  EXPECT_EQ(json::Stringify(0.1), "0.10000000000000001");
  EXPECT_EQ(json::Stringify(1e20), "1e+20");
  EXPECT_EQ(json::Stringify(1e-7), "9.9999999999999995e-08");
  EXPECT_EQ(json::Stringify(9007199254740992.0), "9007199254740992");
  EXPECT_EQ(json::Stringify(std::nan("")), "NaN");
  EXPECT_EQ(json::Stringify(std::numeric_limits<double>::infinity()), "Infinity");
  EXPECT_EQ(json::Stringify(-std::numeric_limits<double>::infinity()), "-Infinity");
}

TEST(JSONStringify, StringEscapes) {
  EXPECT_EQ(json::Stringify(String("a\"b\\c/\b\f\n\r\t")), R"("a\"b\\c\/\b\f\n\r\t")");
  EXPECT_EQ(json::Stringify(String(std::string("\x01\x1f\x7f", 3))), R"("\u0001\u001f\u007f")");
  EXPECT_EQ(json::Stringify(String("\xc3\xa9")), "\"\xc3\xa9\"");
  // Small (inline) and heap strings print alike.
  EXPECT_EQ(json::Stringify(String(std::string(100, 'x'))), "\"" + std::string(100, 'x') + "\"");
}

TEST(JSONStringify, ListsPrintAsArrays) {
  ffi::List<Any> l{1, "a"};
  EXPECT_EQ(json::Stringify(l), R"([1,"a"])");
}

TEST(JSONStringify, IndentPutsItemsOnTheirOwnLines) {
  Any v = json::Parse(R"({"a": [1, {}], "b": []})");
  EXPECT_EQ(json::Stringify(v, 2), "{\n  \"a\": [\n    1,\n    {\n    }\n  ],\n  \"b\": [\n  ]\n}");
  EXPECT_EQ(json::Stringify(v, 0), R"({"a":[1,{}],"b":[]})");
}

TEST(JSONStringify, ListContainingItselfIsValueError) {
  ffi::List<Any> l{1};
  l.push_back(l);
  EXPECT_EQ(ErrorMessage([&] { json::Stringify(l); }, "ValueError"),
            "Cycle detected: List contains itself");
  l.Set(1, nullptr);  // break the cycle so the list can be freed
}

TEST(JSONStringify, SharedListIsNotACycle) {
  ffi::List<Any> inner{1};
  Array<Any> outer{inner, inner};
  EXPECT_EQ(json::Stringify(outer), "[[1],[1]]");
}

TEST(JSONStringify, NonStringKeyIsValueError) {
  Map<Any, Any> m{{Any(1), Any(2)}};
  EXPECT_EQ(ErrorMessage([&] { json::Stringify(m); }, "ValueError"),
            "Expect key to be string, got `int`");
}

TEST(JSONStringify, UnsupportedTypeNamesItsKey) {
  EXPECT_EQ(ErrorMessage([] { json::Stringify(ffi::Bytes("ab", 2)); }, "ValueError"),
            "Unsupported type: `ffi.SmallBytes`");
  EXPECT_EQ(ErrorMessage([] { json::Stringify(ffi::Dict<Any, Any>()); }, "ValueError"),
            "Unsupported type: `ffi.Dict`");
  EXPECT_EQ(ErrorMessage([] { json::Stringify(ffi::Shape({1})); }, "ValueError"),
            "Unsupported type: `ffi.Shape`");
}

TEST(JSONGlobals, ParseAndStringifyAreRegistered) {
  ffi::Function parse = ffi::Function::GetGlobalRequired("ffi.json.Parse");
  ffi::Function stringify = ffi::Function::GetGlobalRequired("ffi.json.Stringify");
  Any v = parse(String("[1, 2]"));
  EXPECT_EQ(stringify(v, nullptr).cast<String>(), "[1,2]");
  EXPECT_EQ(stringify(v, 1).cast<String>(), "[\n 1,\n 2\n]");
  EXPECT_EQ(ErrorMessage([&] { parse(String("[")); }, "ValueError"),
            "Expecting value: line 1 column 2 (char 1)");
}

// Random texts built from JSON tokens and noise: Parse either succeeds and
// re-parses its own output to the same text, or reports a ValueError.
TEST(JSONFuzz, RandomTextsParseOrFailCleanly) {
  static const char* kTokens[] = {
      "[",    "]",    "{",           "}",   ",",           ":",    "\"a\"",    "1",  "-2.5",
      "1e9",  "true", "null",        "NaN", "\"\\u00e9\"", " ",    "\n",       "\"", "\\",
      "\x01", "tru",  "\"\\ud800\"", "+.e", "0x1",         "\xff", "Infinity", "-",  "\"\\q\""};
  std::mt19937 rng(12345);
  int parsed = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    std::string text;
    int n = static_cast<int>(rng() % 12);
    for (int k = 0; k < n; ++k) text += kTokens[rng() % (sizeof(kTokens) / sizeof(kTokens[0]))];
    String err;
    Any v = json::Parse(String(text), &err);
    if (err.empty()) {
      ++parsed;
      std::string once = json::Stringify(v);
      EXPECT_EQ(json::Stringify(json::Parse(String(once))), once) << text;
    } else {
      EXPECT_EQ(v.type_index(), kTVMFFINone);
      EXPECT_NE(std::string(err).find(": line "), std::string::npos) << err;
    }
  }
  EXPECT_GT(parsed, 100);
}

}  // namespace
