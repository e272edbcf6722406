// Tests of the object declaration macros and object.h vocabulary: user-declared
// type configuration (child slots, final, mutable, structural-equality kind)
// before or after the macros, _type_index as the runtime index, instance checks
// over reserved slots and overflow, LOOKUP/STATIC declarations, ObjectRef::as<R>,
// as_or_throw, weak pointers, Object::unique and the ObjectUnsafe helpers.
#include <gtest/gtest.h>

#include <tvm/ffi/any.h>
#include <tvm/ffi/cast.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>
#include <tvm/ffi/variant.h>
#include "testing_helpers.h"

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

namespace decl_fwd {
class LaterNode;  // defined below; containers of pointers to it are declared first
}  // namespace decl_fwd

// Declaring an incomplete type an object lets Arc/ObjectPtr of it be stored before it is defined.
template <>
inline constexpr bool tvm::ffi::is_object_subclass_v<decl_fwd::LaterNode> = true;
static_assert(tvm::ffi::detail::storage_enabled_v<tvm::ffi::Arc<decl_fwd::LaterNode>>);
static_assert(tvm::ffi::detail::storage_enabled_v<tvm::ffi::ObjectPtr<decl_fwd::LaterNode>>);

namespace decl_fwd {
class LaterNode : public tvm::ffi::Object {
 public:
  tvm::ffi::Array<tvm::ffi::Arc<LaterNode>> children;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.decl.Later", LaterNode, tvm::ffi::Object);
};
}  // namespace decl_fwd

namespace {

namespace ffi = tvm::ffi;
using tvm_ffi_testing::ErrorMessage;

class ShapeNode : public ffi::Object {
 public:
  static constexpr const uint32_t _type_child_slots = 2;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("test.decl.Shape", ShapeNode, ffi::Object);
};

class CircleNode : public ShapeNode {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.decl.Circle", CircleNode, ShapeNode);
};

class PolygonNode : public ShapeNode {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO("test.decl.Polygon", PolygonNode, ShapeNode);
  // Declared after the macro: children of a polygon may overflow nothing.
  static constexpr const uint32_t _type_child_slots = 0;
  static constexpr bool _type_child_slots_can_overflow = true;
};

// A grandchild of ShapeNode beyond its two reserved slots: found through the
// ancestor table.
class SquareNode : public PolygonNode {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.decl.Square", SquareNode, PolygonNode);
};

class Shape : public ffi::ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Shape, ffi::ObjectRef, ShapeNode);
};

class Circle : public Shape {
 public:
  Circle() { data_ = ffi::make_object<CircleNode>(); }
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Circle, Shape, CircleNode);
};

class CounterObj : public ffi::Object {
 public:
  int64_t count = 0;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.decl.Counter", CounterObj, ffi::Object);
};

class Counter : public ffi::ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Counter, ffi::ObjectRef, CounterObj);
};

// A C++ view of the built-in Function type, found by key.
class FunctionView : public ffi::Object {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP("ffi.Function", 1);
};

TEST(ObjectDecl, UserDeclaredConfigurationIsKept) {
  EXPECT_EQ(ShapeNode::_type_child_slots, 2u);
  EXPECT_FALSE(ShapeNode::_type_final);
  EXPECT_TRUE(CircleNode::_type_final);
  EXPECT_EQ(CircleNode::_type_child_slots, 0u);
  EXPECT_EQ(ShapeNode::_type_s_eq_hash_kind, kTVMFFISEqHashKindTreeNode);
  // Inherited from the parent when the class does not declare it.
  EXPECT_EQ(CircleNode::_type_s_eq_hash_kind, kTVMFFISEqHashKindTreeNode);
  EXPECT_EQ(SquareNode::_type_depth, 3);
  EXPECT_TRUE(CounterObj::_type_mutable);
  EXPECT_FALSE(ShapeNode::_type_mutable);
}

TEST(ObjectDecl, TypeIndexIsTheRuntimeIndex) {
  EXPECT_GE(ShapeNode::_type_index, kTVMFFIDynObjectBegin);
  EXPECT_EQ(ShapeNode::_type_index, ShapeNode::RuntimeTypeIndex());
  EXPECT_EQ(CircleNode::_type_index, CircleNode::RuntimeTypeIndex());
  EXPECT_EQ(ffi::make_object<CircleNode>()->type_index(), CircleNode::_type_index);
  EXPECT_EQ(ffi::TypeIndexToTypeKey(CircleNode::_type_index), "test.decl.Circle");
}

