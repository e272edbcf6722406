// refl::overload_cast reached through reflection/registry.h alone: a member picked by its
// leading parameter types, an exact list among longer overloads, and use as a template
// argument (free functions and const_ are in test_overload.cc).
#include <gtest/gtest.h>
#include <tvm/ffi/reflection/registry.h>

#include <type_traits>

namespace {

namespace refl = tvm::ffi::reflection;

struct Apple {};
struct Pear {};

struct Basket {
  int Add(const Apple*, int count) { return 10 + count; }
  int Add(const Pear*, int count) { return 20 + count; }
};

struct Router {
  int Send(int, int) { return 1; }
  int Send(int, double) { return 2; }
  int Send(int, int, int) { return 3; }
};

template <auto Method>
int CallOnDefault(int arg) {
  Basket basket;
  Apple apple;
  return (basket.*Method)(&apple, arg);
}

TEST(OverloadCastViaRegistry, LeadingTypesPickAMemberAndKeepTheRestOfItsParameters) {
  auto add_apple = refl::overload_cast<const Apple*>(&Basket::Add);
  static_assert(std::is_same_v<decltype(add_apple), int (Basket::*)(const Apple*, int)>);
  Basket basket;
  Pear pear;
  EXPECT_EQ((basket.*refl::overload_cast<const Pear*>(&Basket::Add))(&pear, 2), 22);
}

TEST(OverloadCastViaRegistry, ExactParameterListWinsOverLongerOverloads) {
  Router router;
  EXPECT_EQ((router.*refl::overload_cast<int, int>(&Router::Send))(0, 0), 1);
  EXPECT_EQ((router.*refl::overload_cast<int, double>(&Router::Send))(0, 0.0), 2);
  EXPECT_EQ((router.*refl::overload_cast<int, int, int>(&Router::Send))(0, 0, 0), 3);
}

TEST(OverloadCastViaRegistry, IsAConstantExpression) {
  EXPECT_EQ(CallOnDefault<refl::overload_cast<const Apple*>(&Basket::Add)>(5), 15);
}

}  // namespace
