// Tests of AccessStep / AccessPath (reflection/access_path.h): object layouts
// and type keys, the step factories, path building and comparison, and the
// reflection the runtime registers for them (fields, methods, repr hooks).
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/access_path.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/string.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::String;
using ffi::reflection::AccessKind;
using ffi::reflection::AccessPath;
using ffi::reflection::AccessPathObj;
using ffi::reflection::AccessStep;
using ffi::reflection::AccessStepObj;

std::string TypeKeyOf(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  return std::string(info->type_key.data, info->type_key.size);
}

TEST(AccessPath, ObjectLayoutsMatchTheAbi) {
  EXPECT_EQ(offsetof(AccessStepObj, kind), 24u);
  EXPECT_EQ(offsetof(AccessStepObj, key), 32u);
  EXPECT_EQ(sizeof(AccessStepObj), 48u);
  EXPECT_EQ(offsetof(AccessPathObj, parent), 24u);
  EXPECT_EQ(offsetof(AccessPathObj, step), 32u);
  EXPECT_EQ(offsetof(AccessPathObj, depth), 40u);
  EXPECT_EQ(sizeof(AccessPathObj), 48u);
  EXPECT_EQ(sizeof(AccessKind), 4u);
}

TEST(AccessPath, TypesAreFinalConstTreeNodesWithTheirKeys) {
  EXPECT_EQ(TypeKeyOf(AccessStepObj::RuntimeTypeIndex()), "ffi.reflection.AccessStep");
  EXPECT_EQ(TypeKeyOf(AccessPathObj::RuntimeTypeIndex()), "ffi.reflection.AccessPath");
  EXPECT_TRUE(AccessStepObj::_type_final);
  EXPECT_TRUE(AccessPathObj::_type_final);
  EXPECT_EQ(AccessStepObj::_type_s_eq_hash_kind, kTVMFFISEqHashKindConstTreeNode);
  EXPECT_EQ(AccessPathObj::_type_s_eq_hash_kind, kTVMFFISEqHashKindConstTreeNode);
}

TEST(AccessPath, StepFactoriesSetKindAndKey) {
  EXPECT_EQ(AccessStep::Attr("a")->kind, AccessKind::kAttr);
  EXPECT_EQ(AccessStep::Attr("a")->key.cast<String>(), "a");
  EXPECT_EQ(AccessStep::AttrMissing("b")->kind, AccessKind::kAttrMissing);
  EXPECT_EQ(AccessStep::ArrayItem(3)->kind, AccessKind::kArrayItem);
  EXPECT_EQ(AccessStep::ArrayItem(3)->key.cast<int64_t>(), 3);
  EXPECT_EQ(AccessStep::ArrayItemMissing(4)->kind, AccessKind::kArrayItemMissing);
  EXPECT_EQ(AccessStep::MapItem(2.5)->kind, AccessKind::kMapItem);
  EXPECT_EQ(AccessStep::MapItem(2.5)->key.cast<double>(), 2.5);
  AccessStep missing = AccessStep::MapItemMissing();
  EXPECT_EQ(missing->kind, AccessKind::kMapItemMissing);
  EXPECT_EQ(missing->key.type_index(), kTVMFFINone);
}

TEST(AccessPath, StepEqualComparesKindAndKeyContent) {
  EXPECT_TRUE(AccessStep::Attr("name")->StepEqual(AccessStep::Attr(String(std::string("name")))));
  EXPECT_FALSE(AccessStep::Attr("a")->StepEqual(AccessStep::AttrMissing("a")));
  EXPECT_FALSE(AccessStep::ArrayItem(1)->StepEqual(AccessStep::ArrayItem(2)));
  EXPECT_TRUE(AccessStep::MapItem(String("a very long key beyond small strings"))
                  ->StepEqual(AccessStep::MapItem(String("a very long key beyond small strings"))));
  // AnyEqual: an int key is not a float key.
  EXPECT_FALSE(AccessStep::MapItem(1)->StepEqual(AccessStep::MapItem(1.0)));
}

TEST(AccessPath, RootHasDepthZeroAndNoParentOrStep) {
  AccessPath root = AccessPath::Root();
  EXPECT_EQ(root->depth, 0);
  EXPECT_FALSE(root->parent.has_value());
  EXPECT_FALSE(root->step.has_value());
  EXPECT_FALSE(root->GetParent().has_value());
  EXPECT_EQ(root->ToSteps().size(), 0u);
}

TEST(AccessPath, ExtendLinksToTheParentAndCountsDepth) {
  AccessPath root = AccessPath::Root();
  AccessPath a = root->Attr("a");
  AccessPath a2 = a->ArrayItem(2);
  EXPECT_EQ(a2->depth, 2);
  EXPECT_TRUE(a2->GetParent().value().same_as(a));
  EXPECT_TRUE(a->GetParent().value().same_as(root));
  EXPECT_TRUE(a2->step.value()->StepEqual(AccessStep::ArrayItem(2)));
  // Extending does not change the parent.
  EXPECT_EQ(a->depth, 1);
}

