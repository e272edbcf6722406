// Tests of object reference counting, opaque objects, the type registry and
// lazy globals, through the C API only (the ABI other implementations use).
#include <gtest/gtest.h>
#include <tvm/ffi/c_api.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

constexpr uint64_t kWeakOne = uint64_t(1) << 32;

/*! \brief Take the raised error; return its (kind, message) and release it. */
std::pair<std::string, std::string> TakeError() {
  TVMFFIObjectHandle err = nullptr;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == nullptr) return {"<none>", "<none>"};
  EXPECT_EQ(static_cast<TVMFFIObject*>(err)->type_index, kTVMFFIError);
  const TVMFFIErrorCell* cell = reinterpret_cast<const TVMFFIErrorCell*>(
      static_cast<const char*>(err) + sizeof(TVMFFIObject));
  std::pair<std::string, std::string> out(std::string(cell->kind.data, cell->kind.size),
                                          std::string(cell->message.data, cell->message.size));
  TVMFFIObjectDecRef(err);
  return out;
}

TVMFFIByteArray Bytes(const char* s) { return TVMFFIByteArray{s, std::strlen(s)}; }

std::string Key(const TVMFFITypeInfo* info) {
  return std::string(info->type_key.data, info->type_key.size);
}

/*! \brief Text of a string Any, held either inline (SmallStr) or as a String object. */
std::string AnyString(const TVMFFIAny& v) {
  if (v.type_index == kTVMFFISmallStr) return std::string(v.v_bytes, v.small_str_len);
  if (v.type_index == kTVMFFIStr) {
    const TVMFFIByteArray* cell = reinterpret_cast<const TVMFFIByteArray*>(
        reinterpret_cast<const char*>(v.v_obj) + sizeof(TVMFFIObject));
    return std::string(cell->data, cell->size);
  }
  return "<not a string: type index " + std::to_string(v.type_index) + ">";
}

/*! \brief The inline instance rule of docs/abi.md §2.6 (for a non-final target). */
bool IsInstance(int32_t object_index, int32_t target_index) {
  if (object_index == target_index) return true;
  const TVMFFITypeInfo* obj = TVMFFIGetTypeInfo(object_index);
  const TVMFFITypeInfo* target = TVMFFIGetTypeInfo(target_index);
  return obj->type_depth > target->type_depth &&
         obj->type_ancestors[target->type_depth]->type_index == target_index;
}

int32_t Register(const char* key, int32_t depth, int32_t parent, int32_t slots = 0,
                 int32_t overflow = 1) {
  TVMFFIByteArray k = Bytes(key);
  return TVMFFITypeGetOrAllocIndex(&k, -1, depth, slots, overflow, parent);
}

// ---------------------------------------------------------------------------
// Reference counting
// ---------------------------------------------------------------------------

/*! \brief A hand-made object that records the deleter flags it receives. */
struct CountedObject {
  TVMFFIObject header;
  std::vector<int> flags;
  bool drop_weak_in_destructor = false;
};

void RecordingDeleter(void* self, int flags) {
  CountedObject* obj = static_cast<CountedObject*>(self);
  obj->flags.push_back(flags);
  if ((flags & 1) && obj->drop_weak_in_destructor) {
    // Simulates a weak reference released (elsewhere) while the destructor runs.
    __atomic_fetch_sub(&obj->header.combined_ref_count, kWeakOne, __ATOMIC_RELEASE);
  }
}

void InitCounted(CountedObject* obj) {
  obj->header.combined_ref_count = kWeakOne | 1;
  obj->header.type_index = kTVMFFIObject;
  obj->header.__padding = 0;
  obj->header.deleter = RecordingDeleter;
}

/*! \brief Release a weak reference following the inline rule of docs/abi.md §2.3. */
void WeakDecRef(CountedObject* obj) {
  uint64_t old = __atomic_fetch_sub(&obj->header.combined_ref_count, kWeakOne, __ATOMIC_RELEASE);
  if (old == kWeakOne) {
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    obj->header.deleter(obj, 2);
  }
}

TEST(CAPIObject, Version) {
  TVMFFIVersion v{9, 9, 9};
  TVMFFIGetVersion(&v);
  EXPECT_EQ(v.major, 0u);
  EXPECT_EQ(v.minor, 1u);
  EXPECT_EQ(v.patch, 16u);
}

TEST(CAPIObject, NullHandleIsNoOp) {
  EXPECT_EQ(TVMFFIObjectIncRef(nullptr), 0);
  EXPECT_EQ(TVMFFIObjectDecRef(nullptr), 0);
}

TEST(CAPIObject, StrongOnlyLifeEndsWithBoth) {
  CountedObject obj;
  InitCounted(&obj);
  TVMFFIObjectIncRef(&obj);
  EXPECT_EQ(obj.header.combined_ref_count, kWeakOne | 2);
  TVMFFIObjectDecRef(&obj);
  EXPECT_TRUE(obj.flags.empty());
  TVMFFIObjectDecRef(&obj);
  EXPECT_EQ(obj.flags, std::vector<int>({3}));
}

TEST(CAPIObject, WeakRefOutlivesStrong) {
  CountedObject obj;
  InitCounted(&obj);
  obj.header.combined_ref_count += kWeakOne;  // a weak reference held elsewhere
  TVMFFIObjectDecRef(&obj);
  EXPECT_EQ(obj.flags, std::vector<int>({1}));
  EXPECT_EQ(obj.header.combined_ref_count, kWeakOne);
  WeakDecRef(&obj);
  EXPECT_EQ(obj.flags, std::vector<int>({1, 2}));
}

