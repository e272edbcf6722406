// Tests of the error C API: Error objects, the thread-local raised error and
// TVMFFIBacktrace. Only c_api.h is used, so the cell layout is checked as
// foreign code compiled against the ABI would see it.
#include <gtest/gtest.h>
#include <tvm/ffi/c_api.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

// A minimal object whose deleter counts destructions, used as cause/extra.
struct CountedObject {
  TVMFFIObject header;
  std::atomic<int>* destroyed;
};

void CountedDeleter(void* self, int flags) {
  CountedObject* obj = static_cast<CountedObject*>(self);
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) obj->destroyed->fetch_add(1);
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) delete obj;
}

CountedObject* NewCounted(std::atomic<int>* destroyed) {
  CountedObject* obj = new CountedObject();
  obj->header.combined_ref_count = (uint64_t{1} << 32) | 1;
  obj->header.type_index = kTVMFFIObject;
  obj->header.__padding = 0;
  obj->header.deleter = CountedDeleter;
  obj->destroyed = destroyed;
  return obj;
}

uint32_t StrongCount(TVMFFIObjectHandle obj) {
  return static_cast<uint32_t>(static_cast<TVMFFIObject*>(obj)->combined_ref_count);
}

TVMFFIErrorCell* Cell(TVMFFIObjectHandle err) {
  return reinterpret_cast<TVMFFIErrorCell*>(static_cast<char*>(err) + sizeof(TVMFFIObject));
}

std::string Str(const TVMFFIByteArray& bytes) { return std::string(bytes.data, bytes.size); }

TVMFFIByteArray Bytes(const char* s) { return TVMFFIByteArray{s, std::strlen(s)}; }

