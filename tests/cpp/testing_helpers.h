// Helpers shared by the gtest files: catching an expected ffi::Error, reading
// the raw cell of an Any, running code on a small stack, and nested Lists
// deeper than any traversal may go.
#ifndef TVM_FFI_TESTS_CPP_TESTING_HELPERS_H_
#define TVM_FFI_TESTS_CPP_TESTING_HELPERS_H_

#include <gtest/gtest.h>
#include <pthread.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/error.h>

#include <cstddef>
#include <functional>
#include <string>
#include <utility>

namespace tvm_ffi_testing {

/*! \brief Run f and return the ffi::Error it throws (fails the test if none). */
template <typename F>
tvm::ffi::Error CatchError(F&& f) {
  try {
    f();
  } catch (const tvm::ffi::Error& e) {
    return e;
  }
  ADD_FAILURE() << "expected an ffi::Error";
  return tvm::ffi::Error("None", "no error");
}

/*! \brief Run fn, expect an ffi::Error of `kind`, and return its message. */
inline std::string ErrorMessage(const std::function<void()>& fn,
                                const std::string& kind = "TypeError") {
  try {
    fn();
  } catch (const tvm::ffi::Error& e) {
    EXPECT_EQ(e.kind(), kind);
    return e.message();
  }
  ADD_FAILURE() << "expected a " << kind;
  return "";
}

/*! \brief The raw ABI cell of a value. */
inline const TVMFFIAny* Cell(const tvm::ffi::Any& a) {
  return tvm::ffi::detail::AnyUnsafe::GetTVMFFIAny(a);
}
inline const TVMFFIAny* Cell(const tvm::ffi::AnyView& a) {
  return tvm::ffi::detail::AnyUnsafe::GetTVMFFIAny(a);
}

/*!
 * \brief Run fn on a thread with a small stack (128 KiB by default): code that
 *  recursed once per nesting level would overflow it at the depths the tests
 *  use. Raising an error needs more: symbolizing its backtrace (libdw)
 *  overflows 128 KiB, hence kErrorStackBytes for tests that expect one.
 */
inline void RunWithSmallStack(const std::function<void()>& fn, size_t stack_bytes = 128 * 1024) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, stack_bytes);
  pthread_t thread;
  auto body = [](void* arg) -> void* {
    (*static_cast<const std::function<void()>*>(arg))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attr, body, const_cast<std::function<void()>*>(&fn)), 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
}

/*!
 * \brief `depth` nested Lists, each holding the next as its one element (the
 *  innermost is empty). Taken apart from the top on destruction, one link at a
 *  time, so that no destructor recurses through the chain.
 */
class NestedLists {
 public:
  explicit NestedLists(int depth) {
    tvm::ffi::List<tvm::ffi::Any> tail = root_;
    for (int i = 0; i < depth; ++i) {
      tvm::ffi::List<tvm::ffi::Any> next;
      tail.push_back(next);
      tail = next;
    }
  }
  ~NestedLists() {
    tvm::ffi::List<tvm::ffi::Any> cur = std::move(root_);
    while (cur.size() != 0) {
      tvm::ffi::List<tvm::ffi::Any> next = cur[0].cast<tvm::ffi::List<tvm::ffi::Any>>();
      cur.clear();
      cur = std::move(next);
    }
  }
  NestedLists(const NestedLists&) = delete;
  NestedLists& operator=(const NestedLists&) = delete;

  const tvm::ffi::List<tvm::ffi::Any>& root() const { return root_; }

 private:
  tvm::ffi::List<tvm::ffi::Any> root_;
};

/*! \brief A small stack on which an error can still be raised (see RunWithSmallStack). */
constexpr size_t kErrorStackBytes = 512 * 1024;

/*! \brief One level more than the 2^20 frames a dataclass traversal may hold. */
constexpr int kDepthBeyondTheStackLimit = (1 << 20) + 1;

}  // namespace tvm_ffi_testing

#endif  // TVM_FFI_TESTS_CPP_TESTING_HELPERS_H_