TEST(CAPIObject, DecRefFreesWhenWeakDroppedDuringDestruction) {
  CountedObject obj;
  InitCounted(&obj);
  obj.header.combined_ref_count += kWeakOne;
  obj.drop_weak_in_destructor = true;
  TVMFFIObjectDecRef(&obj);
  // The runtime's own weak release found the count at exactly 1 << 32.
  EXPECT_EQ(obj.flags, std::vector<int>({1, 2}));
  EXPECT_EQ(obj.header.combined_ref_count, 0u);
}

std::atomic<int> g_stress_calls[4];

void StressDeleter(void*, int flags) { g_stress_calls[flags & 3].fetch_add(1); }

TEST(CAPIObject, ConcurrentIncDecRef) {
  for (auto& c : g_stress_calls) c.store(0);
  TVMFFIObject obj;
  obj.combined_ref_count = kWeakOne | 1;
  obj.type_index = kTVMFFIObject;
  obj.__padding = 0;
  obj.deleter = StressDeleter;
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&obj]() {
      for (int i = 0; i < 100000; ++i) {
        TVMFFIObjectIncRef(&obj);
        TVMFFIObjectDecRef(&obj);
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(obj.combined_ref_count, kWeakOne | 1);
  EXPECT_EQ(g_stress_calls[1].load() + g_stress_calls[2].load() + g_stress_calls[3].load(), 0);
  TVMFFIObjectDecRef(&obj);
  EXPECT_EQ(g_stress_calls[3].load(), 1);
  EXPECT_EQ(g_stress_calls[1].load() + g_stress_calls[2].load(), 0);
}

std::atomic<int> g_opaque_deleted{0};

void OpaqueHandleDeleter(void* handle) {
  EXPECT_EQ(*static_cast<int*>(handle), 1234);
  g_opaque_deleted.fetch_add(1);
}

TEST(CAPIObject, CreateOpaque) {
  g_opaque_deleted.store(0);
  static int payload = 1234;
  TVMFFIObjectHandle h = nullptr;
  ASSERT_EQ(TVMFFIObjectCreateOpaque(&payload, kTVMFFIOpaquePyObject, OpaqueHandleDeleter, &h), 0);
  ASSERT_NE(h, nullptr);
  TVMFFIObject* header = static_cast<TVMFFIObject*>(h);
  EXPECT_EQ(header->type_index, kTVMFFIOpaquePyObject);
  EXPECT_EQ(header->combined_ref_count, kWeakOne | 1);
  const TVMFFIOpaqueObjectCell* cell = reinterpret_cast<const TVMFFIOpaqueObjectCell*>(
      static_cast<const char*>(h) + sizeof(TVMFFIObject));
  EXPECT_EQ(cell->handle, &payload);
  TVMFFIObjectIncRef(h);
  TVMFFIObjectDecRef(h);
  EXPECT_EQ(g_opaque_deleted.load(), 0);
  TVMFFIObjectDecRef(h);
  EXPECT_EQ(g_opaque_deleted.load(), 1);
}

TEST(CAPIObject, CreateOpaqueRejectsNonObjectIndex) {
  TVMFFIObjectHandle h = nullptr;
  EXPECT_EQ(TVMFFIObjectCreateOpaque(nullptr, kTVMFFIInt, nullptr, &h), -1);
  auto err = TakeError();
  EXPECT_EQ(err.first, "ValueError");
  EXPECT_NE(err.second.find("type index 1"), std::string::npos) << err.second;
  EXPECT_EQ(TVMFFIObjectCreateOpaque(nullptr, 200000, nullptr, &h), -1);
  err = TakeError();
  EXPECT_NE(err.second.find("200000"), std::string::npos) << err.second;
  EXPECT_EQ(h, nullptr);
}

// ---------------------------------------------------------------------------
// Static type table
// ---------------------------------------------------------------------------

TEST(CAPITypeRegistry, PodEntries) {
  const char* keys[] = {"None",
                        "int",
                        "bool",
                        "float",
                        "void*",
                        "DataType",
                        "Device",
                        "DLTensor*",
                        "const char*",
                        "TVMFFIByteArray*",
                        "ObjectRValueRef",
                        "ffi.SmallStr",
                        "ffi.SmallBytes"};
  for (int32_t i = 0; i <= kTVMFFISmallBytes; ++i) {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(i);
    ASSERT_NE(info, nullptr) << i;
    EXPECT_EQ(info->type_index, i);
    EXPECT_EQ(info->type_depth, 0);
    EXPECT_EQ(Key(info), keys[i]);
    EXPECT_EQ(info->type_key.data[info->type_key.size], '\0');
  }
  EXPECT_NE(TVMFFIGetTypeInfo(kTVMFFIUnchanged), nullptr);
}

TEST(CAPITypeRegistry, StaticObjectEntries) {
  const TVMFFITypeInfo* root = TVMFFIGetTypeInfo(kTVMFFIObject);
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(Key(root), "ffi.Object");
  EXPECT_EQ(root->type_depth, 0);
  const std::pair<int32_t, const char*> expected[] = {
      {65, "ffi.String"},         {66, "ffi.Bytes"}, {67, "ffi.Error"},
      {68, "ffi.Function"},       {69, "ffi.Shape"}, {70, "ffi.Tensor"},
      {71, "ffi.Array"},          {72, "ffi.Map"},   {73, "ffi.Module"},
      {74, "ffi.OpaquePyObject"}, {75, "ffi.List"},  {76, "ffi.Dict"},
      {77, "ffi.VisitInterrupt"}, {78, "ffi.BigInt"}};
  std::set<uint64_t> hashes{root->type_key_hash};
  for (const auto& kv : expected) {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(kv.first);
    ASSERT_NE(info, nullptr) << kv.second;
    EXPECT_EQ(info->type_index, kv.first);
    EXPECT_EQ(Key(info), kv.second);
    EXPECT_EQ(info->type_depth, 1);
    EXPECT_EQ(info->type_ancestors[0], root);
    EXPECT_TRUE(IsInstance(kv.first, kTVMFFIObject));
    hashes.insert(info->type_key_hash);
    int32_t index = -1;
    TVMFFIByteArray key = Bytes(kv.second);
    ASSERT_EQ(TVMFFITypeKeyToIndex(&key, &index), 0);
    EXPECT_EQ(index, kv.first);
  }
  EXPECT_EQ(hashes.size(), 15u);
  EXPECT_FALSE(IsInstance(kTVMFFIStr, kTVMFFIArray));
}

TEST(CAPITypeRegistry, UnknownIndexGivesNull) {
  EXPECT_EQ(TVMFFIGetTypeInfo(-1), nullptr);
  EXPECT_EQ(TVMFFIGetTypeInfo(50), nullptr);
  EXPECT_EQ(TVMFFIGetTypeInfo(127), nullptr);
  EXPECT_EQ(TVMFFIGetTypeInfo(1 << 30), nullptr);
}

TEST(CAPITypeRegistry, StaticKeysRegisterToTheirIndex) {
  TVMFFIByteArray key = Bytes("ffi.Array");
  EXPECT_EQ(TVMFFITypeGetOrAllocIndex(&key, kTVMFFIArray, 1, 0, 1, kTVMFFIObject), kTVMFFIArray);
  EXPECT_EQ(TVMFFITypeGetOrAllocIndex(&key, -1, 1, 0, 1, kTVMFFIObject), kTVMFFIArray);
}

// ---------------------------------------------------------------------------
// Dynamic registration
// ---------------------------------------------------------------------------

TEST(CAPITypeRegistry, HierarchyAndInstanceRule) {
  int32_t a = Register("test.registry.A", 1, kTVMFFIObject);
  int32_t b = Register("test.registry.B", 2, a);
  int32_t c = Register("test.registry.C", 3, b);
  int32_t d = Register("test.registry.D", 2, a);
  ASSERT_GE(a, kTVMFFIDynObjectBegin);
  ASSERT_GE(b, kTVMFFIDynObjectBegin);
  ASSERT_GE(c, kTVMFFIDynObjectBegin);
  ASSERT_GE(d, kTVMFFIDynObjectBegin);
  std::set<int32_t> distinct{a, b, c, d};
  EXPECT_EQ(distinct.size(), 4u);

  const TVMFFITypeInfo* ci = TVMFFIGetTypeInfo(c);
  ASSERT_NE(ci, nullptr);
  EXPECT_EQ(ci->type_index, c);
  EXPECT_EQ(ci->type_depth, 3);
  EXPECT_EQ(Key(ci), "test.registry.C");
  EXPECT_EQ(ci->type_ancestors[0], TVMFFIGetTypeInfo(kTVMFFIObject));
  EXPECT_EQ(ci->type_ancestors[1], TVMFFIGetTypeInfo(a));
  EXPECT_EQ(ci->type_ancestors[2], TVMFFIGetTypeInfo(b));
  EXPECT_EQ(ci->num_fields, 0);
  EXPECT_EQ(ci->num_methods, 0);
  EXPECT_EQ(ci->metadata, nullptr);

  EXPECT_TRUE(IsInstance(c, kTVMFFIObject));
  EXPECT_TRUE(IsInstance(c, a));
  EXPECT_TRUE(IsInstance(c, b));
  EXPECT_TRUE(IsInstance(c, c));
  EXPECT_TRUE(IsInstance(d, a));
  EXPECT_FALSE(IsInstance(d, b));
  EXPECT_FALSE(IsInstance(a, b));
  EXPECT_FALSE(IsInstance(b, c));
  EXPECT_FALSE(IsInstance(c, d));
  EXPECT_FALSE(IsInstance(c, kTVMFFIStr));

  int32_t found = -1;
  TVMFFIByteArray key = Bytes("test.registry.B");
  ASSERT_EQ(TVMFFITypeKeyToIndex(&key, &found), 0);
  EXPECT_EQ(found, b);
}

TEST(CAPITypeRegistry, GetOrAllocIsIdempotent) {
  int32_t first = Register("test.registry.Same", 1, kTVMFFIObject);
  ASSERT_GE(first, kTVMFFIDynObjectBegin);
  EXPECT_EQ(Register("test.registry.Same", 1, kTVMFFIObject), first);
  EXPECT_EQ(Register("test.registry.Same", 1, kTVMFFIObject), first);
}

TEST(CAPITypeRegistry, KnownKeyReturnsItsIndexWhateverTheOtherArguments) {
  int32_t base = Register("test.registry.ReRegBase", 1, kTVMFFIObject);
  int32_t t = Register("test.registry.ReReg", 1, kTVMFFIObject);
  ASSERT_GE(t, 0);
  // Other parent, depth, slots and static index: every library re-registers
  // the types it uses, and gets the index already there.
  EXPECT_EQ(Register("test.registry.ReReg", 2, base, 5, 0), t);
  TVMFFIByteArray key = Bytes("test.registry.ReReg");
  EXPECT_EQ(TVMFFITypeGetOrAllocIndex(&key, 121, 1, 0, 1, kTVMFFIObject), t);
  TVMFFIByteArray str = Bytes("ffi.String");
  EXPECT_EQ(TVMFFITypeGetOrAllocIndex(&str, kTVMFFIStr, 1, 0, 1, kTVMFFIObject), kTVMFFIStr);
}

TEST(CAPITypeRegistry, ParentMinusTwoOnlyQueries) {
  TVMFFIByteArray unknown = Bytes("test.registry.QueryOnlyUnknown");
  EXPECT_EQ(TVMFFITypeGetOrAllocIndex(&unknown, -1, 0, 0, 1, -2), -2);
  int32_t idx = 0;
  EXPECT_EQ(TVMFFITypeKeyToIndex(&unknown, &idx), -1);  // still not registered
  TakeError();
  TVMFFIByteArray obj = Bytes("ffi.Object");
  EXPECT_EQ(TVMFFITypeGetOrAllocIndex(&obj, -1, 0, 0, 1, -2), kTVMFFIObject);
  int32_t t = Register("test.registry.QueryOnlyKnown", 1, kTVMFFIObject);
  TVMFFIByteArray known = Bytes("test.registry.QueryOnlyKnown");
  EXPECT_EQ(TVMFFITypeGetOrAllocIndex(&known, -1, 0, 0, 1, -2), t);
}

TEST(CAPITypeRegistry, BadNewRegistrationsRaiseAndLeaveNoTrace) {
  // Depth that does not follow the parent.
  EXPECT_EQ(Register("test.registry.BadDepth", 3, kTVMFFIObject), -1);
  auto err = TakeError();
  EXPECT_EQ(err.first, "ValueError");
  EXPECT_NE(err.second.find("test.registry.BadDepth"), std::string::npos) << err.second;
  // Unknown parent.
  EXPECT_EQ(Register("test.registry.NoParent", 1, 99999), -1);
  err = TakeError();
  EXPECT_NE(err.second.find("99999"), std::string::npos) << err.second;
  int32_t idx = 0;
  TVMFFIByteArray key = Bytes("test.registry.BadDepth");
  EXPECT_EQ(TVMFFITypeKeyToIndex(&key, &idx), -1);
  TakeError();
}

TEST(CAPITypeRegistry, StaticIndexIsHonoured) {
  TVMFFIByteArray key = Bytes("test.registry.Static120");
  EXPECT_EQ(TVMFFITypeGetOrAllocIndex(&key, 120, 1, 0, 1, kTVMFFIObject), 120);
  EXPECT_EQ(Key(TVMFFIGetTypeInfo(120)), "test.registry.Static120");
}

TEST(CAPITypeRegistry, ConflictingStaticIndexRaises) {
  TVMFFIByteArray key = Bytes("test.registry.Static122");
  ASSERT_EQ(TVMFFITypeGetOrAllocIndex(&key, 122, 1, 0, 1, kTVMFFIObject), 122);
  TVMFFIByteArray other = Bytes("test.registry.Static122Other");
  EXPECT_EQ(TVMFFITypeGetOrAllocIndex(&other, 122, 1, 0, 1, kTVMFFIObject), -1);
  auto err = TakeError();
  EXPECT_EQ(err.first, "InternalError");
  EXPECT_NE(err.second.find("Conflicting static index 122"), std::string::npos) << err.second;
  EXPECT_NE(err.second.find("test.registry.Static122Other"), std::string::npos) << err.second;
  int32_t idx = 0;
  EXPECT_EQ(TVMFFITypeKeyToIndex(&other, &idx), -1);
  TakeError();
}

TEST(CAPITypeRegistry, ChildrenTakeTheParentsReservedSlotsFirst) {
  int32_t p = Register("test.registry.SlotParent", 1, kTVMFFIObject, 3, 1);
  ASSERT_GE(p, kTVMFFIDynObjectBegin);
  int32_t unrelated = Register("test.registry.SlotUnrelated", 1, kTVMFFIObject);
  EXPECT_TRUE(unrelated < p || unrelated > p + 3) << unrelated;
  EXPECT_EQ(Register("test.registry.SlotChild1", 2, p), p + 1);
  // A child with its own slots takes them out of the parent's range too.
  EXPECT_EQ(Register("test.registry.SlotChild2", 2, p, 1), p + 2);
  EXPECT_EQ(Register("test.registry.SlotGrandChild", 3, p + 2), p + 3);
  // Range full, overflow allowed: a fresh index outside, still an instance.
  int32_t over = Register("test.registry.SlotChild3", 2, p);
  EXPECT_TRUE(over < p || over > p + 3) << over;
  EXPECT_TRUE(IsInstance(over, p));
}

TEST(CAPITypeRegistry, NonOverflowingParentRaisesWhenItsSlotsRunOut) {
  int32_t p = Register("test.registry.ClosedParent", 1, kTVMFFIObject, 2, 0);
  ASSERT_GE(p, kTVMFFIDynObjectBegin);
  EXPECT_EQ(Register("test.registry.ClosedChild1", 2, p), p + 1);
  EXPECT_EQ(Register("test.registry.ClosedChild2", 2, p), p + 2);
  EXPECT_EQ(Register("test.registry.ClosedChild3", 2, p), -1);
  auto err = TakeError();
  EXPECT_EQ(err.first, "InternalError");
  EXPECT_NE(err.second.find("Reach maximum number of sub-classes for test.registry.ClosedParent"),
            std::string::npos)
      << err.second;
}

TEST(CAPITypeRegistry, ParentWithoutSlotsAndWithoutOverflowRejectsChildren) {
  int32_t p = Register("test.registry.FinalLike", 1, kTVMFFIObject, 0, 0);
  EXPECT_EQ(Register("test.registry.FinalLikeChild", 2, p), -1);
  auto err = TakeError();
  EXPECT_EQ(err.first, "InternalError");
  EXPECT_NE(err.second.find("Reach maximum number of sub-classes for test.registry.FinalLike"),
            std::string::npos)
      << err.second;
}

TEST(CAPITypeRegistry, ChildOfNonOverflowingParentDoesNotOverflowEither) {
  int32_t p = Register("test.registry.ClosedOuter", 1, kTVMFFIObject, 2, 0);
  // The child asks for overflow but inherits the parent's restriction.
  int32_t c = Register("test.registry.ClosedInner", 2, p, 0, 1);
  ASSERT_EQ(c, p + 1);
  EXPECT_EQ(Register("test.registry.ClosedInnerChild", 3, c), -1);
  auto err = TakeError();
  EXPECT_EQ(err.first, "InternalError");
  EXPECT_NE(err.second.find("test.registry.ClosedInner"), std::string::npos) << err.second;
}

TEST(CAPITypeRegistry, OverflowIndicesComeFromTheDynamicCounter) {
  int32_t q = Register("test.registry.OverflowParent", 1, kTVMFFIObject, 1, 1);
  EXPECT_EQ(Register("test.registry.OverflowChild1", 2, q), q + 1);
  int32_t q2 = Register("test.registry.OverflowChild2", 2, q);
  EXPECT_GE(q2, kTVMFFIDynObjectBegin);
  EXPECT_NE(q2, q + 1);
  EXPECT_TRUE(IsInstance(q2, q));
}

TEST(CAPITypeRegistry, ConcurrentRegistration) {
  constexpr int kThreads = 4;
  constexpr int kPerThread = 250;
  std::vector<std::vector<int32_t>> results(kThreads);
  std::atomic<bool> stop{false};
  std::atomic<int> bad_reads{0};
  // A reader checking lock-free lookups while registration runs.
  std::thread reader([&]() {
    while (!stop.load()) {
      for (int32_t i = kTVMFFIDynObjectBegin; i < kTVMFFIDynObjectBegin + 4096; ++i) {
        const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(i);
        if (info != nullptr && (info->type_index != i || info->type_key.data == nullptr)) {
          bad_reads.fetch_add(1);
        }
      }
    }
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &results]() {
      for (int i = 0; i < kPerThread; ++i) {
        std::string key = "test.registry.concurrent." + std::to_string(t) + "." + std::to_string(i);
        TVMFFIByteArray k{key.data(), key.size()};
        results[t].push_back(TVMFFITypeGetOrAllocIndex(&k, -1, 1, 0, 1, kTVMFFIObject));
        // Everyone also races on one shared key.
        TVMFFIByteArray shared = Bytes("test.registry.concurrent.shared");
        TVMFFITypeGetOrAllocIndex(&shared, -1, 1, 0, 1, kTVMFFIObject);
      }
    });
  }
  for (auto& th : threads) th.join();
  stop.store(true);
  reader.join();
  EXPECT_EQ(bad_reads.load(), 0);
  std::set<int32_t> all;
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < kPerThread; ++i) {
      int32_t idx = results[t][i];
      ASSERT_GE(idx, kTVMFFIDynObjectBegin);
      all.insert(idx);
      std::string key = "test.registry.concurrent." + std::to_string(t) + "." + std::to_string(i);
      EXPECT_EQ(Key(TVMFFIGetTypeInfo(idx)), key);
    }
  }
  EXPECT_EQ(all.size(), static_cast<size_t>(kThreads * kPerThread));
  int32_t shared = -1;
  TVMFFIByteArray k = Bytes("test.registry.concurrent.shared");
  ASSERT_EQ(TVMFFITypeKeyToIndex(&k, &shared), 0);
  EXPECT_EQ(all.count(shared), 0u);
}

