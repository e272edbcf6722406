// Tests of the bounded-depth destruction of nested containers
// (container/release_scope.h): chains nested far deeper than the stack allows
// frames for are freed, every element is released exactly once, and elements
// still referenced elsewhere survive.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <utility>

namespace {
namespace ffi = tvm::ffi;
using ffi::Any;

// Far more levels than an 8 MiB stack holds container destructor frames for.
constexpr int kDepth = 1000000;

class ReleaseCountedObj : public ffi::Object {
 public:
  static int64_t live;
  ReleaseCountedObj() { ++live; }
  ~ReleaseCountedObj() { --live; }
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.release.Counted", ReleaseCountedObj, ffi::Object);
};
int64_t ReleaseCountedObj::live = 0;

Any Counted() { return ffi::ObjectRef(ffi::make_object<ReleaseCountedObj>()); }

TEST(ContainerRelease, DeepArrayChainIsFreed) {
  Any x;
  for (int i = 0; i < kDepth; ++i) x = ffi::Array<Any>{x};
  x = nullptr;
  SUCCEED();
}

TEST(ContainerRelease, DeepListChainIsFreed) {
  Any x;
  for (int i = 0; i < kDepth; ++i) x = ffi::List<Any>{x};
  x = nullptr;
  SUCCEED();
}

TEST(ContainerRelease, DeepMapChainIsFreed) {
  Any x;
  for (int i = 0; i < kDepth; ++i) x = ffi::Map<ffi::String, Any>{{"k", x}};
  x = nullptr;
  SUCCEED();
}

TEST(ContainerRelease, DeepDictChainIsFreed) {
  Any x;
  for (int i = 0; i < kDepth; ++i) x = ffi::Dict<ffi::String, Any>{{"k", x}};
  x = nullptr;
  SUCCEED();
}

TEST(ContainerRelease, DeepChainAsMapKeysIsFreed) {
  Any x = 0;
  for (int i = 0; i < kDepth; ++i) x = ffi::Map<Any, int>{{x, i}};
  x = nullptr;
  SUCCEED();
}

TEST(ContainerRelease, DeepMixedChainReleasesEveryElementOnce) {
  ReleaseCountedObj::live = 0;
  {
    Any x;
    for (int i = 0; i < kDepth; ++i) {
      switch (i % 4) {
        case 0:
          x = ffi::Array<Any>{Counted(), x};
          break;
        case 1:
          x = ffi::List<Any>{x, Counted()};
          break;
        case 2:
          x = ffi::Map<ffi::String, Any>{{"k", x}, {"c", Counted()}};
          break;
        default:
          x = ffi::Dict<ffi::String, Any>{{"k", x}, {"c", Counted()}};
          break;
      }
    }
    EXPECT_EQ(ReleaseCountedObj::live, kDepth);
  }
  EXPECT_EQ(ReleaseCountedObj::live, 0);
}

TEST(ContainerRelease, SharedElementsOfADeepChainSurvive) {
  ReleaseCountedObj::live = 0;
  ffi::Array<Any> kept;
  {
    Any x;
    for (int i = 0; i < kDepth; ++i) {
      ffi::Array<Any> level{x, Counted()};
      if (i % 1000 == 0) kept.push_back(level);
      x = std::move(level);
    }
  }
  // Each kept level keeps the whole chain below it.
  EXPECT_EQ(ReleaseCountedObj::live, kDepth - 999);
  Any top = kept.back();
  kept = ffi::Array<Any>();
  EXPECT_EQ(ReleaseCountedObj::live, kDepth - 999);
  top = nullptr;
  EXPECT_EQ(ReleaseCountedObj::live, 0);
}

TEST(ContainerRelease, ClearingADeepMapChainReleasesIt) {
  ReleaseCountedObj::live = 0;
  ffi::Dict<ffi::String, Any> root;
  Any x;
  for (int i = 0; i < kDepth; ++i) x = ffi::Dict<ffi::String, Any>{{"k", x}, {"c", Counted()}};
  root.Set("k", x);
  x = nullptr;
  root.clear();
  EXPECT_EQ(ReleaseCountedObj::live, 0);
}

}  // namespace