TEST(ObjectDecl, ReservedChildSlotsHoldTheFirstChildren) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(CircleNode::RuntimeTypeIndex());
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->type_ancestors[1]->type_index, ShapeNode::RuntimeTypeIndex());
  int32_t circle = CircleNode::RuntimeTypeIndex();
  int32_t polygon = PolygonNode::RuntimeTypeIndex();
  int32_t shape = ShapeNode::RuntimeTypeIndex();
  EXPECT_GT(circle, shape);
  EXPECT_LE(circle, shape + 2);
  EXPECT_GT(polygon, shape);
  EXPECT_LE(polygon, shape + 2);
}

TEST(ObjectDecl, IsInstanceFollowsTheHierarchy) {
  ffi::ObjectRef circle(ffi::make_object<CircleNode>());
  ffi::ObjectRef square(ffi::make_object<SquareNode>());
  ffi::ObjectRef counter(ffi::make_object<CounterObj>());
  EXPECT_TRUE(circle->IsInstance<ShapeNode>());
  EXPECT_TRUE(circle->IsInstance<CircleNode>());
  EXPECT_FALSE(circle->IsInstance<PolygonNode>());
  EXPECT_TRUE(square->IsInstance<ShapeNode>());
  EXPECT_TRUE(square->IsInstance<PolygonNode>());
  EXPECT_FALSE(square->IsInstance<CircleNode>());
  EXPECT_FALSE(counter->IsInstance<ShapeNode>());
  EXPECT_TRUE(counter->IsInstance<ffi::Object>());
}

TEST(ObjectDecl, IsObjectInstanceTakesAnIndex) {
  EXPECT_TRUE(ffi::detail::IsObjectInstance<ShapeNode>(SquareNode::RuntimeTypeIndex()));
  EXPECT_FALSE(ffi::detail::IsObjectInstance<PolygonNode>(CircleNode::RuntimeTypeIndex()));
  EXPECT_FALSE(ffi::detail::IsObjectInstance<ShapeNode>(kTVMFFIFunction));
}

TEST(ObjectDecl, RuntimeTypeIndexMatchRules) {
  using ffi::detail::RuntimeTypeIndexMatch;
  EXPECT_TRUE(RuntimeTypeIndexMatch(kTVMFFIInt, kTVMFFIAny));
  EXPECT_TRUE(RuntimeTypeIndexMatch(kTVMFFISmallStr, kTVMFFIStr));
  EXPECT_TRUE(RuntimeTypeIndexMatch(kTVMFFISmallBytes, kTVMFFIBytes));
  EXPECT_FALSE(RuntimeTypeIndexMatch(kTVMFFISmallStr, kTVMFFIBytes));
  EXPECT_TRUE(RuntimeTypeIndexMatch(kTVMFFIArray, kTVMFFIObject));
  EXPECT_FALSE(RuntimeTypeIndexMatch(kTVMFFIInt, kTVMFFIFloat));
  EXPECT_FALSE(RuntimeTypeIndexMatch(kTVMFFINone, kTVMFFIObject));
  EXPECT_TRUE(RuntimeTypeIndexMatch(SquareNode::RuntimeTypeIndex(), ShapeNode::RuntimeTypeIndex()));
  EXPECT_FALSE(
      RuntimeTypeIndexMatch(CircleNode::RuntimeTypeIndex(), PolygonNode::RuntimeTypeIndex()));
}

TEST(ObjectDecl, MutableObjectRefHandsOutNonConstPointer) {
  static_assert(std::is_same_v<decltype(std::declval<Counter>().get()), CounterObj*>);
  static_assert(std::is_same_v<decltype(std::declval<Shape>().get()), const ShapeNode*>);
  Counter c(ffi::make_object<CounterObj>());
  c->count += 2;
  EXPECT_EQ(c.get()->count, 2);
}

TEST(ObjectDecl, LookupMacroFindsRegisteredType) {
  EXPECT_EQ(FunctionView::RuntimeTypeIndex(), kTVMFFIFunction);
  EXPECT_EQ(FunctionView::_type_depth, 1);
  EXPECT_TRUE(FunctionView::_type_mutable);
}

TEST(ObjectDecl, StaticDeclarationKeepsTheFixedIndex) {
  EXPECT_EQ(ffi::FunctionObj::RuntimeTypeIndex(), kTVMFFIFunction);
  EXPECT_EQ(ffi::FunctionObj::_GetOrAllocRuntimeTypeIndex(), kTVMFFIFunction);
}

TEST(ObjectDecl, ObjectRefContainsChecksTheContainerType) {
  static_assert(ffi::object_ref_contains_v<Shape, CircleNode>);
  static_assert(!ffi::object_ref_contains_v<Circle, ShapeNode>);
  static_assert(ffi::object_ref_contains_v<ffi::Optional<Shape>::value_type, SquareNode>);
  static_assert(ffi::is_object_subclass_v<SquareNode>);
  static_assert(!ffi::is_object_subclass_v<Shape>);
}