TEST(CAPITypeRegistry, MissingKeyRaisesInternalErrorNamingTheKey) {
  int32_t idx = 77;
  TVMFFIByteArray key = Bytes("test.registry.missing");
  EXPECT_EQ(TVMFFITypeKeyToIndex(&key, &idx), -1);
  auto err = TakeError();
  EXPECT_EQ(err.first, "InternalError");
  const std::string tail = ") is false: Cannot find type `test.registry.missing`";
  EXPECT_EQ(err.second.rfind("Check failed: (", 0), 0u) << err.second;
  ASSERT_GE(err.second.size(), tail.size());
  EXPECT_EQ(err.second.substr(err.second.size() - tail.size()), tail);
}

TEST(CAPITypeRegistry, MissingKeyLeavesTheOutputUntouched) {
  int32_t idx = 77;
  TVMFFIByteArray key = Bytes("test.registry.missing.out");
  EXPECT_EQ(TVMFFITypeKeyToIndex(&key, &idx), -1);
  TakeError();
  EXPECT_EQ(idx, 77);
}

// ---------------------------------------------------------------------------
// Reflection tables
// ---------------------------------------------------------------------------

TVMFFIFieldInfo MakeField(const char* name, int64_t offset) {
  TVMFFIFieldInfo f;
  std::memset(&f, 0, sizeof(f));
  f.name = Bytes(name);
  f.doc = Bytes("");
  f.metadata = Bytes("{}");
  f.flags = kTVMFFIFieldFlagBitMaskWritable;
  f.size = 8;
  f.alignment = 8;
  f.offset = offset;
  f.default_value_or_factory.type_index = kTVMFFINone;
  f.field_static_type_index = kTVMFFIInt;
  return f;
}

