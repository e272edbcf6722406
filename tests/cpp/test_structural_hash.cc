// StructuralHash (extra/structural_hash.h, global ffi.StructuralHash): values
// bit-exact with the reference implementation (figures observed from it for
// the same type keys), consistency with equality, kinds, regions and errors.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/extra/structural_hash.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>

#include "structural_test_types.h"
#include "testing_helpers.h"

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::Array;
using ffi::StructuralHash;
using namespace structural_test;  // NOLINT(build/namespaces)
using tvm_ffi_testing::ErrorMessage;

/*! \brief A tree node that gets its `__s_hash__` hook only after it was first hashed. */
class LateHookObj : public ffi::Object {
 public:
  int64_t v;
  explicit LateHookObj(int64_t v) : v(v) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.structural.LateHook", LateHookObj, ffi::Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  tvm::ffi::reflection::ObjectDef<LateHookObj>().def_ro("v", &LateHookObj::v);
}

uint64_t H(const Any& v, bool map_free_vars = false, bool skip = false) {
  return StructuralHash::Hash(v, map_free_vars, skip);
}

struct CPUAlloc {
  void AllocData(DLTensor* t) { t->data = std::malloc(ffi::GetDataSize(*t)); }
  void FreeData(DLTensor* t) { std::free(t->data); }
};

ffi::Tensor Arange2x3() {
  ffi::Tensor t = ffi::Tensor::FromNDAlloc(CPUAlloc(), {2, 3}, DLDataType{kDLFloat, 32, 1},
                                           DLDevice{kDLCPU, 0});
  float* data = static_cast<float*>(t->data);
  for (int i = 0; i < 6; ++i) data[i] = static_cast<float>(i);
  return t;
}

ffi::BigInt TwoPow100() { return ffi::BigInt(int64_t{1} << 50) * ffi::BigInt(int64_t{1} << 50); }

TEST(StructuralHash, PodValuesMatchTheReference) {
  EXPECT_EQ(H(Any()), 2654435769ULL);
  EXPECT_EQ(H(1), 2654435835ULL);
  EXPECT_EQ(H(true), 2654435896ULL);
  EXPECT_EQ(H(1.5), 4609434221268138618ULL);
}

TEST(StructuralHash, EveryNaNHashesAsTheCanonicalNaN) {
  uint64_t bits = 0xfff8000000000123ULL;
  double odd_nan;
  std::memcpy(&odd_nan, &bits, sizeof(double));
  EXPECT_EQ(H(std::numeric_limits<double>::quiet_NaN()), 9221120239695526522ULL);
  EXPECT_EQ(H(odd_nan), 9221120239695526522ULL);
}

TEST(StructuralHash, StringsMatchTheReferenceWhateverTheStorage) {
  EXPECT_EQ(H(ffi::String("a")), 2654439979ULL);
  EXPECT_EQ(H(ffi::String("hello world!!")), 4293989463ULL);
}

TEST(StructuralHash, BytesMatchTheReference) {
  EXPECT_EQ(H(ffi::Bytes("xy", 2)), 2654467640ULL);
  EXPECT_EQ(H(ffi::Bytes("0123456789", 10)), 4226898610ULL);
}

TEST(StructuralHash, SequencesMatchTheReference) {
  EXPECT_EQ(H(Array<int>{1, 2}), 2823322240268045181ULL);
  ffi::List<Any> inner{2.5, Any()};
  EXPECT_EQ(H(ffi::List<Any>{1, inner}), 17743343387249699222ULL);
}

TEST(StructuralHash, MapsHashEntriesSortedByKeyHash) {
  EXPECT_EQ(H(ffi::Map<Any, Any>()), 11694236735499009312ULL);
  EXPECT_EQ(H(ffi::Map<ffi::String, int>{{"a", 1}, {"b", 2}}), 8387368743028195433ULL);
  // Insertion order does not matter.
  EXPECT_EQ(H(ffi::Map<ffi::String, int>{{"b", 2}, {"a", 1}}), 8387368743028195433ULL);
}

TEST(StructuralHash, MapObjectKeysCountOnlyOnceHashedEarlier) {
  ffi::ObjectRef x = Var("x", 1);
  ffi::Map<Any, Any> m{{x, 1}, {ffi::String("k"), 2}};
  EXPECT_EQ(H(Array<Any>{x, m}, true), 18020225946501053254ULL);
}

