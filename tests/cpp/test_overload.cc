// reflection::OverloadObjectDef (method overloads behind one dispatcher, their
// records and error texts) and overload_cast.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/overload.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>
#include "testing_helpers.h"

#include <string>
#include <type_traits>
#include <vector>

namespace {

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;
using ffi::Any;
using ffi::AnyView;
using ffi::Function;
using ffi::String;
using tvm_ffi_testing::ErrorMessage;

class OvPointObj : public ffi::Object {
 public:
  int64_t x = 0;
  OvPointObj() = default;
  explicit OvPointObj(int64_t v) : x(v) {}
  OvPointObj(int64_t v, String tag) : x(v + static_cast<int64_t>(tag.size()) * 100) {}

  int64_t Scale(int64_t k) const { return x * k; }
  double Scale(double k) const { return static_cast<double>(x) * k; }
  int64_t Add(int64_t k) { return x + k; }
  int64_t Add(int64_t k) const { return x + k + 1; }
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.overload.Point", OvPointObj, ffi::Object);
};

int64_t Pick(int64_t v) { return v; }
String Pick(String v) { return v; }
int64_t Pick(int64_t a, int64_t b) { return a * 10 + b; }

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::OverloadObjectDef<OvPointObj>()
      .def_ro("x", &OvPointObj::x)
      .def(refl::init<int64_t>())
      .def(refl::init<int64_t, String>())
      .def_static("pick", [](int64_t a) { return a; })
      .def_static("pick", [](String a) { return a; })
      .def_static("pick", [](double a, double b) { return a + b; })
      .def_static("pick_any", [](int64_t a) { return a; })
      .def_static("pick_any", [](AnyView a) { return String("any:" + a.GetTypeKey()); })
      .def_static("single", [](int64_t a) { return a; })
      .def("scale", refl::overload_cast<int64_t>(&OvPointObj::Scale, refl::const_))
      .def("scale", refl::overload_cast<double>(&OvPointObj::Scale, refl::const_));
}

std::vector<const TVMFFIMethodInfo*> Methods(const char* name) {
  std::vector<const TVMFFIMethodInfo*> out;
  const TVMFFITypeInfo* info = ffi::detail::GetTypeInfoByKey("test.overload.Point");
  for (int32_t i = 0; i < info->num_methods; ++i) {
    if (std::string(info->methods[i].name.data, info->methods[i].name.size) == name) {
      out.push_back(&info->methods[i]);
    }
  }
  return out;
}

Function MethodFn(const char* name) { return refl::GetMethod("test.overload.Point", name); }

TEST(Overload, EachSignaturePublishesARecordSharingOneFunction) {
  std::vector<const TVMFFIMethodInfo*> picks = Methods("pick");
  ASSERT_EQ(picks.size(), 3u);
  EXPECT_EQ(picks[0]->method.v_obj, picks[1]->method.v_obj);
  EXPECT_EQ(picks[1]->method.v_obj, picks[2]->method.v_obj);
  std::string m0(picks[0]->metadata.data, picks[0]->metadata.size);
  std::string m1(picks[1]->metadata.data, picks[1]->metadata.size);
  EXPECT_NE(m0, m1);
  EXPECT_NE(m1.find("ffi.String"), std::string::npos) << m1;
  EXPECT_TRUE(picks[0]->flags & kTVMFFIFieldFlagBitMaskIsStaticMethod);
}

TEST(Overload, DispatchPicksTheOverloadWhoseArgumentsConvert) {
  Function pick = MethodFn("pick");
  EXPECT_EQ(pick(int64_t{7}).cast<int64_t>(), 7);
  EXPECT_EQ(pick(String("s")).cast<String>(), "s");
  EXPECT_DOUBLE_EQ(pick(1.5, 2.0).cast<double>(), 3.5);
}

TEST(Overload, ArgumentsMayConvertAsInPlainCalls) {
  // int -> float is a conversion the (double, double) overload accepts.
  EXPECT_DOUBLE_EQ(MethodFn("pick")(1, 2).cast<double>(), 3.0);
}

TEST(Overload, RegistrationOrderDecidesBetweenMatches) {
  Function pick_any = MethodFn("pick_any");
  EXPECT_EQ(pick_any(int64_t{3}).cast<int64_t>(), 3);
  EXPECT_EQ(pick_any(String("x")).cast<String>(), "any:ffi.SmallStr");
}