TEST(CAPITypeRegistry, Fields) {
  int32_t t = Register("test.registry.WithFields", 1, kTVMFFIObject);
  ASSERT_GE(t, 0);
  std::string name = "x";
  std::string doc = "the x coordinate";
  TVMFFIFieldInfo f = MakeField("x", 24);
  f.name = TVMFFIByteArray{name.data(), name.size()};
  f.doc = TVMFFIByteArray{doc.data(), doc.size()};
  f.flags |= kTVMFFIFieldFlagBitMaskHasDefault;
  f.default_value_or_factory.type_index = kTVMFFIRawStr;
  f.default_value_or_factory.v_c_str = "a default that is not small";
  ASSERT_EQ(TVMFFITypeRegisterField(t, &f), 0);
  name = "?";  // the registry must have kept its own copies
  doc = "changed";

  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(t);
  ASSERT_EQ(info->num_fields, 1);
  const TVMFFIFieldInfo* first_buffer = info->fields;
  EXPECT_EQ(std::string(info->fields[0].name.data, info->fields[0].name.size), "x");
  EXPECT_EQ(std::string(info->fields[0].doc.data, info->fields[0].doc.size), "the x coordinate");
  EXPECT_EQ(std::string(info->fields[0].metadata.data), "{}");
  EXPECT_EQ(info->fields[0].offset, 24);
  EXPECT_EQ(info->fields[0].field_static_type_index, kTVMFFIInt);
  EXPECT_EQ(AnyString(info->fields[0].default_value_or_factory), "a default that is not small");

  // Duplicate names in one type are refused.
  TVMFFIFieldInfo dup = MakeField("x", 32);
  EXPECT_EQ(TVMFFITypeRegisterField(t, &dup), -1);
  auto err = TakeError();
  EXPECT_EQ(err.first, "RuntimeError");
  EXPECT_NE(err.second.find("Duplicate field name `x`"), std::string::npos) << err.second;
  EXPECT_NE(err.second.find("test.registry.WithFields"), std::string::npos) << err.second;

  // Growing the table keeps earlier buffers readable.
  std::vector<std::string> names;
  for (int i = 0; i < 20; ++i) names.push_back("f" + std::to_string(i));
  for (int i = 0; i < 20; ++i) {
    TVMFFIFieldInfo g = MakeField(names[i].c_str(), 32 + 8 * i);
    ASSERT_EQ(TVMFFITypeRegisterField(t, &g), 0);
  }
  ASSERT_EQ(info->num_fields, 21);
  EXPECT_EQ(std::string(first_buffer[0].name.data), "x");
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(std::string(info->fields[i + 1].name.data), names[i]);
    EXPECT_EQ(info->fields[i + 1].offset, 32 + 8 * i);
  }

  TVMFFIFieldInfo g = MakeField("y", 0);
  EXPECT_EQ(TVMFFITypeRegisterField(123456, &g), -1);
  err = TakeError();
  EXPECT_EQ(err.first, "ValueError");
  EXPECT_NE(err.second.find("123456"), std::string::npos) << err.second;
}