TEST(StructuralHash, ShapeAndTensorMatchTheReference) {
  EXPECT_EQ(H(ffi::Shape({1, 2, 3})), 18303753571599008411ULL);
  EXPECT_EQ(H(Arange2x3()), 9518699746703856482ULL);
  EXPECT_EQ(H(Arange2x3(), false, true), 5983373821381510500ULL);
}

TEST(StructuralHash, TensorContentChangesTheHashUnlessSkipped) {
  ffi::Tensor a = Arange2x3();
  ffi::Tensor b = Arange2x3();
  static_cast<float*>(b->data)[5] = 42.0f;
  EXPECT_NE(H(a), H(b));
  EXPECT_EQ(H(a, false, true), H(b, false, true));
}

TEST(StructuralHash, BigIntsMatchTheReference) {
  EXPECT_EQ(H(TwoPow100()), 2654440738ULL);
  EXPECT_EQ(H(-TwoPow100()), 4801924449ULL);
}

TEST(StructuralHash, TreeObjectsMatchTheReference) {
  EXPECT_EQ(H(Add(1, 2)), 17962002781250634003ULL);
  EXPECT_EQ(H(Make<SingleObj>(1, 2)), 10047195952011364065ULL);
  EXPECT_EQ(H(Make<ConstObj>(1, 2)), 5901656234997407261ULL);
}

TEST(StructuralHash, BoundVariablesMatchTheReference) {
  ffi::ObjectRef x = Var("x", 1);
  EXPECT_EQ(H(Add(x, 1), true), 9226003301751063699ULL);
  EXPECT_EQ(H(Var("v", Array<Any>{1, "a"}), true), 13109911152762127378ULL);
  EXPECT_EQ(H(Lam(Array<Any>{x}, Add(x, 1))), 5178261509899888308ULL);
  EXPECT_EQ(H(Let(x, 1, Add(x, x))), 390062735974624415ULL);
}

TEST(StructuralHash, DagSharingMatchesTheReference) {
  ffi::ObjectRef a0 = DAdd(1, 2);
  ffi::ObjectRef a1 = DAdd(1, 2);
  EXPECT_EQ(H(Add(a0, a0)), 15737614483047522711ULL);
  EXPECT_EQ(H(Add(a1, a0)), 15737614483047522710ULL);
}

TEST(StructuralHash, FreeVariablesHashByIdentityOutsideDefinitions) {
  ffi::ObjectRef x = Var("x", 1);
  ffi::ObjectRef y = Var("y", 1);
  EXPECT_NE(H(x), H(y));
  EXPECT_EQ(H(x), H(x));
  EXPECT_EQ(H(x, true), H(y, true));
  EXPECT_EQ(H(Lam(Array<Any>{x}, x)), H(Lam(Array<Any>{y}, y)));
}

TEST(StructuralHash, VariableNameIsIgnored) {
  EXPECT_EQ(H(Var("x", 1), true), H(Var("other", 1), true));
  EXPECT_NE(H(Var("x", 1), true), H(Var("x", 2), true));
}

TEST(StructuralHash, HooksReplaceTheFieldWalk) {
  EXPECT_EQ(H(Make<HookedObj>(1, 2)), H(Make<HookedObj>(1, 3)));
  EXPECT_NE(H(Make<HookedObj>(1, 2)), H(Make<HookedObj>(2, 2)));
  // The hook hashes `a` under a pattern region: free variables there bind.
  EXPECT_EQ(H(Make<HookedObj>(Var("x"), 0)), H(Make<HookedObj>(Var("y"), 0)));
}

TEST(StructuralHash, TypesWithoutKindRaiseTypeError) {
  EXPECT_EQ(ErrorMessage([] { H(Make<NoKindObj>(1, 2)); }),
            "_type_s_eq_hash_kind is not set for type `test.structural.NoKind`, so "
            "StructuralHash is not supported for this type");
}

TEST(StructuralHash, TypesWithoutMetadataRaiseTypeError) {
  ffi::Function f = ffi::Function::FromTyped([]() { return 1; });
  EXPECT_EQ(ErrorMessage([&] { H(Array<Any>{f}); }),
            "Type metadata is not set for type `ffi.Function`, so StructuralHash is not "
            "supported for this type");
}

TEST(StructuralHash, FunctorHashesLikeHash) {
  EXPECT_EQ(StructuralHash()(Array<int>{1, 2}), 2823322240268045181ULL);
}

// ---- containers nested deeper than the stack, and containers holding themselves ----

/*! \brief A value nested `depth` levels deep in containers of the kind make builds. */
template <typename Make>
Any Nest(int depth, Make make) {
  Any v = 1;
  for (int i = 0; i < depth; ++i) v = make(v);
  return v;
}