TEST(AccessPath, ToStepsListsRootToLeaf) {
  AccessPath p = AccessPath::Root()->Attr("a")->MapItem(String("k"))->ArrayItemMissing(3);
  ffi::Array<AccessStep> steps = p->ToSteps();
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_TRUE(steps[0]->StepEqual(AccessStep::Attr("a")));
  EXPECT_TRUE(steps[1]->StepEqual(AccessStep::MapItem(String("k"))));
  EXPECT_TRUE(steps[2]->StepEqual(AccessStep::ArrayItemMissing(3)));
}

TEST(AccessPath, FromStepsRebuildsAnEqualPath) {
  AccessPath p = AccessPath::Root()->Attr("x")->ArrayItem(0)->MapItemMissing(1);
  AccessPath q = AccessPath::FromSteps(p->ToSteps());
  EXPECT_FALSE(p.same_as(q));
  EXPECT_TRUE(p->PathEqual(q));
  EXPECT_TRUE(q->PathEqual(p));
  EXPECT_TRUE(AccessPath::FromSteps(ffi::Array<AccessStep>())->PathEqual(AccessPath::Root()));
}

TEST(AccessPath, PathEqualNeedsSameDepthAndSteps) {
  AccessPath root = AccessPath::Root();
  EXPECT_TRUE(root->PathEqual(AccessPath::Root()));
  EXPECT_TRUE(root->Attr("a")->PathEqual(AccessPath::Root()->Attr("a")));
  EXPECT_FALSE(root->Attr("a")->PathEqual(root->Attr("b")));
  EXPECT_FALSE(root->Attr("a")->PathEqual(root->Attr("a")->Attr("b")));
  EXPECT_FALSE(root->Attr("a")->ArrayItem(1)->PathEqual(root->Attr("b")->ArrayItem(1)));
  AccessPath shared = root->Attr("s");
  EXPECT_TRUE(shared->ArrayItem(0)->PathEqual(shared->ArrayItem(0)));
}

TEST(AccessPath, IsPrefixOfAcceptsAncestorsAndItself) {
  AccessPath root = AccessPath::Root();
  AccessPath p = root->Attr("a")->ArrayItem(2)->Attr("b");
  EXPECT_TRUE(root->IsPrefixOf(p));
  EXPECT_TRUE(AccessPath::Root()->Attr("a")->IsPrefixOf(p));
  EXPECT_TRUE(AccessPath::Root()->Attr("a")->ArrayItem(2)->IsPrefixOf(p));
  EXPECT_TRUE(p->IsPrefixOf(p));
  EXPECT_FALSE(p->IsPrefixOf(root->Attr("a")));
  EXPECT_FALSE(AccessPath::Root()->Attr("a")->ArrayItem(3)->IsPrefixOf(p));
}

TEST(AccessPath, ValuesRoundTripThroughAny) {
  AccessPath p = AccessPath::Root()->Attr("a");
  Any v = p;
  EXPECT_EQ(v.type_index(), AccessPathObj::RuntimeTypeIndex());
  AccessPath back = v.cast<AccessPath>();
  EXPECT_TRUE(back.same_as(p));
  EXPECT_FALSE(v.as<AccessStep>().has_value());
}

const TVMFFIFieldInfo* FindField(const TVMFFITypeInfo* info, const std::string& name) {
  for (int32_t i = 0; i < info->num_fields; ++i) {
    if (std::string(info->fields[i].name.data, info->fields[i].name.size) == name) {
      return &info->fields[i];
    }
  }
  return nullptr;
}

ffi::Function MethodOf(const char* type_key, const char* name) {
  return ffi::reflection::GetMethod(type_key, name);
}

/*! \brief The __ffi_repr__ hook of a type, called with a printer that quotes strings. */
std::string ReprByHook(const Any& value) {
  TVMFFIByteArray name{"__ffi_repr__", 12};
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&name);
  EXPECT_NE(col, nullptr);
  ffi::Function hook =
      ffi::AnyView::CopyFromTVMFFIAny(col->data[value.type_index() - col->begin_index])
          .cast<ffi::Function>();
  ffi::Function fn_repr = ffi::Function::FromTyped([](ffi::AnyView v) -> String {
    if (auto s = v.as<String>()) return String("\"" + std::string(*s) + "\"");
    if (v.type_index() == kTVMFFINone) return String("None");
    return String(std::to_string(v.cast<int64_t>()));
  });
  return std::string(hook(value, fn_repr).cast<String>());
}