TEST(CAPITypeRegistry, TooManyFieldsRaiseIndexErrorNamingTheType) {
  int32_t t = Register("test.registry.ManyFields", 1, kTVMFFIObject);
  std::vector<std::string> names;
  for (int i = 0; i <= 4096; ++i) names.push_back("f" + std::to_string(i));
  for (int i = 0; i < 4096; ++i) {
    TVMFFIFieldInfo f = MakeField(names[i].c_str(), 8 * i);
    ASSERT_EQ(TVMFFITypeRegisterField(t, &f), 0) << i;
  }
  TVMFFIFieldInfo extra = MakeField(names[4096].c_str(), 0);
  EXPECT_EQ(TVMFFITypeRegisterField(t, &extra), -1);
  auto err = TakeError();
  EXPECT_EQ(err.first, "IndexError");
  EXPECT_NE(err.second.find("test.registry.ManyFields"), std::string::npos) << err.second;
  EXPECT_EQ(TVMFFIGetTypeInfo(t)->num_fields, 4096);
}

TEST(CAPITypeRegistry, ObjectValuesAreRetained) {
  int32_t t = Register("test.registry.RetainsObjects", 1, kTVMFFIObject);
  TVMFFIObjectHandle obj = nullptr;
  ASSERT_EQ(TVMFFIObjectCreateOpaque(nullptr, kTVMFFIOpaquePyObject, nullptr, &obj), 0);
  TVMFFIFieldInfo f = MakeField("obj_default", 24);
  f.flags |= kTVMFFIFieldFlagBitMaskHasDefault;
  f.default_value_or_factory.type_index = kTVMFFIOpaquePyObject;
  f.default_value_or_factory.v_obj = static_cast<TVMFFIObject*>(obj);
  ASSERT_EQ(TVMFFITypeRegisterField(t, &f), 0);
  TVMFFIMethodInfo m;
  std::memset(&m, 0, sizeof(m));
  m.name = Bytes("method");
  m.doc = Bytes("a method");
  m.metadata = Bytes("");
  m.method.type_index = kTVMFFIOpaquePyObject;
  m.method.v_obj = static_cast<TVMFFIObject*>(obj);
  ASSERT_EQ(TVMFFITypeRegisterMethod(t, &m), 0);
  // The caller's reference plus one per registry entry.
  EXPECT_EQ(static_cast<TVMFFIObject*>(obj)->combined_ref_count & 0xffffffffu, 3u);
  TVMFFIObjectDecRef(obj);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(t);
  EXPECT_EQ(info->fields[0].default_value_or_factory.v_obj, obj);
  EXPECT_EQ(info->methods[0].method.v_obj, obj);
}