TEST(ObjectRefAs, ReferenceClassOnMatch) {
  ffi::ObjectRef ref = Circle();
  std::optional<Circle> c = ref.as<Circle>();
  ASSERT_TRUE(c.has_value());
  EXPECT_TRUE(c->same_as(ref));
  EXPECT_FALSE(ffi::ObjectRef(ffi::make_object<CounterObj>()).as<Shape>().has_value());
}

TEST(ObjectRefAs, NullRefIsNullForNullableAndEmptyOtherwise) {
  ffi::ObjectRef null_ref;
  std::optional<Shape> shape = null_ref.as<Shape>();
  ASSERT_TRUE(shape.has_value());
  EXPECT_FALSE(shape->defined());
  EXPECT_FALSE(null_ref.as<Circle>().has_value());
}

TEST(ObjectRefAs, RvalueMovesTheReference) {
  ffi::ObjectRef ref = Circle();
  std::optional<Circle> c = std::move(ref).as<Circle>();
  ASSERT_TRUE(c.has_value());
  EXPECT_FALSE(ref.defined());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(c->use_count(), 1);
}

TEST(ObjectRefAs, AsOrThrowNamesBothTypes) {
  ffi::ObjectRef counter(ffi::make_object<CounterObj>());
  std::string msg = ErrorMessage([&] { counter.as_or_throw<Shape>(); }, "TypeError");
  EXPECT_NE(msg.find("Cannot treat type `"), std::string::npos) << msg;
  EXPECT_NE(msg.find("test.decl.Counter"), std::string::npos) << msg;
  EXPECT_EQ(ErrorMessage([&] { ffi::ObjectRef().as_or_throw<Circle>(); }, "TypeError")
                .find("Cannot treat type `None` as type `"),
            0u);
  EXPECT_TRUE(ffi::ObjectRef(Circle()).as_or_throw<Shape>().defined());
}

TEST(WeakObjectPtr, UpcastSwapAndUseCount) {
  ffi::ObjectPtr<CircleNode> strong = ffi::make_object<CircleNode>();
  ffi::WeakObjectPtr<ffi::Object> weak(strong);
  EXPECT_EQ(weak.use_count(), 1);
  ffi::WeakObjectPtr<CircleNode> typed(strong);
  ffi::WeakObjectPtr<ShapeNode> upcast(typed);
  ffi::WeakObjectPtr<ffi::Object> empty(nullptr);
  empty.swap(weak);
  EXPECT_TRUE(weak.expired());
  EXPECT_EQ(empty.lock().get(), strong.get());
  strong.reset();
  EXPECT_EQ(upcast.use_count(), 0);
  EXPECT_TRUE(upcast.expired());
}

TEST(Object, UniqueCountsWeakReferences) {
  ffi::ObjectPtr<CircleNode> p = ffi::make_object<CircleNode>();
  EXPECT_TRUE(p->unique());
  EXPECT_TRUE(p.unique());
  ffi::WeakObjectPtr<CircleNode> weak(p);
  EXPECT_FALSE(p->unique());
  EXPECT_FALSE(p.unique());
  EXPECT_EQ(p->use_count(), 1u);
}

TEST(Object, TypeKeyHashAndIndexToKey) {
  ffi::ObjectPtr<CircleNode> p = ffi::make_object<CircleNode>();
  EXPECT_EQ(p->GetTypeKeyHash(), TVMFFIGetTypeInfo(p->type_index())->type_key_hash);
  EXPECT_EQ(ffi::Object::TypeIndex2Key(kTVMFFIArray), "ffi.Array");
}

TEST(Object, DecRefSkipsMissingDeleter) {
  // A statically allocated object has no deleter: releasing the last
  // reference must not call through a null pointer.
  static CircleNode on_stack;
  TVMFFIObject* header = ffi::detail::ObjectUnsafe::GetHeader(&on_stack);
  header->combined_ref_count = ffi::detail::kCombinedRefCountBothOne;
  ffi::detail::ObjectUnsafe::DecRefObjectHandle(header);
  // The strong reference is gone; nothing was called to free the object.
  EXPECT_EQ(header->combined_ref_count, ffi::detail::kCombinedRefCountWeakOne);
}