TEST(AccessPathReflection, StepFieldsAreReadOnlyKindAndKey) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(AccessStepObj::RuntimeTypeIndex());
  ASSERT_EQ(info->num_fields, 2);
  const TVMFFIFieldInfo* kind = FindField(info, "kind");
  const TVMFFIFieldInfo* key = FindField(info, "key");
  ASSERT_NE(kind, nullptr);
  ASSERT_NE(key, nullptr);
  EXPECT_EQ(kind->offset, 24);
  EXPECT_EQ(key->offset, 32);
  EXPECT_EQ(kind->flags & kTVMFFIFieldFlagBitMaskWritable, 0);
  EXPECT_EQ(key->flags & kTVMFFIFieldFlagBitMaskWritable, 0);
  EXPECT_EQ(kind->field_static_type_index, kTVMFFIInt);
  AccessStep step = AccessStep::MapItem(String("k"));
  EXPECT_EQ(ffi::reflection::FieldGetter(kind)(step).cast<int64_t>(), 2);
  EXPECT_EQ(ffi::reflection::FieldGetter(key)(step).cast<String>(), "k");
}

TEST(AccessPathReflection, PathFieldsAreParentStepDepth) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(AccessPathObj::RuntimeTypeIndex());
  ASSERT_EQ(info->num_fields, 3);
  EXPECT_EQ(FindField(info, "parent")->offset, 24);
  EXPECT_EQ(FindField(info, "step")->offset, 32);
  EXPECT_EQ(FindField(info, "depth")->offset, 40);
  AccessPath p = AccessPath::Root()->Attr("a");
  EXPECT_EQ(ffi::reflection::FieldGetter(FindField(info, "depth"))(p).cast<int64_t>(), 1);
}

TEST(AccessPathReflection, MetadataIsConstTreeAndCreatable) {
  for (int32_t index : {AccessStepObj::RuntimeTypeIndex(), AccessPathObj::RuntimeTypeIndex()}) {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
    ASSERT_NE(info->metadata, nullptr);
    EXPECT_EQ(info->metadata->structural_eq_hash_kind, kTVMFFISEqHashKindConstTreeNode);
    EXPECT_EQ(info->metadata->total_size, 48);
    EXPECT_NE(info->metadata->creator, nullptr);
  }
}

TEST(AccessPathReflection, MethodsBuildPaths) {
  const char* key = "ffi.reflection.AccessPath";
  AccessPath root = MethodOf(key, "_root")().cast<AccessPath>();
  EXPECT_EQ(root->depth, 0);
  AccessPath p = MethodOf(key, "_attr")(root, "a").cast<AccessPath>();
  p = MethodOf(key, "_array_item")(p, 2).cast<AccessPath>();
  p = MethodOf(key, "_map_item")(p, "k").cast<AccessPath>();
  p = MethodOf(key, "_attr_missing")(p, "m").cast<AccessPath>();
  p = MethodOf(key, "_array_item_missing")(p, 3).cast<AccessPath>();
  p = MethodOf(key, "_map_item_missing")(p, 1.5).cast<AccessPath>();
  p = MethodOf(key, "_extend")(p, AccessStep::Attr("z")).cast<AccessPath>();
  AccessPath expected = AccessPath::Root()
                            ->Attr("a")
                            ->ArrayItem(2)
                            ->MapItem(String("k"))
                            ->AttrMissing("m")
                            ->ArrayItemMissing(3)
                            ->MapItemMissing(1.5)
                            ->Attr("z");
  EXPECT_TRUE(MethodOf(key, "_path_equal")(p, expected).cast<bool>());
  EXPECT_FALSE(MethodOf(key, "_path_equal")(p, root).cast<bool>());
  EXPECT_TRUE(MethodOf(key, "_is_prefix_of")(root, p).cast<bool>());
  EXPECT_FALSE(MethodOf(key, "_is_prefix_of")(p, root).cast<bool>());
  EXPECT_EQ(MethodOf(key, "_to_steps")(p).cast<ffi::Array<AccessStep>>().size(), 7u);
}

TEST(AccessPathReflection, StepReprHookFormatsEachKind) {
  EXPECT_EQ(ReprByHook(AccessStep::Attr("name")), ".name");
  EXPECT_EQ(ReprByHook(AccessStep::ArrayItem(2)), "[2]");
  EXPECT_EQ(ReprByHook(AccessStep::MapItem(String("k"))), "[\"k\"]");
  EXPECT_EQ(ReprByHook(AccessStep::AttrMissing("b")), "[<missing:\"b\">]");
  EXPECT_EQ(ReprByHook(AccessStep::ArrayItemMissing(3)), "[<missing:3>]");
  EXPECT_EQ(ReprByHook(AccessStep::MapItemMissing(String("k"))), "[<missing:\"k\">]");
}

TEST(AccessPathReflection, PathReprHookPrintsRootThenSteps) {
  EXPECT_EQ(ReprByHook(AccessPath::Root()), "<root>");
  AccessPath p = AccessPath::Root()
                     ->Attr("a")
                     ->AttrMissing("b")
                     ->ArrayItemMissing(3)
                     ->MapItemMissing(String("k"))
                     ->ArrayItem(1)
                     ->MapItem(Any());
  EXPECT_EQ(ReprByHook(p), "<root>.a[<missing:\"b\">][<missing:3>][<missing:\"k\">][1][None]");
}

}  // namespace