TEST(Overload, NoMatchListsEveryOverload) {
  std::string msg = ErrorMessage([] { MethodFn("pick")(2.5); }, "TypeError");
  EXPECT_EQ(msg,
            "No matching overload found when calling: `test.overload.Point.pick` with 1 "
            "arguments:\n"
            "Overload #0: Mismatched type on argument #0 when calling: "
            "`test.overload.Point.pick (0: int) -> int`. Expected `int` but got `float`\n"
            "Overload #1: Mismatched type on argument #0 when calling: "
            "`test.overload.Point.pick (0: str) -> str`. Expected `str` but got `float`\n"
            "Overload #2: Mismatched number of arguments when calling: "
            "`test.overload.Point.pick (0: float, 1: float) -> float`. Expected 2 arguments");
}

TEST(Overload, NoMatchReportsTheFirstBadArgument) {
  std::string msg = ErrorMessage([] { MethodFn("pick")(1.0, String("b")); }, "TypeError");
  EXPECT_NE(msg.find("Overload #2: Mismatched type on argument #1 when calling: "
                     "`test.overload.Point.pick (0: float, 1: float) -> float`. Expected `float`"),
            std::string::npos)
      << msg;
}

TEST(Overload, SingleOverloadConvertsLikeAPlainFunction) {
  EXPECT_EQ(ErrorMessage([] { MethodFn("single")(String("x")); }, "TypeError"),
            "Mismatched type on argument #0 when calling: "
            "`test.overload.Point.single(0: int) -> int`. Expected `int` but got `ffi.SmallStr`");
}

TEST(Overload, InitOverloadsShareTheInitAttribute) {
  refl::TypeAttrColumn init_col(refl::type_attr::kInit);
  Function init = init_col[OvPointObj::RuntimeTypeIndex()].cast<Function>();
  Any one = init(int64_t{4});
  Any two = init(int64_t{4}, String("ab"));
  EXPECT_EQ(one.as<OvPointObj>()->x, 4);
  EXPECT_EQ(two.as<OvPointObj>()->x, 204);
  EXPECT_EQ(Methods("__ffi_init__").size(), 2u);
  EXPECT_EQ(Methods("__ffi_init__")[0]->method.v_obj,
            ffi::detail::AnyUnsafe::GetTVMFFIAny(init_col[OvPointObj::RuntimeTypeIndex()])->v_obj);
}

TEST(Overload, InitWithWrongArityNamesTheInitFunction) {
  refl::TypeAttrColumn init_col(refl::type_attr::kInit);
  Function init = init_col[OvPointObj::RuntimeTypeIndex()].cast<Function>();
  std::string msg = ErrorMessage([&] { init(1, 2, 3); }, "TypeError");
  EXPECT_EQ(msg.rfind("No matching overload found when calling: "
                      "`test.overload.Point.__ffi_init__` with 3 arguments:",
                      0),
            0u)
      << msg;
}

TEST(Overload, InstanceMethodOverloadsTakeTheObjectFirst) {
  Any p = Any(ffi::ObjectRef(ffi::make_object<OvPointObj>(int64_t{3})));
  Function scale = MethodFn("scale");
  EXPECT_EQ(scale(p, int64_t{2}).cast<int64_t>(), 6);
  EXPECT_DOUBLE_EQ(scale(p, 0.5).cast<double>(), 1.5);
  EXPECT_FALSE(Methods("scale")[0]->flags & kTVMFFIFieldFlagBitMaskIsStaticMethod);
}

TEST(OverloadCast, SelectsFreeFunctionByParameters) {
  constexpr auto one = refl::overload_cast<int64_t>(&Pick);
  static_assert(std::is_same_v<decltype(one), int64_t (*const)(int64_t)>);
  EXPECT_EQ(one(5), 5);
  auto two = refl::overload_cast<int64_t, int64_t>(&Pick);
  EXPECT_EQ(two(1, 2), 12);
  auto str = refl::overload_cast<String>(&Pick);
  EXPECT_EQ(str(String("q")), "q");
}

TEST(OverloadCast, ConstTagSelectsTheConstMember) {
  auto mut = refl::overload_cast<int64_t>(&OvPointObj::Add);
  auto cst = refl::overload_cast<int64_t>(&OvPointObj::Add, refl::const_);
  static_assert(std::is_same_v<decltype(mut), int64_t (OvPointObj::*)(int64_t)>);
  static_assert(std::is_same_v<decltype(cst), int64_t (OvPointObj::*)(int64_t) const>);
  OvPointObj p(int64_t{1});
  EXPECT_EQ((p.*mut)(1), 2);
  EXPECT_EQ((p.*cst)(1), 3);
}

}  // namespace
