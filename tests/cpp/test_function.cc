// Tests of ffi::Function: typed and packed functions, argument conversion and
// mismatch messages, errors crossing safe-call boundaries, TypedFunction,
// the C entry points TVMFFIFunctionCreate / TVMFFIFunctionCall, and that a
// typed call with PODs allocates nothing.
#include <gtest/gtest.h>

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>
#include "testing_helpers.h"

#include <atomic>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

// ---------------------------------------------------------------------------
// Allocation counting. The replaced operators count only while the calling
// thread has opted in, so the rest of the (shared) test binary is unaffected.
// ---------------------------------------------------------------------------
namespace {
thread_local bool g_count_allocs = false;
thread_local int64_t g_num_allocs = 0;

void* CountedAlloc(std::size_t size, std::size_t align) {
  if (g_count_allocs) ++g_num_allocs;
  if (size == 0) size = 1;
  void* p = nullptr;
  if (align <= alignof(std::max_align_t)) {
    p = std::malloc(size);
  } else if (posix_memalign(&p, align, size) != 0) {
    p = nullptr;
  }
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

/*! \brief Counts the heap allocations of this thread while alive. */
class AllocCounter {
 public:
  AllocCounter() {
    g_num_allocs = 0;
    g_count_allocs = true;
  }
  ~AllocCounter() { g_count_allocs = false; }
  int64_t count() const { return g_num_allocs; }
};
}  // namespace

void* operator new(std::size_t size) { return CountedAlloc(size, alignof(std::max_align_t)); }
void* operator new(std::size_t size, std::align_val_t align) {
  return CountedAlloc(size, static_cast<std::size_t>(align));
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace {
namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::AnyView;
using ffi::Function;
using ffi::String;

using tvm_ffi_testing::CatchError;

int64_t Add3(int64_t a, int64_t b, int64_t c) { return a + b + c; }

struct Multiplier {
  int64_t factor;
  int64_t operator()(int64_t x) const { return x * factor; }
};

class TestObj : public ffi::Object {
 public:
  int64_t value = 0;
  explicit TestObj(int64_t v) : value(v) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.function.TestObj", TestObj, ffi::Object);
};
class TestRef : public ffi::ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(TestRef, ffi::ObjectRef, TestObj);
};

// ---------------------------------------------------------------------------
// Construction and calls
// ---------------------------------------------------------------------------
TEST(Function, GuideExamples) {
  Function fadd1 = Function::FromTyped([](const int a) -> int { return a + 1; });
  EXPECT_EQ(fadd1(1).cast<int>(), 2);

  Function fpacked = Function::FromPacked([](const AnyView* args, int32_t num_args, Any* rv) {
    TVM_FFI_ICHECK_EQ(num_args, 1);
    int a = args[0].cast<int>();
    *rv = a + 1;
  });
  EXPECT_EQ(fpacked(1).cast<int>(), 2);

  Function fapply =
      Function::FromTyped([](const Function f, Any param) { return f(param.cast<int>()); });
  EXPECT_EQ(fapply(fadd1, 2).cast<int>(), 3);
}

TEST(Function, CallableKinds) {
  EXPECT_EQ(Function::FromTyped(Add3)(1, 2, 3).cast<int64_t>(), 6);
  EXPECT_EQ(Function::FromTyped(&Add3)(1, 2, 3).cast<int64_t>(), 6);
  EXPECT_EQ(Function::FromTyped(Multiplier{4})(5).cast<int64_t>(), 20);
  std::string captured = "captured";
  Function with_capture =
      Function::FromTyped([captured](int64_t n) { return captured.substr(0, n); });
  EXPECT_EQ(with_capture(3).cast<std::string>(), "cap");
  // A mutable lambda keeps its state across calls.
  Function counter = Function::FromTyped([n = 0]() mutable { return ++n; });
  counter();
  EXPECT_EQ(counter().cast<int>(), 2);
}

TEST(Function, CppCallIsAlwaysNull) {
  Function typed = Function::FromTyped([](int x) { return x; });
  Function packed = Function::FromPacked([](const AnyView*, int32_t, Any*) {});
  EXPECT_EQ(typed->cpp_call, nullptr);
  EXPECT_EQ(packed->cpp_call, nullptr);
  EXPECT_NE(typed->safe_call, nullptr);
  EXPECT_EQ(typed->type_index(), kTVMFFIFunction);
  EXPECT_EQ(typed.GetTypeKey(), "ffi.Function");
  // The cell sits right after the 24-byte header (docs/abi.md §2.4).
  const ffi::FunctionObj* obj = typed.get();
  EXPECT_EQ(reinterpret_cast<const char*>(static_cast<const TVMFFIFunctionCell*>(obj)) -
                reinterpret_cast<const char*>(ffi::detail::ObjectUnsafe::GetHeader(obj)),
            24);
}

TEST(Function, NullFunctionCall) {
  Function f;
  EXPECT_FALSE(f.defined());
  ffi::Error e = CatchError([&] { f(1); });
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(e.message(), "Cannot call a null Function");
}

// ---------------------------------------------------------------------------
// Parameter and return conversions
// ---------------------------------------------------------------------------
TEST(Function, PodParameters) {
  EXPECT_EQ(Function::FromTyped([](int8_t a) { return a; })(-5).cast<int>(), -5);
  EXPECT_EQ(Function::FromTyped([](uint32_t a) { return a; })(7).cast<int64_t>(), 7);
  EXPECT_EQ(Function::FromTyped([](const int64_t& a) { return a * 2; })(21).cast<int64_t>(), 42);
  EXPECT_EQ(Function::FromTyped([](bool b) { return !b; })(true).cast<bool>(), false);
  // bool accepts ints, int accepts bools, float accepts ints.
  EXPECT_EQ(Function::FromTyped([](bool b) { return b; })(3).cast<bool>(), true);
  EXPECT_EQ(Function::FromTyped([](int a) { return a; })(true).cast<int>(), 1);
  EXPECT_DOUBLE_EQ(Function::FromTyped([](double d) { return d / 2; })(3).cast<double>(), 1.5);
  EXPECT_FLOAT_EQ(Function::FromTyped([](float f) { return f; })(0.25).cast<float>(), 0.25f);
  int dummy = 0;
  void* ptr = &dummy;
  EXPECT_EQ(Function::FromTyped([](void* p) { return p; })(ptr).cast<void*>(), ptr);
  EXPECT_EQ(Function::FromTyped([](void* p) { return p == nullptr; })(nullptr).cast<bool>(), true);
  DLDevice dev{kDLCUDA, 3};
  DLDevice dev_out = Function::FromTyped([](DLDevice d) { return d; })(dev).cast<DLDevice>();
  EXPECT_EQ(dev_out.device_type, kDLCUDA);
  EXPECT_EQ(dev_out.device_id, 3);
  DLDataType dtype{kDLFloat, 16, 1};
  DLDataType dt_out = Function::FromTyped([](DLDataType t) { return t; })(dtype).cast<DLDataType>();
  EXPECT_EQ(dt_out.code, kDLFloat);
  EXPECT_EQ(dt_out.bits, 16);
  // A string converts to a dtype.
  DLDataType parsed =
      Function::FromTyped([](DLDataType t) { return t; })("int8").cast<DLDataType>();
  EXPECT_EQ(parsed.code, kDLInt);
  EXPECT_EQ(parsed.bits, 8);
  int64_t shape[1] = {4};
  DLTensor tensor{};
  tensor.ndim = 1;
  tensor.shape = shape;
  EXPECT_EQ(Function::FromTyped([](DLTensor* t) { return t->shape[0]; })(&tensor).cast<int>(), 4);
}

TEST(Function, StringParameters) {
  Function by_string = Function::FromTyped([](String s) { return s.size(); });
  Function by_cref = Function::FromTyped([](const String& s) { return s + "!"; });
  Function by_std = Function::FromTyped([](const std::string& s) { return s + "?"; });
  Function by_bytes =
      Function::FromTyped([](ffi::Bytes b) { return static_cast<int64_t>(b.size()); });
  std::string long_text = "a string well beyond the small-string limit";
  EXPECT_EQ(by_string("abc").cast<int64_t>(), 3);
  EXPECT_EQ(by_string(String(long_text)).cast<size_t>(), long_text.size());
  EXPECT_EQ(by_string(long_text).cast<size_t>(), long_text.size());
  EXPECT_EQ(by_cref("hi").cast<String>(), "hi!");
  EXPECT_EQ(by_cref(String("hi")).cast<String>(), "hi!");
  EXPECT_EQ(by_std("hi").cast<std::string>(), "hi?");
  EXPECT_EQ(by_std(String(long_text)).cast<std::string>(), long_text + "?");
  EXPECT_EQ(by_std(std::string("x")).cast<std::string>(), "x?");
  EXPECT_EQ(by_bytes(ffi::Bytes(std::string("\0\1\2", 3))).cast<int64_t>(), 3);
  // A returned std::string becomes an owned String.
  Any result = by_std(long_text);
  EXPECT_EQ(result.type_index(), kTVMFFIStr);
}

TEST(Function, ObjectParameters) {
  TestRef ref(ffi::make_object<TestObj>(41));
  Function by_ref = Function::FromTyped([](const TestRef& r) { return r->value + 1; });
  Function by_ptr = Function::FromTyped([](ffi::ObjectPtr<TestObj> p) { return p == nullptr; });
  Function by_arc = Function::FromTyped([](ffi::Arc<TestObj> p) { return p->value; });
  Function by_base = Function::FromTyped([](ffi::ObjectRef r) { return r.defined(); });
  EXPECT_EQ(by_ref(ref).cast<int64_t>(), 42);
  EXPECT_EQ(by_ptr(nullptr).cast<bool>(), true);
  EXPECT_EQ(by_ptr(ref).cast<bool>(), false);
  EXPECT_EQ(by_arc(ref).cast<int64_t>(), 41);
  EXPECT_EQ(by_base(ref).cast<bool>(), true);
  EXPECT_EQ(by_base(nullptr).cast<bool>(), false);
  // The callee holds its own reference while running; none leaks afterwards.
  EXPECT_EQ(ref.use_count(), 1);
  // Returned objects come back with the right count.
  Function make =
      Function::FromTyped([](int64_t v) { return TestRef(ffi::make_object<TestObj>(v)); });
  TestRef made = make(7).cast<TestRef>();
  EXPECT_EQ(made->value, 7);
  EXPECT_EQ(made.use_count(), 1);
}

TEST(Function, AnyParameters) {
  Function by_any = Function::FromTyped([](Any a) { return a; });
  Function by_view = Function::FromTyped([](AnyView v) { return v.type_index(); });
  Function by_cany = Function::FromTyped([](const Any& a) { return a.type_index(); });
  EXPECT_EQ(by_any(5).cast<int>(), 5);
  EXPECT_EQ(by_any("text").cast<String>(), "text");
  EXPECT_TRUE(by_any(nullptr).is_none());
  EXPECT_EQ(by_view(1.5).cast<int32_t>(), kTVMFFIFloat);
  EXPECT_EQ(by_cany(true).cast<int32_t>(), kTVMFFIBool);
  // A returned AnyView holding a borrowed string becomes an owned String.
  Function view_ret = Function::FromTyped([](AnyView v) { return v; });
  std::string text = "borrowed text beyond the small size";
  Any out = view_ret(text);
  EXPECT_EQ(out.type_index(), kTVMFFIStr);
  EXPECT_EQ(out.cast<std::string>(), text);
}

TEST(Function, ContainerAndOptionalParameters) {
  Function head = Function::FromTyped([](const ffi::Array<int> a) { return a[0]; });
  ffi::Array<int> numbers = {1, 2, 3};
  EXPECT_EQ(head(numbers).cast<int>(), 1);
  Function opt = Function::FromTyped(
      [](ffi::Optional<int64_t> x) { return x.has_value() ? x.value() : int64_t{-1}; });
  EXPECT_EQ(opt(nullptr).cast<int64_t>(), -1);
  EXPECT_EQ(opt(9).cast<int64_t>(), 9);
  Function opt_ret = Function::FromTyped([](bool some) -> ffi::Optional<String> {
    if (some) return String("yes");
    return std::nullopt;
  });
  EXPECT_EQ(opt_ret(true).cast<String>(), "yes");
  EXPECT_TRUE(opt_ret(false).is_none());
}

TEST(Function, ReturnTypes) {
  Any none = Function::FromTyped([](int) {})(1);
  EXPECT_TRUE(none.is_none());
  EXPECT_EQ(Function::FromTyped([]() { return 1.25; })().cast<double>(), 1.25);
  EXPECT_EQ(Function::FromTyped([]() { return String("s"); })().cast<String>(), "s");
  EXPECT_EQ(Function::FromTyped([]() { return Any(3); })().cast<int>(), 3);
  // A function returning a function (closure) that keeps its capture alive.
  Function make_adder = Function::FromTyped(
      [](int64_t base) { return Function::FromTyped([base](int64_t x) { return base + x; }); });
  Function add10 = make_adder(10).cast<Function>();
  EXPECT_EQ(add10(5).cast<int64_t>(), 15);
}

TEST(Function, FunctionsAreValues) {
  Function f = Function::FromTyped([](int x) { return x * 3; });
  Any stored = f;
  EXPECT_EQ(stored.type_index(), kTVMFFIFunction);
  EXPECT_EQ(f.use_count(), 2);
  Function back = stored.cast<Function>();
  EXPECT_TRUE(back.same_as(f));
  EXPECT_EQ(back(2).cast<int>(), 6);
  ffi::Array<Function> funcs = {f, back};
  EXPECT_EQ(funcs[1](4).cast<int>(), 12);
  ffi::Array<Any> mixed = {f, 1};
  EXPECT_EQ(mixed[0].cast<Function>()(1).cast<int>(), 3);
}

// ---------------------------------------------------------------------------
// Mismatch messages
// ---------------------------------------------------------------------------
TEST(Function, MismatchedArgumentType) {
  Function add = Function::FromTyped([](int a, int b) { return a + b; }, "add");
  ffi::Error e = CatchError([&] { add(1, "x"); });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_EQ(e.message(),
            "Mismatched type on argument #1 when calling: `add(0: int, 1: int) -> int`. "
            "Expected `int` but got `const char*`");
  // The first bad argument is the one reported.
  e = CatchError([&] { add(1.5, "x"); });
  EXPECT_EQ(e.message(),
            "Mismatched type on argument #0 when calling: `add(0: int, 1: int) -> int`. "
            "Expected `int` but got `float`");
}

TEST(Function, MismatchedArgumentCount) {
  Function add = Function::FromTyped([](int a, int b) { return a + b; }, "add");
  ffi::Error e = CatchError([&] { add(1); });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_EQ(e.message(),
            "Mismatched number of arguments when calling: `add(0: int, 1: int) -> int`. "
            "Expected 2 but got 1 arguments");
  e = CatchError([&] { add(1, 2, 3); });
  EXPECT_EQ(e.message(),
            "Mismatched number of arguments when calling: `add(0: int, 1: int) -> int`. "
            "Expected 2 but got 3 arguments");
}

TEST(Function, MismatchMessagesOfEachKind) {
  Function anon = Function::FromTyped([](int a) { return a; });
  EXPECT_EQ(CatchError([&] { anon("s"); }).message(),
            "Mismatched type on argument #0 when calling: `(0: int) -> int`. "
            "Expected `int` but got `const char*`");
  Function f_str = Function::FromTyped([](String s) {}, "f");
  EXPECT_EQ(CatchError([&] { f_str(1); }).message(),
            "Mismatched type on argument #0 when calling: `f(0: str) -> void`. "
            "Expected `str` but got `int`");
  Function f_u8 = Function::FromTyped([](uint8_t v) { return v; }, "f");
  EXPECT_EQ(f_u8(300).cast<int>(), 44);  // narrowing is a plain static_cast (cpp_api.md §2.1)
  Function f_obj = Function::FromTyped([](TestRef r) {}, "f");
  EXPECT_EQ(CatchError([&] { f_obj(Function::FromTyped([]() {})); }).message(),
            "Mismatched type on argument #0 when calling: `f(0: test.function.TestObj) -> void`. "
            "Expected `test.function.TestObj` but got `ffi.Function`");
  Function f_fn = Function::FromTyped([](Function g) {}, "f");
  EXPECT_EQ(CatchError([&] { f_fn(2.5); }).message(),
            "Mismatched type on argument #0 when calling: `f(0: ffi.Function) -> void`. "
            "Expected `ffi.Function` but got `float`");
  Function f_arc = Function::FromTyped([](ffi::Arc<TestObj> p) {}, "f");
  EXPECT_EQ(CatchError([&] { f_arc(nullptr); }).message(),
            "Mismatched type on argument #0 when calling: `f(0: test.function.TestObj) -> void`. "
            "Expected `test.function.TestObj` but got `None`");
  Function f_opt = Function::FromTyped([](ffi::Optional<int> v) {}, "f");
  EXPECT_EQ(CatchError([&] { f_opt("s"); }).message(),
            "Mismatched type on argument #0 when calling: `f(0: Optional<int>) -> void`. "
            "Expected `Optional<int>` but got `const char*`");
  Function f_dtype = Function::FromTyped([](DLDataType t) {}, "f");
  EXPECT_EQ(CatchError([&] { f_dtype(1); }).message(),
            "Mismatched type on argument #0 when calling: `f(0: DataType) -> void`. "
            "Expected `DataType` but got `int`");
  Function f_dev = Function::FromTyped([](DLDevice d) {}, "f");
  EXPECT_EQ(CatchError([&] { f_dev(nullptr); }).message(),
            "Mismatched type on argument #0 when calling: `f(0: Device) -> void`. "
            "Expected `Device` but got `None`");
}

TEST(Function, MismatchReportsContainerElement) {
  Function head = Function::FromTyped([](const ffi::Array<int> a) { return a[0]; }, "head");
  ffi::Error e = CatchError([&] { head(ffi::Array<Any>({1, 2.2})); });
  EXPECT_EQ(e.kind(), "TypeError");
  // The "got" side comes from the container's own traits, which name the element.
  EXPECT_EQ(e.message(),
            "Mismatched type on argument #0 when calling: `head(0: Array<int>) -> int`. "
            "Expected `Array<int>` but got `Array[index 1: float]`");
}

// ---------------------------------------------------------------------------
// Signatures and schemas
// ---------------------------------------------------------------------------
TEST(Function, SignatureAndSchema) {
  using Sig = ffi::detail::FuncSignature<decltype(&Add3)>;
  EXPECT_EQ(Sig::Sig(), "(0: int, 1: int, 2: int) -> int");
  EXPECT_EQ(Sig::Schema(), R"({"type":"ffi.Function","named_args":{"return":[{"type":"int"}],)"
                           R"("params":[{"type":"int"},{"type":"int"},{"type":"int"}]}})");
  auto lambda = [](const String&, ffi::Array<double>, Any) {};
  using LSig = ffi::detail::FuncSignature<decltype(lambda)>;
  EXPECT_EQ(LSig::Sig(), "(0: str, 1: Array<float>, 2: Any) -> void");
  EXPECT_EQ(LSig::Schema(),
            R"({"type":"ffi.Function","named_args":{"return":[{"type":"None"}],)"
            R"("params":[{"type":"ffi.String"},{"type":"ffi.Array","args":[{"type":"float"}]},)"
            R"({"type":"Any"}]}})");
  EXPECT_EQ(ffi::detail::FuncMetadataOf<decltype(&Add3)>(),
            R"({"type_schema": "{\"type\":\"ffi.Function\",\"named_args\":{\"return\":)"
            R"([{\"type\":\"int\"}],\"params\":[{\"type\":\"int\"},{\"type\":\"int\"},)"
            R"({\"type\":\"int\"}]}}"})");
  EXPECT_EQ(ffi::TypeTraits<ffi::TypedFunction<int(String)>>::TypeSchema(),
            R"({"type":"ffi.Function","named_args":{"return":[{"type":"int"}],)"
            R"("params":[{"type":"ffi.String"}]}})");
  EXPECT_EQ(ffi::TypeTraits<Function>::TypeStr(), "ffi.Function");
  EXPECT_EQ(ffi::TypeTraits<Function>::TypeSchema(), R"({"type":"ffi.Function"})");
}

// ---------------------------------------------------------------------------
// Errors across boundaries
// ---------------------------------------------------------------------------
TEST(Function, ErrorKindsCrossTheBoundary) {
  Function ffi_error =
      Function::FromTyped([]() { TVM_FFI_THROW(IndexError) << "bad index " << 3; });
  ffi::Error e = CatchError([&] { ffi_error(); });
  EXPECT_EQ(e.kind(), "IndexError");
  EXPECT_EQ(e.message(), "bad index 3");

  Function std_error = Function::FromTyped([]() { throw std::invalid_argument("std failure"); });
  e = CatchError([&] { std_error(); });
  EXPECT_EQ(e.kind(), "InternalError");
  EXPECT_EQ(e.message(), "std failure");

  Function unknown = Function::FromPacked([](const AnyView*, int32_t, Any*) { throw 42; });
  e = CatchError([&] { unknown(); });
  EXPECT_EQ(e.kind(), "InternalError");
  EXPECT_EQ(e.message(), "unknown C++ exception");

  // The error is a value too: a packed function may return it without raising.
  Function returns_error =
      Function::FromTyped([]() { return ffi::Error("ValueError", "as value"); });
  Any err_value = returns_error();
  EXPECT_EQ(err_value.type_index(), kTVMFFIError);
  EXPECT_EQ(err_value.cast<ffi::Error>().message(), "as value");
}

TEST(Function, ErrorsThroughNestedCallsKeepKindAndMessage) {
  Function inner = Function::FromTyped([](int x) -> int {
    if (x >= 0) TVM_FFI_THROW(ValueError) << "inner failed on " << x;
    return x;
  });
  Function middle = Function::FromTyped([inner](int x) { return inner(x + 1).cast<int>(); });
  Function outer = Function::FromTyped([middle](int x) { return middle(x + 1).cast<int>(); });
  ffi::Error e = CatchError([&] { outer(1); });
  EXPECT_EQ(e.kind(), "ValueError");
  EXPECT_EQ(e.message(), "inner failed on 3");
  // A C++ handler in the middle sees the ffi::Error and may rethrow it.
  Function catcher = Function::FromTyped([inner]() -> String {
    try {
      inner(0);
    } catch (const ffi::Error& err) {
      return String(err.kind());
    }
    return String("none");
  });
  EXPECT_EQ(catcher().cast<String>(), "ValueError");
}

int CountLines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

/*! \brief Sets an environment variable for the scope of a test. */
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    const char* old = std::getenv(name);
    had_ = old != nullptr;
    if (had_) old_ = old;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (had_) {
      setenv(name_, old_.c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  bool had_;
  std::string old_;
};

TEST(Function, BacktraceGrowsAtEachBoundary) {
  // Only the throw site is recorded natively, so the frames counted below are
  // exactly the ones added where the error re-entered C++.
  ScopedEnv env("TVM_FFI_BACKTRACE", "0");
  Function inner = Function::FromTyped([]() { TVM_FFI_THROW(RuntimeError) << "deep"; });
  Function middle = Function::FromTyped([inner]() { inner(); });
  Function outer = Function::FromTyped([middle]() { middle(); });

  std::string bt_direct;
  try {
    TVM_FFI_THROW(RuntimeError) << "no boundary";
  } catch (const ffi::Error& e) {
    bt_direct = e.backtrace();
  }
  std::string bt1 = CatchError([&] { inner(); }).backtrace();
  std::string bt3 = CatchError([&] { outer(); }).backtrace();
  EXPECT_EQ(CountLines(bt_direct), 1) << bt_direct;
  EXPECT_EQ(CountLines(bt1), 2) << bt1;
  EXPECT_EQ(CountLines(bt3), 4) << bt3;
  // The first frame is the throw site; the added ones name the call machinery.
  EXPECT_NE(bt3.find("test_function.cc"), std::string::npos) << bt3;
  EXPECT_NE(bt3.rfind("function.h"), std::string::npos) << bt3;
  // In Python order the throw site comes last.
  ffi::Error e = CatchError([&] { outer(); });
  std::string traceback = e.TracebackMostRecentCallLast();
  EXPECT_NE(traceback.rfind("test_function.cc"), std::string::npos);
  EXPECT_GT(traceback.rfind("test_function.cc"), traceback.find("function.h"));
}

TEST(Function, BacktraceWithNativeFrames) {
  Function inner = Function::FromTyped([]() { TVM_FFI_THROW(RuntimeError) << "deep"; });
  Function outer = Function::FromTyped([inner]() { inner(); });
  std::string bt1 = CatchError([&] { inner(); }).backtrace();
  std::string bt2 = CatchError([&] { outer(); }).backtrace();
  EXPECT_GT(CountLines(bt1), 1) << bt1;
  EXPECT_GT(CountLines(bt2), CountLines(bt1)) << bt2;
}

// ---------------------------------------------------------------------------
// TypedFunction
// ---------------------------------------------------------------------------
TEST(Function, TypedFunction) {
  ffi::TypedFunction<int(int, int)> add = [](int a, int b) { return a + b; };
  EXPECT_EQ(add(2, 3), 5);
  ffi::TypedFunction<String(String)> greet(
      [](const String& s) { return "hello " + std::string(s); }, "greet");
  EXPECT_EQ(greet("you"), "hello you");
  // From an untyped Function; a result of the wrong type raises TypeError.
  Function untyped = Function::FromTyped([](int x) { return String(std::to_string(x)); });
  ffi::TypedFunction<String(int)> as_string = untyped;
  EXPECT_EQ(as_string(12), "12");
  ffi::TypedFunction<int(int)> wrong = untyped;
  ffi::Error e = CatchError([&] { wrong(1); });
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_EQ(e.message(), "Cannot convert from type `ffi.String` to `int`");
  // Argument conversions happen at the typed signature.
  ffi::TypedFunction<double(double)> half = [](double x) { return x / 2; };
  EXPECT_DOUBLE_EQ(half(3), 1.5);
  // void result, and a default-constructed handle is null.
  int calls = 0;
  ffi::TypedFunction<void(int)> side = [&calls](int n) { calls += n; };
  side(4);
  EXPECT_EQ(calls, 4);
  ffi::TypedFunction<void()> empty;
  EXPECT_TRUE(empty == nullptr);
  EXPECT_FALSE(empty.defined());
}

TEST(Function, TypedFunctionAsValue) {
  ffi::TypedFunction<int(int)> twice = [](int x) { return 2 * x; };
  Any stored = twice;
  EXPECT_EQ(stored.type_index(), kTVMFFIFunction);
  auto back = stored.cast<ffi::TypedFunction<int(int)>>();
  EXPECT_EQ(back(21), 42);
  // As a parameter and a return value of typed functions.
  Function apply =
      Function::FromTyped([](ffi::TypedFunction<int(int)> f, int x) { return f(x) + 1; }, "apply");
  EXPECT_EQ(apply(twice, 5).cast<int>(), 11);
  EXPECT_EQ(CatchError([&] { apply(1, 5); }).message(),
            "Mismatched type on argument #0 when calling: `apply(0: (0: int) -> int, 1: int) -> "
            "int`. Expected `(0: int) -> int` but got `int`");
  Function maker = Function::FromTyped(
      []() -> ffi::TypedFunction<int(int)> { return [](int x) { return x - 1; }; });
  EXPECT_EQ(maker().cast<ffi::TypedFunction<int(int)>>()(10), 9);
  Function packed = twice;
  EXPECT_EQ(packed(3).cast<int>(), 6);
}

// ---------------------------------------------------------------------------
// C entry points
// ---------------------------------------------------------------------------
struct CState {
  int calls = 0;
  int deleted = 0;
  void* seen_handle = nullptr;
};

int CSafeCall(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  CState* state = static_cast<CState*>(self);
  state->seen_handle = self;
  ++state->calls;
  if (num_args != 1 || args[0].type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "CSafeCall expects one int");
    return -1;
  }
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = args[0].v_int64 * 10;
  return 0;
}

void CDeleter(void* self) { ++static_cast<CState*>(self)->deleted; }

TEST(Function, FromExternC) {
  CState state;
  {
    Function f = Function::FromExternC(&state, CSafeCall, CDeleter);
    EXPECT_EQ(f->cpp_call, nullptr);
    EXPECT_EQ(f(4).cast<int>(), 40);
    EXPECT_EQ(state.seen_handle, &state);
    ffi::Error e = CatchError([&] { f("no"); });
    EXPECT_EQ(e.kind(), "TypeError");
    EXPECT_EQ(e.message(), "CSafeCall expects one int");
    EXPECT_EQ(state.deleted, 0);
  }
  EXPECT_EQ(state.calls, 2);
  EXPECT_EQ(state.deleted, 1);
  // A NULL deleter is allowed.
  CState other;
  Function g = Function::FromExternC(&other, CSafeCall, nullptr);
  EXPECT_EQ(g(1).cast<int>(), 10);
}

TEST(Function, CreateAndCallThroughCApi) {
  CState state;
  TVMFFIObjectHandle handle = nullptr;
  ASSERT_EQ(TVMFFIFunctionCreate(&state, CSafeCall, CDeleter, &handle), 0);
  ASSERT_NE(handle, nullptr);
  EXPECT_EQ(static_cast<TVMFFIObject*>(handle)->type_index, kTVMFFIFunction);
  TVMFFIAny arg;
  arg.type_index = kTVMFFIInt;
  arg.zero_padding = 0;
  arg.v_int64 = 7;
  TVMFFIAny result;
  result.type_index = kTVMFFINone;
  result.zero_padding = 0;
  result.v_int64 = 0;
  ASSERT_EQ(TVMFFIFunctionCall(handle, &arg, 1, &result), 0);
  EXPECT_EQ(result.type_index, kTVMFFIInt);
  EXPECT_EQ(result.v_int64, 70);
  ASSERT_EQ(TVMFFIObjectDecRef(handle), 0);
  EXPECT_EQ(state.deleted, 1);

  // A C++ function called through the C ABI, with an error coming back.
  Function typed = Function::FromTyped([](int64_t a, int64_t b) { return a - b; }, "sub");
  TVMFFIAny args[2];
  AnyView v0(int64_t{9}), v1(int64_t{4});
  args[0] = v0.CopyToTVMFFIAny();
  args[1] = v1.CopyToTVMFFIAny();
  TVMFFIObjectHandle th = ffi::detail::ObjectUnsafe::GetHeader(typed.get());
  ASSERT_EQ(TVMFFIFunctionCall(th, args, 2, &result), 0);
  EXPECT_EQ(result.v_int64, 5);
  EXPECT_EQ(TVMFFIFunctionCall(th, args, 1, &result), -1);
  TVMFFIObjectHandle err = nullptr;
  TVMFFIErrorMoveFromRaised(&err);
  ASSERT_NE(err, nullptr);
  ffi::Error e(
      ffi::detail::ObjectUnsafe::ObjectPtrFromOwned<ffi::Object>(static_cast<TVMFFIObject*>(err)));
  EXPECT_EQ(e.kind(), "TypeError");
  EXPECT_EQ(e.message(),
            "Mismatched number of arguments when calling: `sub(0: int, 1: int) -> int`. "
            "Expected 2 but got 1 arguments");
}

TEST(Function, CApiBadInput) {
  TVMFFIObjectHandle out = nullptr;
  EXPECT_EQ(TVMFFIFunctionCreate(nullptr, nullptr, nullptr, &out), -1);
  TVMFFIObjectHandle err = nullptr;
  TVMFFIErrorMoveFromRaised(&err);
  ASSERT_NE(err, nullptr);
  ffi::Error e1(
      ffi::detail::ObjectUnsafe::ObjectPtrFromOwned<ffi::Object>(static_cast<TVMFFIObject*>(err)));
  EXPECT_EQ(e1.kind(), "ValueError");
  EXPECT_NE(e1.message().find("safe_call"), std::string::npos);

  TVMFFIAny result;
  result.type_index = kTVMFFINone;
  EXPECT_EQ(TVMFFIFunctionCall(nullptr, nullptr, 0, &result), -1);
  TVMFFIErrorMoveFromRaised(&err);
  ffi::Error e2(
      ffi::detail::ObjectUnsafe::ObjectPtrFromOwned<ffi::Object>(static_cast<TVMFFIObject*>(err)));
  EXPECT_EQ(e2.kind(), "TypeError");

  String not_a_function("definitely not a function object");
  TVMFFIAny cell;
  ffi::TypeTraits<String>::CopyToAnyView(not_a_function, &cell);
  EXPECT_EQ(TVMFFIFunctionCall(cell.v_obj, nullptr, 0, &result), -1);
  TVMFFIErrorMoveFromRaised(&err);
  ffi::Error e3(
      ffi::detail::ObjectUnsafe::ObjectPtrFromOwned<ffi::Object>(static_cast<TVMFFIObject*>(err)));
  EXPECT_EQ(e3.message(), "TVMFFIFunctionCall: the handle is not a Function");
}

// ---------------------------------------------------------------------------
// Allocation-free calls
// ---------------------------------------------------------------------------
TEST(Function, TypedCallWithPodsAllocatesNothing) {
  Function add3 = Function::FromTyped(Add3);
  ffi::TypedFunction<int64_t(int64_t, int64_t, int64_t)> typed = Add3;
  Function mixed =
      Function::FromTyped([](double a, bool b, DLDevice d) { return b ? a : d.device_id; });
  TVMFFIObjectHandle handle = ffi::detail::ObjectUnsafe::GetHeader(add3.get());
  int64_t sum = 0;
  {
    // Sanity check: the counter sees allocations.
    AllocCounter counter;
    std::vector<int>* v = new std::vector<int>(3);
    delete v;
    EXPECT_GE(counter.count(), 1);
  }
  {
    AllocCounter counter;
    for (int i = 0; i < 100; ++i) {
      sum += add3(i, 2, 3).cast<int64_t>();
      sum += typed(1, i, 3);
      sum += static_cast<int64_t>(mixed(1.0, true, DLDevice{kDLCPU, 0}).cast<double>());
    }
    EXPECT_EQ(counter.count(), 0);
  }
  {
    TVMFFIAny args[3];
    for (int i = 0; i < 3; ++i) {
      args[i].type_index = kTVMFFIInt;
      args[i].zero_padding = 0;
      args[i].v_int64 = i;
    }
    AllocCounter counter;
    for (int i = 0; i < 100; ++i) {
      TVMFFIAny result;
      result.type_index = kTVMFFINone;
      result.zero_padding = 0;
      result.v_int64 = 0;
      ASSERT_EQ(TVMFFIFunctionCall(handle, args, 3, &result), 0);
      sum += result.v_int64;
    }
    EXPECT_EQ(counter.count(), 0);
  }
  EXPECT_GT(sum, 0);
}

}  // namespace

// ---------------------------------------------------------------------------
// Export macros (the symbols also exist in this test binary)
// ---------------------------------------------------------------------------
namespace export_test {
int64_t Twice(int64_t x) { return 2 * x; }
}  // namespace export_test

// No metadata flag is set in this file yet: only the function is exported, not its
// metadata, nor its doc string.
TVM_FFI_DLL_EXPORT_TYPED_FUNC(testing_fn_nometa, export_test::Twice);
TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(testing_fn_nometa, "Twice x.");
extern "C" int __tvm_ffi__metadata_testing_fn_nometa(void*, const TVMFFIAny*, int32_t, TVMFFIAny*)
    __attribute__((weak));
extern "C" int __tvm_ffi__doc_testing_fn_nometa(void*, const TVMFFIAny*, int32_t, TVMFFIAny*)
    __attribute__((weak));
// The guide's spelling of the flag is accepted as a synonym.
#define TVM_FFI_DLL_EXPORT_TYPED_FUNC_METADATA 1
TVM_FFI_DLL_EXPORT_TYPED_FUNC(testing_fn_synonym, export_test::Twice);
TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(testing_fn_synonym, "Twice \"x\".");

namespace {
TEST(Function, ExportMacros) {
  EXPECT_EQ(&__tvm_ffi__metadata_testing_fn_nometa, nullptr);
  EXPECT_EQ(&__tvm_ffi__doc_testing_fn_nometa, nullptr);
  TVMFFIAny arg;
  arg.type_index = kTVMFFIInt;
  arg.zero_padding = 0;
  arg.v_int64 = 21;
  TVMFFIAny result;
  ffi::detail::SetNone(&result);
  ASSERT_EQ(__tvm_ffi_testing_fn_nometa(nullptr, &arg, 1, &result), 0);
  EXPECT_EQ(result.v_int64, 42);
  // Errors come back as raised errors naming the exported function.
  EXPECT_EQ(__tvm_ffi_testing_fn_synonym(nullptr, &arg, 0, &result), -1);
  EXPECT_EQ(ffi::detail::MoveFromRaised().message(),
            "Mismatched number of arguments when calling: "
            "`testing_fn_synonym(0: int) -> int`. Expected 1 but got 0 arguments");
  ASSERT_EQ(__tvm_ffi__metadata_testing_fn_synonym(nullptr, nullptr, 0, &result), 0);
  Any meta = ffi::detail::AnyUnsafe::MoveTVMFFIAnyToAny(&result);
  EXPECT_EQ(meta.cast<std::string>(),
            R"({"type_schema": "{\"type\":\"ffi.Function\",\"named_args\":{\"return\":)"
            R"([{\"type\":\"int\"}],\"params\":[{\"type\":\"int\"}]}}"})");
  ASSERT_EQ(__tvm_ffi__doc_testing_fn_synonym(nullptr, nullptr, 0, &result), 0);
  Any doc = ffi::detail::AnyUnsafe::MoveTVMFFIAnyToAny(&result);
  EXPECT_EQ(doc.cast<std::string>(), "Twice \"x\".");
  // Wrapped as a Function through the C ABI.
  Function f = Function::FromExternC(nullptr, __tvm_ffi_testing_fn_nometa, nullptr);
  EXPECT_EQ(f(5).cast<int>(), 10);
}
}  // namespace