constexpr int kDeep = 100000;

TEST(StructuralHashDeep, ArraysNestedDeeperThanTheStackHash) {
  Any a = Nest(kDeep, [](const Any& v) { return Any(Array<Any>({v})); });
  Any b = Nest(kDeep, [](const Any& v) { return Any(Array<Any>({v})); });
  uint64_t ha = 0, hb = 0;
  tvm_ffi_testing::RunWithSmallStack([&] {
    ha = H(a);
    hb = H(b);
  });
  EXPECT_EQ(ha, hb);
  EXPECT_NE(ha, H(Nest(kDeep - 1, [](const Any& v) { return Any(Array<Any>({v})); })));
}

TEST(StructuralHashDeep, ListsMapsAndDictsNestedDeeperThanTheStackHash) {
  Any list = Nest(kDeep, [](const Any& v) { return Any(ffi::List<Any>({v})); });
  Any map = Nest(kDeep, [](const Any& v) { return Any(ffi::Map<Any, Any>({{1, v}})); });
  Any dict = Nest(kDeep, [](const Any& v) { return Any(ffi::Dict<Any, Any>({{1, v}})); });
  tvm_ffi_testing::RunWithSmallStack([&] {
    EXPECT_NE(H(list), 0u);
    EXPECT_NE(H(map), H(dict));
  });
}

TEST(StructuralHashDeep, IterativeHashEqualsTheShallowDefinition) {
  // Array [1, Map {"k": [2]}]: type/size header, then each element (a map's entries by key).
  Any v = Array<Any>({1, ffi::Map<Any, Any>({{ffi::String("k"), Array<Any>({2})}})});
  Any same = Array<Any>({1, ffi::Map<Any, Any>({{ffi::String("k"), Array<Any>({2})}})});
  Any other = Array<Any>({1, ffi::Map<Any, Any>({{ffi::String("k"), Array<Any>({3})}})});
  EXPECT_EQ(H(v), H(same));
  EXPECT_NE(H(v), H(other));
}

TEST(StructuralHashDeep, ListHoldingItselfRaisesValueError) {
  ffi::List<Any> l({1});
  l.push_back(l);
  EXPECT_EQ(ErrorMessage([&] { H(l); }, "ValueError"),
            "StructuralHash: the ffi.List contains itself (a reference cycle), which has no "
            "finite structure to compare or hash");
  l.clear();
}

TEST(StructuralHashDeep, DictHoldingItselfRaisesValueError) {
  ffi::Dict<Any, Any> d;
  d.Set(1, d);
  EXPECT_NE(ErrorMessage([&] { H(d); }, "ValueError").find("ffi.Dict contains itself"),
            std::string::npos);
  d.clear();
}

TEST(StructuralHashDeep, SharedButAcyclicListsHashNormally) {
  ffi::List<Any> inner({1, 2});
  Any v = Array<Any>({inner, inner, Array<Any>({inner})});
  EXPECT_EQ(H(v), H(Array<Any>({ffi::List<Any>({1, 2}), ffi::List<Any>({1, 2}),
                                Array<Any>({ffi::List<Any>({1, 2})})})));
}

TEST(StructuralHash, MapWithBigIntKeysHashesItsValues) {
  ffi::BigInt a = ffi::BigInt(1) << 255;
  ffi::Map<Any, Any> first{{a, 7}, {-a, 8}};
  ffi::Map<Any, Any> other_value{{a, 9}, {-a, 8}};
  ffi::Map<Any, Any> aliased{{-(ffi::BigInt(2) << 254), 8}, {ffi::BigInt(4) << 253, 7}};
  EXPECT_NE(H(first), H(other_value));
  EXPECT_EQ(H(first), H(aliased));
}

TEST(StructuralHash, HookRegisteredAfterAHashIsUsedByTheNextOne) {
  ffi::ObjectRef one(ffi::make_object<LateHookObj>(1));
  ffi::ObjectRef two(ffi::make_object<LateHookObj>(2));
  EXPECT_NE(H(one), H(two));  // hashed field by field, and the engine's type cache filled
  Any hook = ffi::Function::FromTyped([](ffi::ObjectRef, int64_t, ffi::Function) -> int64_t {
    return 42;  // ignores the field
  });
  TVMFFIByteArray name{"__s_hash__", 10};
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(LateHookObj::RuntimeTypeIndex(), &name,
                                                 ffi::detail::AnyUnsafe::GetTVMFFIAny(hook)));
  EXPECT_EQ(H(one), H(two));
}

}  // namespace