TEST(CAPITypeRegistry, MethodsAndMetadata) {
  int32_t t = Register("test.registry.WithMethods", 1, kTVMFFIObject);
  TVMFFIMethodInfo m;
  std::memset(&m, 0, sizeof(m));
  m.name = Bytes("__init__");
  m.doc = Bytes("construct");
  m.metadata = Bytes("{\"type_schema\": \"x\"}");
  m.flags = kTVMFFIFieldFlagBitMaskIsStaticMethod;
  m.method.type_index = kTVMFFIInt;
  m.method.v_int64 = 7;
  ASSERT_EQ(TVMFFITypeRegisterMethod(t, &m), 0);
  // A second method of the same name is kept too (one entry per overload).
  ASSERT_EQ(TVMFFITypeRegisterMethod(t, &m), 0);

  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(t);
  ASSERT_EQ(info->num_methods, 2);
  EXPECT_EQ(std::string(info->methods[0].name.data, info->methods[0].name.size), "__init__");
  EXPECT_EQ(std::string(info->methods[0].doc.data), "construct");
  EXPECT_EQ(std::string(info->methods[0].metadata.data), "{\"type_schema\": \"x\"}");
  EXPECT_EQ(info->methods[0].flags, kTVMFFIFieldFlagBitMaskIsStaticMethod);
  EXPECT_EQ(info->methods[0].method.v_int64, 7);

  std::string doc = "A type with methods";
  TVMFFITypeMetadata md;
  std::memset(&md, 0, sizeof(md));
  md.doc = TVMFFIByteArray{doc.data(), doc.size()};
  md.total_size = 40;
  md.structural_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  ASSERT_EQ(TVMFFITypeRegisterMetadata(t, &md), 0);
  doc = "overwritten";
  ASSERT_NE(info->metadata, nullptr);
  EXPECT_EQ(std::string(info->metadata->doc.data, info->metadata->doc.size), "A type with methods");
  EXPECT_EQ(info->metadata->total_size, 40);
  EXPECT_EQ(info->metadata->structural_eq_hash_kind, kTVMFFISEqHashKindTreeNode);
  EXPECT_EQ(info->metadata->creator, nullptr);
  // Metadata is registered once.
  EXPECT_EQ(TVMFFITypeRegisterMetadata(t, &md), -1);
  auto err = TakeError();
  EXPECT_EQ(err.first, "RuntimeError");
  EXPECT_EQ(err.second.rfind("Overriding test.registry.WithMethods", 0), 0u) << err.second;
  EXPECT_EQ(TVMFFITypeRegisterMetadata(-5, &md), -1);
  err = TakeError();
  EXPECT_NE(err.second.find("-5"), std::string::npos) << err.second;
}