TEST(ObjectUnsafe, HandleRoundTrips) {
  using U = ffi::detail::ObjectUnsafe;
  Circle c;
  const ffi::Object* raw = U::RawObjectPtrFromObjectRef(c);
  TVMFFIObject* handle = U::MoveObjectRefToTVMFFIObjectPtr(std::move(c));
  EXPECT_FALSE(c.defined());  // NOLINT(bugprone-use-after-move)
  ffi::ObjectPtr<CircleNode> back = U::ObjectPtrFromOwned<CircleNode>(handle);
  EXPECT_EQ(back.get(), raw);
  EXPECT_EQ(back.use_count(), 1);
  U::IncRefObjectHandle(U::TVMFFIObjectPtrFromObjectPtr(back));
  EXPECT_EQ(back.use_count(), 2);
  U::DecRefObjectHandle(U::TVMFFIObjectPtrFromObjectPtr(back));
  U::DecRefObjectHandle(nullptr);
  EXPECT_EQ(back.use_count(), 1);
  EXPECT_EQ(U::GetObjectOffsetToSubclass<CircleNode>(), 0);
}

TEST(GetRef, ReturnsNewReference) {
  Circle c;
  Circle again = ffi::GetRef<Circle>(c.get());
  EXPECT_TRUE(again.same_as(c));
  EXPECT_EQ(c.use_count(), 2);
}

TEST(GetRef, NullGivesEmptyOptionalOrNullRef) {
  const CircleNode* null_node = nullptr;
  EXPECT_FALSE(ffi::GetRef<ffi::Optional<Shape>>(null_node).has_value());
  EXPECT_FALSE(ffi::GetRef<Shape>(null_node).defined());
}

TEST(GetRef, NullIntoNonNullableThrowsInternalError) {
  const CircleNode* null_node = nullptr;
  ErrorMessage([&] { ffi::GetRef<Circle>(null_node); }, "InternalError");
}

TEST(GetObjectPtr, UpcastsToBase) {
  Circle c;
  ffi::ObjectPtr<ShapeNode> p = ffi::GetObjectPtr<ShapeNode>(c.get());
  EXPECT_EQ(p.get(), c.get());
  EXPECT_EQ(c.use_count(), 2);
}

}  // namespace

namespace {

TEST(ObjectPtrHash, VariantOfReferencesHashesTheObject) {
  Circle c;
  tvm::ffi::Variant<Shape, Counter> a = Shape(c), b = Shape(c);
  tvm::ffi::Variant<Shape, Counter> other = Counter(tvm::ffi::make_object<CounterObj>());
  EXPECT_EQ(tvm::ffi::ObjectPtrHash()(a), tvm::ffi::ObjectPtrHash()(c));
  EXPECT_TRUE(tvm::ffi::ObjectPtrEqual()(a, b));
  EXPECT_FALSE(tvm::ffi::ObjectPtrEqual()(a, other));
}

TEST(ObjectDecl, TypedContainersAreNotExactContainers) {
  static_assert(ffi::ObjectRef::_type_container_is_exact);
  static_assert(Shape::_type_container_is_exact);
  static_assert(!ffi::Array<Shape>::_type_container_is_exact);
  static_assert(!ffi::Map<ffi::String, Shape>::_type_container_is_exact);
  static_assert(!ffi::Variant<Shape, int64_t>::_type_container_is_exact);
  static_assert(!ffi::object_ref_contains_v<ffi::Array<Shape>, ffi::ArrayObj>);
  // GetRef still makes a typed container from its object.
  ffi::Array<Shape> arr;
  EXPECT_TRUE(ffi::GetRef<ffi::Array<Shape>>(arr.get()).same_as(arr));
}

TEST(ObjectDecl, PointersToConstObjectsHaveNoAnyForm) {
  static_assert(!ffi::TypeTraits<ffi::ObjectPtr<const SquareNode>>::convert_enabled);
  static_assert(!ffi::TypeTraits<ffi::ObjectPtr<const SquareNode>>::storage_enabled);
  static_assert(ffi::TypeTraits<ffi::ObjectPtr<SquareNode>>::storage_enabled);
  static_assert(ffi::TypeToFieldStaticTypeIndex<ffi::ObjectPtr<SquareNode>>::value ==
                kTVMFFIObject);
}

TEST(ObjectDecl, GetRefOfOptionalIsEmptyForNull) {
  const SquareNode* none = nullptr;
  EXPECT_FALSE(ffi::GetRef<ffi::Optional<Shape>>(none).has_value());
}

TEST(ObjectDecl, ForwardDeclaredObjectHoldsPointersToItsOwnType) {
  ffi::Arc<decl_fwd::LaterNode> leaf = ffi::make_arc<decl_fwd::LaterNode>();
  auto root = ffi::make_object<decl_fwd::LaterNode>();
  root->children.push_back(leaf);
  EXPECT_EQ(root->children[0].get(), leaf.get());
}

}  // namespace