TVMFFIObjectHandle MakeError(const char* kind, const char* message, const char* backtrace) {
  TVMFFIByteArray k = Bytes(kind), m = Bytes(message);
  TVMFFIByteArray b = backtrace != nullptr ? Bytes(backtrace) : TVMFFIByteArray{nullptr, 0};
  TVMFFIObjectHandle err = nullptr;
  EXPECT_EQ(TVMFFIErrorCreate(&k, &m, backtrace != nullptr ? &b : nullptr, &err), 0);
  return err;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool AllFramesWellFormed(const std::string& text) {
  static const std::regex frame(R"(  File "[^"\n]*", line [0-9]+, in [^\n]+)");
  if (!text.empty() && text.back() != '\n') return false;
  for (const std::string& line : Lines(text)) {
    if (!std::regex_match(line, frame)) return false;
  }
  return true;
}

// Sets an environment variable for the lifetime of the guard.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    const char* old = std::getenv(name);
    had_old_ = old != nullptr;
    if (had_old_) old_ = old;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (had_old_) {
      setenv(name_, old_.c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  bool had_old_ = false;
  std::string old_;
};

// Helpers kept as real frames: noinline, and the result is used after the
// call so it is not a tail call.
__attribute__((noinline)) std::string BacktraceInnerHelper(const char* file, int line,
                                                           const char* func, int cross) {
  std::string text = Str(*TVMFFIBacktrace(file, line, func, cross));
  asm volatile("" ::: "memory");
  return text;
}

__attribute__((noinline)) std::string BacktraceOuterHelper(const char* file, int line,
                                                           const char* func, int cross = 0) {
  std::string text = BacktraceInnerHelper(file, line, func, cross);
  asm volatile("" ::: "memory");
  return text;
}

__attribute__((noinline)) void RaiseFromCHelper() {
  TVMFFIErrorSetRaisedFromCStr("ValueError", "from C");
  asm volatile("" ::: "memory");
}

// With libdw the test helpers are named and carry this file's name; the
// dladdr fallback cannot name functions of an executable.
bool Symbolized(const std::string& text) {
  return text.find("test_error_c_api.cc") != std::string::npos;
}

TEST(ErrorCAPI, CreateFillsCell) {
  TVMFFIObjectHandle err = MakeError("TypeError", "bad type", "  File \"a.cc\", line 1, in f\n");
  ASSERT_NE(err, nullptr);
  TVMFFIObject* header = static_cast<TVMFFIObject*>(err);
  EXPECT_EQ(header->type_index, kTVMFFIError);
  EXPECT_EQ(header->combined_ref_count, (uint64_t{1} << 32) | 1);
  EXPECT_NE(header->deleter, nullptr);
  TVMFFIErrorCell* cell = Cell(err);
  EXPECT_EQ(Str(cell->kind), "TypeError");
  EXPECT_EQ(Str(cell->message), "bad type");
  EXPECT_EQ(Str(cell->backtrace), "  File \"a.cc\", line 1, in f\n");
  EXPECT_EQ(cell->kind.data[cell->kind.size], '\0');
  EXPECT_EQ(cell->message.data[cell->message.size], '\0');
  EXPECT_EQ(cell->backtrace.data[cell->backtrace.size], '\0');
  EXPECT_NE(cell->update_backtrace, nullptr);
  EXPECT_EQ(cell->cause_chain, nullptr);
  EXPECT_EQ(cell->extra_context, nullptr);
  TVMFFIObjectDecRef(err);
}

TEST(ErrorCAPI, CreateWithoutBacktraceIsEmpty) {
  TVMFFIObjectHandle err = MakeError("RuntimeError", "", nullptr);
  ASSERT_NE(err, nullptr);
  EXPECT_EQ(Cell(err)->backtrace.size, 0u);
  ASSERT_NE(Cell(err)->backtrace.data, nullptr);
  EXPECT_EQ(Cell(err)->backtrace.data[0], '\0');
  EXPECT_EQ(Cell(err)->message.size, 0u);
  EXPECT_EQ(Cell(err)->message.data[0], '\0');
  TVMFFIObjectDecRef(err);
}

TEST(ErrorCAPI, CreateKeepsEmbeddedNul) {
  const char raw[] = "a\0b";
  TVMFFIByteArray kind = Bytes("ValueError");
  TVMFFIByteArray message = {raw, 3};
  TVMFFIObjectHandle err = nullptr;
  ASSERT_EQ(TVMFFIErrorCreate(&kind, &message, nullptr, &err), 0);
  EXPECT_EQ(Str(Cell(err)->message), std::string(raw, 3));
  TVMFFIObjectDecRef(err);
}

TEST(ErrorCAPI, CreateRejectsNullArguments) {
  TVMFFIByteArray kind = Bytes("ValueError");
  TVMFFIByteArray message = Bytes("m");
  TVMFFIByteArray bad = {nullptr, 4};
  TVMFFIObjectHandle err = reinterpret_cast<TVMFFIObjectHandle>(0x1);
  struct Case {
    const TVMFFIByteArray* kind;
    const TVMFFIByteArray* message;
    const TVMFFIByteArray* backtrace;
    TVMFFIObjectHandle* out;
    const char* mentions;
  };
  const Case cases[] = {{nullptr, &message, nullptr, &err, "kind"},
                        {&kind, nullptr, nullptr, &err, "message"},
                        {&bad, &message, nullptr, &err, "kind"},
                        {&kind, &message, &bad, &err, "backtrace"},
                        {&kind, &message, nullptr, nullptr, "out"}};
  for (const Case& c : cases) {
    EXPECT_EQ(TVMFFIErrorCreate(c.kind, c.message, c.backtrace, c.out), -1) << c.mentions;
    if (c.out != nullptr) {
      EXPECT_EQ(*c.out, nullptr) << c.mentions;
    }
    TVMFFIObjectHandle raised = nullptr;
    TVMFFIErrorMoveFromRaised(&raised);
    ASSERT_NE(raised, nullptr) << c.mentions;
    EXPECT_EQ(Str(Cell(raised)->kind), "ValueError");
    std::string msg = Str(Cell(raised)->message);
    EXPECT_NE(msg.find("TVMFFIErrorCreate"), std::string::npos) << msg;
    EXPECT_NE(msg.find(c.mentions), std::string::npos) << msg;
    TVMFFIObjectDecRef(raised);
    err = reinterpret_cast<TVMFFIObjectHandle>(0x1);
  }
}

TEST(ErrorCAPI, UpdateBacktraceAppendAndReplace) {
  TVMFFIObjectHandle err = MakeError("RuntimeError", "m", "A\n");
  TVMFFIErrorCell* cell = Cell(err);
  TVMFFIByteArray b = Bytes("B\n");
  cell->update_backtrace(err, &b, kTVMFFIBacktraceUpdateModeAppend);
  EXPECT_EQ(Str(cell->backtrace), "A\nB\n");
  EXPECT_EQ(cell->backtrace.data[cell->backtrace.size], '\0');
  TVMFFIByteArray c = Bytes("C\n");
  cell->update_backtrace(err, &c, kTVMFFIBacktraceUpdateModeReplace);
  EXPECT_EQ(Str(cell->backtrace), "C\n");
  EXPECT_EQ(cell->backtrace.data[cell->backtrace.size], '\0');
  // Appending the error's own text must work although the source aliases it.
  TVMFFIByteArray self_view = cell->backtrace;
  cell->update_backtrace(err, &self_view, kTVMFFIBacktraceUpdateModeAppend);
  EXPECT_EQ(Str(cell->backtrace), "C\nC\n");
  // A NULL backtrace is empty text.
  cell->update_backtrace(err, nullptr, kTVMFFIBacktraceUpdateModeAppend);
  EXPECT_EQ(Str(cell->backtrace), "C\nC\n");
  cell->update_backtrace(err, nullptr, kTVMFFIBacktraceUpdateModeReplace);
  EXPECT_EQ(Str(cell->backtrace), "");
  EXPECT_EQ(cell->backtrace.data[0], '\0');
  // Many appends, as when an error crosses many frames.
  std::string expected;
  for (int i = 0; i < 2000; ++i) {
    std::string frame = "  File \"f.cc\", line " + std::to_string(i) + ", in g\n";
    TVMFFIByteArray view = {frame.data(), frame.size()};
    cell->update_backtrace(err, &view, kTVMFFIBacktraceUpdateModeAppend);
    expected += frame;
  }
  EXPECT_EQ(Str(cell->backtrace), expected);
  EXPECT_EQ(cell->backtrace.data[cell->backtrace.size], '\0');
  // kind and message are untouched by backtrace updates.
  EXPECT_EQ(Str(cell->kind), "RuntimeError");
  EXPECT_EQ(Str(cell->message), "m");
  TVMFFIObjectDecRef(err);
}

TEST(ErrorCAPI, CauseAndExtraContextReferences) {
  std::atomic<int> cause_destroyed{0}, extra_destroyed{0};
  CountedObject* cause = NewCounted(&cause_destroyed);
  CountedObject* extra = NewCounted(&extra_destroyed);
  TVMFFIByteArray kind = Bytes("RuntimeError"), message = Bytes("outer");
  TVMFFIObjectHandle err = nullptr;
  ASSERT_EQ(TVMFFIErrorCreateWithCauseAndExtraContext(&kind, &message, nullptr, cause, extra, &err),
            0);
  EXPECT_EQ(Cell(err)->cause_chain, cause);
  EXPECT_EQ(Cell(err)->extra_context, extra);
  EXPECT_EQ(StrongCount(cause), 2u);
  EXPECT_EQ(StrongCount(extra), 2u);
  TVMFFIObjectDecRef(cause);
  TVMFFIObjectDecRef(extra);
  EXPECT_EQ(cause_destroyed.load(), 0);
  EXPECT_EQ(extra_destroyed.load(), 0);
  TVMFFIObjectDecRef(err);
  EXPECT_EQ(cause_destroyed.load(), 1);
  EXPECT_EQ(extra_destroyed.load(), 1);

  // An error chained as the cause of another error.
  std::atomic<int> leaf_destroyed{0};
  CountedObject* leaf = NewCounted(&leaf_destroyed);
  TVMFFIObjectHandle inner = nullptr, outer = nullptr;
  ASSERT_EQ(
      TVMFFIErrorCreateWithCauseAndExtraContext(&kind, &message, nullptr, nullptr, leaf, &inner),
      0);
  TVMFFIObjectDecRef(leaf);
  EXPECT_EQ(Cell(inner)->cause_chain, nullptr);
  ASSERT_EQ(
      TVMFFIErrorCreateWithCauseAndExtraContext(&kind, &message, nullptr, inner, nullptr, &outer),
      0);
  TVMFFIObjectDecRef(inner);
  EXPECT_EQ(StrongCount(inner), 1u);
  EXPECT_EQ(leaf_destroyed.load(), 0);
  TVMFFIObjectDecRef(outer);
  EXPECT_EQ(leaf_destroyed.load(), 1);
}

TEST(ErrorCAPI, RaisedSlotSetMoveReplace) {
  TVMFFIObjectHandle out = reinterpret_cast<TVMFFIObjectHandle>(0x1);
  TVMFFIErrorMoveFromRaised(&out);
  EXPECT_EQ(out, nullptr);

  std::atomic<int> first_destroyed{0}, second_destroyed{0};
  CountedObject* first_cause = NewCounted(&first_destroyed);
  CountedObject* second_cause = NewCounted(&second_destroyed);
  TVMFFIByteArray kind = Bytes("RuntimeError"), message = Bytes("m");
  TVMFFIObjectHandle first = nullptr, second = nullptr;
  ASSERT_EQ(TVMFFIErrorCreateWithCauseAndExtraContext(&kind, &message, nullptr, first_cause,
                                                      nullptr, &first),
            0);
  ASSERT_EQ(TVMFFIErrorCreateWithCauseAndExtraContext(&kind, &message, nullptr, second_cause,
                                                      nullptr, &second),
            0);
  TVMFFIObjectDecRef(first_cause);
  TVMFFIObjectDecRef(second_cause);

  TVMFFIErrorSetRaised(first);
  EXPECT_EQ(StrongCount(first), 2u);
  TVMFFIObjectDecRef(first);  // the slot now holds the only reference
  EXPECT_EQ(first_destroyed.load(), 0);
  // Raising the same error again keeps it alive.
  TVMFFIErrorSetRaised(first);
  EXPECT_EQ(StrongCount(first), 1u);
  // Replacing releases the previous error.
  TVMFFIErrorSetRaised(second);
  EXPECT_EQ(first_destroyed.load(), 1);
  EXPECT_EQ(StrongCount(second), 2u);

  TVMFFIErrorMoveFromRaised(&out);
  EXPECT_EQ(out, second);
  EXPECT_EQ(StrongCount(second), 2u);  // moved, not copied
  TVMFFIErrorMoveFromRaised(&out);
  EXPECT_EQ(out, nullptr);
  TVMFFIObjectDecRef(second);
  EXPECT_EQ(StrongCount(second), 1u);
  TVMFFIObjectDecRef(second);
  EXPECT_EQ(second_destroyed.load(), 1);
}

TEST(ErrorCAPI, SetRaisedNullClearsSlot) {
  std::atomic<int> destroyed{0};
  CountedObject* cause = NewCounted(&destroyed);
  TVMFFIByteArray kind = Bytes("RuntimeError"), message = Bytes("m");
  TVMFFIObjectHandle err = nullptr;
  ASSERT_EQ(
      TVMFFIErrorCreateWithCauseAndExtraContext(&kind, &message, nullptr, cause, nullptr, &err), 0);
  TVMFFIObjectDecRef(cause);
  TVMFFIErrorSetRaised(err);
  TVMFFIObjectDecRef(err);
  TVMFFIErrorSetRaised(nullptr);
  EXPECT_EQ(destroyed.load(), 1);
  TVMFFIObjectHandle out = reinterpret_cast<TVMFFIObjectHandle>(0x1);
  TVMFFIErrorMoveFromRaised(&out);
  EXPECT_EQ(out, nullptr);
}

TEST(ErrorCAPI, SetRaisedFromCStr) {
  TVMFFIErrorSetRaisedFromCStr("IndexError", "index 3 out of range");
  TVMFFIObjectHandle err = nullptr;
  TVMFFIErrorMoveFromRaised(&err);
  ASSERT_NE(err, nullptr);
  EXPECT_EQ(static_cast<TVMFFIObject*>(err)->type_index, kTVMFFIError);
  EXPECT_EQ(Str(Cell(err)->kind), "IndexError");
  EXPECT_EQ(Str(Cell(err)->message), "index 3 out of range");
  EXPECT_EQ(StrongCount(err), 1u);
  EXPECT_TRUE(AllFramesWellFormed(Str(Cell(err)->backtrace)));
  TVMFFIObjectDecRef(err);

  TVMFFIErrorSetRaisedFromCStr(nullptr, nullptr);
  TVMFFIErrorMoveFromRaised(&err);
  ASSERT_NE(err, nullptr);
  EXPECT_EQ(Str(Cell(err)->kind), "RuntimeError");
  EXPECT_EQ(Str(Cell(err)->message), "");
  TVMFFIObjectDecRef(err);
}

TEST(ErrorCAPI, SetRaisedFromCStrRecordsCallerFrames) {
  RaiseFromCHelper();
  TVMFFIObjectHandle err = nullptr;
  TVMFFIErrorMoveFromRaised(&err);
  ASSERT_NE(err, nullptr);
  std::string bt = Str(Cell(err)->backtrace);
  EXPECT_TRUE(AllFramesWellFormed(bt)) << bt;
  EXPECT_EQ(bt.find("TVMFFIErrorSetRaisedFromCStr"), std::string::npos) << bt;
  if (Symbolized(bt)) {
    std::vector<std::string> lines = Lines(bt);
    ASSERT_FALSE(lines.empty());
    EXPECT_NE(lines[0].find("RaiseFromCHelper"), std::string::npos) << bt;
    EXPECT_NE(lines[0].find("test_error_c_api.cc"), std::string::npos) << bt;
  }
  TVMFFIObjectDecRef(err);
}

TEST(ErrorCAPI, SetRaisedFromCStrParts) {
  const char* parts[] = {"expected ", nullptr, "int", "", " but got ", nullptr, "str"};
  TVMFFIErrorSetRaisedFromCStrParts("TypeError", parts, 7);
  TVMFFIObjectHandle err = nullptr;
  TVMFFIErrorMoveFromRaised(&err);
  ASSERT_NE(err, nullptr);
  EXPECT_EQ(Str(Cell(err)->kind), "TypeError");
  EXPECT_EQ(Str(Cell(err)->message), "expected int but got str");
  TVMFFIObjectDecRef(err);

  TVMFFIErrorSetRaisedFromCStrParts("TypeError", parts, 0);
  TVMFFIErrorMoveFromRaised(&err);
  ASSERT_NE(err, nullptr);
  EXPECT_EQ(Str(Cell(err)->message), "");
  TVMFFIObjectDecRef(err);

  TVMFFIErrorSetRaisedFromCStrParts("TypeError", nullptr, 3);
  TVMFFIErrorMoveFromRaised(&err);
  ASSERT_NE(err, nullptr);
  EXPECT_EQ(Str(Cell(err)->message), "");
  TVMFFIObjectDecRef(err);
}

TEST(ErrorCAPI, RaisedSlotIsPerThread) {
  TVMFFIErrorSetRaisedFromCStr("RuntimeError", "main thread");
  TVMFFIObjectHandle seen_in_other = reinterpret_cast<TVMFFIObjectHandle>(0x1);
  std::string other_message;
  std::thread other([&] {
    TVMFFIErrorMoveFromRaised(&seen_in_other);
    TVMFFIErrorSetRaisedFromCStr("RuntimeError", "other thread");
    TVMFFIObjectHandle own = nullptr;
    TVMFFIErrorMoveFromRaised(&own);
    if (own != nullptr) {
      other_message = Str(Cell(own)->message);
      TVMFFIObjectDecRef(own);
    }
  });
  other.join();
  EXPECT_EQ(seen_in_other, nullptr);
  EXPECT_EQ(other_message, "other thread");
  TVMFFIObjectHandle err = nullptr;
  TVMFFIErrorMoveFromRaised(&err);
  ASSERT_NE(err, nullptr);
  EXPECT_EQ(Str(Cell(err)->message), "main thread");
  TVMFFIObjectDecRef(err);
}

TEST(ErrorCAPI, RaisedErrorReleasedAtThreadExit) {
  std::atomic<int> destroyed{0};
  std::thread worker([&] {
    CountedObject* cause = NewCounted(&destroyed);
    TVMFFIByteArray kind = Bytes("RuntimeError"), message = Bytes("left behind");
    TVMFFIObjectHandle err = nullptr;
    if (TVMFFIErrorCreateWithCauseAndExtraContext(&kind, &message, nullptr, cause, nullptr, &err) !=
        0) {
      return;
    }
    TVMFFIObjectDecRef(cause);
    TVMFFIErrorSetRaised(err);
    TVMFFIObjectDecRef(err);
  });
  worker.join();
  EXPECT_EQ(destroyed.load(), 1);
}

TEST(ErrorCAPI, BacktraceStartsWithSite) {
  std::string text = BacktraceOuterHelper("x.cc", 12, "foo");
  EXPECT_EQ(text.rfind("  File \"x.cc\", line 12, in foo\n", 0), 0u) << text;
  EXPECT_TRUE(AllFramesWellFormed(text)) << text;
  EXPECT_EQ(text.find("TVMFFIBacktrace"), std::string::npos) << text;
  EXPECT_EQ(text.find("__libc_start"), std::string::npos) << text;
  if (Symbolized(text)) {
    std::vector<std::string> lines = Lines(text);
    ASSERT_GE(lines.size(), 3u) << text;
    // The site's own function (the inner helper) is not repeated; its caller follows.
    EXPECT_EQ(text.find("BacktraceInnerHelper"), std::string::npos) << text;
    EXPECT_NE(lines[1].find("BacktraceOuterHelper"), std::string::npos) << text;
    EXPECT_NE(lines[1].find("test_error_c_api.cc"), std::string::npos) << text;
    EXPECT_NE(text.find("BacktraceStartsWithSite"), std::string::npos) << text;
  }
#ifdef TVM_FFI_USE_LIBDW
  EXPECT_TRUE(Symbolized(text)) << text;
#endif
}

TEST(ErrorCAPI, BacktraceWithoutSite) {
  std::string text = BacktraceOuterHelper(nullptr, 12, "foo");
  EXPECT_EQ(text.find("line 12, in foo"), std::string::npos) << text;
  EXPECT_TRUE(AllFramesWellFormed(text)) << text;
  if (Symbolized(text)) {
    // Without a site frame nothing is dropped: the caller of TVMFFIBacktrace comes first.
    EXPECT_NE(Lines(text)[0].find("BacktraceInnerHelper"), std::string::npos) << text;
  }
  text = BacktraceOuterHelper("x.cc", 12, nullptr);
  EXPECT_EQ(text.find("x.cc"), std::string::npos) << text;
}

TEST(ErrorCAPI, BacktraceLimit) {
  {
    ScopedEnv limit("TVM_FFI_BACKTRACE_LIMIT", "2");
    std::string text = BacktraceOuterHelper("x.cc", 12, "foo");
    std::vector<std::string> lines = Lines(text);
    EXPECT_EQ(lines.size(), 3u) << text;
    EXPECT_EQ(lines[0], "  File \"x.cc\", line 12, in foo");
  }
  {
    ScopedEnv limit("TVM_FFI_BACKTRACE_LIMIT", "0");
    EXPECT_EQ(BacktraceOuterHelper("x.cc", 12, "foo"), "  File \"x.cc\", line 12, in foo\n");
    EXPECT_EQ(BacktraceOuterHelper(nullptr, 0, nullptr), "");
  }
  {
    ScopedEnv off("TVM_FFI_BACKTRACE", "0");
    EXPECT_EQ(BacktraceOuterHelper("x.cc", 12, "foo"), "  File \"x.cc\", line 12, in foo\n");
  }
  {
    ScopedEnv limit("TVM_FFI_BACKTRACE_LIMIT", "not-a-number");
    EXPECT_GT(Lines(BacktraceOuterHelper("x.cc", 12, "foo")).size(), 1u);
  }
}

TEST(ErrorCAPI, BacktraceCrossBoundaryKeepsCallerObject) {
  std::string text = BacktraceOuterHelper("x.cc", 12, "foo", 1);
  EXPECT_EQ(text.rfind("  File \"x.cc\", line 12, in foo\n", 0), 0u) << text;
  EXPECT_TRUE(AllFramesWellFormed(text)) << text;
  if (Symbolized(text)) {
    EXPECT_NE(text.find("BacktraceOuterHelper"), std::string::npos) << text;
  }
}

TEST(ErrorCAPI, BacktraceIsThreadLocalAndThreadSafe) {
  std::atomic<int> bad{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::string file = "thread" + std::to_string(t) + ".cc";
      for (int i = 0; i < 200; ++i) {
        const TVMFFIByteArray* bt = TVMFFIBacktrace(file.c_str(), i, "work", 0);
        std::string text = Str(*bt);
        std::string expected_first =
            "  File \"" + file + "\", line " + std::to_string(i) + ", in work\n";
        if (text.rfind(expected_first, 0) != 0 || !AllFramesWellFormed(text)) bad.fetch_add(1);
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(bad.load(), 0);
}

TEST(ErrorCAPI, ManyErrorsStayQuick) {
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 10000; ++i) {
    const TVMFFIByteArray* bt = TVMFFIBacktrace("loop.cc", i, "loop", 0);
    TVMFFIByteArray kind = Bytes("RuntimeError"), message = Bytes("loop");
    TVMFFIObjectHandle err = nullptr;
    ASSERT_EQ(TVMFFIErrorCreate(&kind, &message, bt, &err), 0);
    TVMFFIErrorSetRaised(err);
    TVMFFIObjectDecRef(err);
    TVMFFIErrorMoveFromRaised(&err);
    ASSERT_NE(err, nullptr);
    TVMFFIObjectDecRef(err);
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Symbolization is cached per PC; 10k errors take well under a second.
  EXPECT_LT(seconds, 10.0);
}

}  // namespace