TEST(CAPITypeRegistry, AttrColumns) {
  int32_t a = Register("test.registry.AttrA", 1, kTVMFFIObject);
  int32_t b = Register("test.registry.AttrB", 1, kTVMFFIObject);
  TVMFFIByteArray name = Bytes("test.registry.attr.__answer__");
  EXPECT_EQ(TVMFFIGetTypeAttrColumn(&name), nullptr);
  TVMFFIAny v;
  v.type_index = kTVMFFIInt;
  v.zero_padding = 0;
  v.v_int64 = 42;
  ASSERT_EQ(TVMFFITypeRegisterAttr(a, &name, &v), 0);
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&name);
  ASSERT_NE(col, nullptr);
  ASSERT_GT(col->size + col->begin_index, a);
  ASSERT_LE(col->begin_index, a);
  EXPECT_EQ(col->data[a - col->begin_index].type_index, kTVMFFIInt);
  EXPECT_EQ(col->data[a - col->begin_index].v_int64, 42);
  EXPECT_EQ(col->data[b - col->begin_index].type_index, kTVMFFINone);

  EXPECT_EQ(TVMFFITypeRegisterAttr(a, &name, &v), -1);
  auto err = TakeError();
  EXPECT_EQ(err.first, "RuntimeError");
  std::string expected_prefix =
      "TypeAttr `test.registry.attr.__answer__` is already registered "
      "for type index " +
      std::to_string(a) + ".";
  EXPECT_EQ(err.second.rfind(expected_prefix, 0), 0u) << err.second;
  EXPECT_NE(err.second.find("test.registry.AttrA"), std::string::npos) << err.second;

  TVMFFIAny s;
  s.type_index = kTVMFFIRawStr;
  s.zero_padding = 0;
  s.v_c_str = "hi";
  ASSERT_EQ(TVMFFITypeRegisterAttr(b, &name, &s), 0);
  EXPECT_EQ(TVMFFIGetTypeAttrColumn(&name), col);  // the column itself never moves
  EXPECT_EQ(AnyString(col->data[b - col->begin_index]), "hi");

  // A type whose index lies beyond the current column end makes it grow.
  TVMFFIByteArray far_key = Bytes("test.registry.AttrFar");
  int32_t far = TVMFFITypeGetOrAllocIndex(&far_key, 5000, 1, 0, 1, kTVMFFIObject);
  ASSERT_EQ(far, 5000);
  ASSERT_EQ(TVMFFITypeRegisterAttr(far, &name, &v), 0);
  ASSERT_GT(col->size + col->begin_index, far);
  EXPECT_EQ(col->data[far - col->begin_index].v_int64, 42);
  EXPECT_EQ(col->data[a - col->begin_index].v_int64, 42);

  EXPECT_EQ(TVMFFITypeRegisterAttr(777777, &name, &v), -1);
  err = TakeError();
  EXPECT_NE(err.second.find("777777"), std::string::npos) << err.second;
}

// ---------------------------------------------------------------------------
// Lazy globals
// ---------------------------------------------------------------------------

std::atomic<int> g_init_calls{0};
int g_init_target = 5;

int SlowInit(void** out) {
  g_init_calls.fetch_add(1);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  *out = &g_init_target;
  return 0;
}

int FailingInit(void**) {
  TVMFFIErrorSetRaisedFromCStr("RuntimeError", "init failed on purpose");
  return -1;
}

std::atomic<int> g_deinit_calls{0};
int CountingDeinit(void* handle) {
  EXPECT_EQ(handle, &g_init_target);
  g_deinit_calls.fetch_add(1);
  return 0;
}

TEST(CAPIHandleInitOnce, InitialisesOnceAcrossThreads) {
  static void* handle = nullptr;
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&wrong]() {
      if (TVMFFIHandleInitOnce(&handle, SlowInit) != 0 || handle != &g_init_target) {
        wrong.fetch_add(1);
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(g_init_calls.load(), 1);
  EXPECT_EQ(handle, &g_init_target);

  ASSERT_EQ(TVMFFIHandleDeinitOnce(&handle, CountingDeinit), 0);
  EXPECT_EQ(handle, nullptr);
  ASSERT_EQ(TVMFFIHandleDeinitOnce(&handle, CountingDeinit), 0);
  EXPECT_EQ(g_deinit_calls.load(), 1);
}

TEST(CAPIHandleInitOnce, FailurePropagates) {
  static void* handle = nullptr;
  EXPECT_EQ(TVMFFIHandleInitOnce(&handle, FailingInit), -1);
  EXPECT_EQ(handle, nullptr);
  auto err = TakeError();
  EXPECT_EQ(err.first, "RuntimeError");
  EXPECT_EQ(err.second, "init failed on purpose");
}

int InitLeavingNull(void**) { return 0; }

TEST(CAPIHandleInitOnce, InitLeavingTheHandleNullFails) {
  static void* handle = nullptr;
  EXPECT_NE(TVMFFIHandleInitOnce(&handle, InitLeavingNull), 0);
  EXPECT_EQ(handle, nullptr);
  auto err = TakeError();
  EXPECT_EQ(err.first, "RuntimeError");
  EXPECT_EQ(err.second, "TVMFFIHandleInitOnce: init_func must return a non-NULL handle");
}

int FailingDeinit(void*) {
  TVMFFIErrorSetRaisedFromCStr("ValueError", "deinit failed on purpose");
  return -1;
}

TEST(CAPIHandleInitOnce, FailedDeinitStillClearsTheHandle) {
  static void* handle = &g_init_target;
  EXPECT_EQ(TVMFFIHandleDeinitOnce(&handle, FailingDeinit), -1);
  EXPECT_EQ(handle, nullptr);
  auto err = TakeError();
  EXPECT_EQ(err.first, "ValueError");
  EXPECT_EQ(err.second, "deinit failed on purpose");
}

// ---------------------------------------------------------------------------
// Owned values
// ---------------------------------------------------------------------------

TEST(CAPIAnyViewToOwnedAny, BorrowedDLTensorIsRejected) {
  DLTensor tensor{};
  TVMFFIAny view;
  view.type_index = kTVMFFIDLTensorPtr;
  view.zero_padding = 0;
  view.v_ptr = &tensor;
  TVMFFIAny out;
  out.type_index = kTVMFFINone;
  out.zero_padding = 0;
  out.v_int64 = 0;
  EXPECT_EQ(TVMFFIAnyViewToOwnedAny(&view, &out), -1);
  auto err = TakeError();
  EXPECT_EQ(err.first, "RuntimeError");
  EXPECT_EQ(err.second,
            "DLTensor* cannot be held in Any as it does not retain ownership, use Tensor instead");
  EXPECT_EQ(out.type_index, kTVMFFINone);
}

TEST(CAPIAnyViewToOwnedAny, RegistryRefusesToKeepABorrowedDLTensor) {
  int32_t t = Register("test.registry.AttrDLTensor", 1, kTVMFFIObject);
  DLTensor tensor{};
  TVMFFIAny view;
  view.type_index = kTVMFFIDLTensorPtr;
  view.zero_padding = 0;
  view.v_ptr = &tensor;
  TVMFFIByteArray name = Bytes("test.registry.attr.__tensor__");
  EXPECT_EQ(TVMFFITypeRegisterAttr(t, &name, &view), -1);
  auto err = TakeError();
  EXPECT_EQ(err.first, "TypeError");
  EXPECT_NE(err.second.find("__tensor__"), std::string::npos) << err.second;
}

}  // namespace
