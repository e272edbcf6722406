// Tests of the C++ object system (object.h, memory.h): reference counts of
// ObjectPtr / Arc / ObjectRef / WeakObjectPtr, the deleter protocol of
// docs/abi.md §2.3, thread-safe counting, the dynamic type hierarchy and its
// instance checks, downcasts, the Any conversions of the pointer types and
// in-place array objects.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

namespace {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::Arc;
using ffi::ObjectPtr;
using ffi::ObjectRef;
using ffi::WeakObjectPtr;

// ---------------------------------------------------------------------------
// Test types
// ---------------------------------------------------------------------------

/*! \brief Counts its destructions into a counter owned by the test. */
class CountedObj : public ffi::Object {
 public:
  explicit CountedObj(std::atomic<int>* dtor_count, int64_t value = 0)
      : dtor_count(dtor_count), value(value) {}
  ~CountedObj() { dtor_count->fetch_add(1); }
  std::atomic<int>* dtor_count;
  int64_t value;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.object.Counted", CountedObj, ffi::Object);
};

// A three-level hierarchy: Animal -> Mammal -> {Dog, Cat}, and Animal -> Bird.
class AnimalObj : public ffi::Object {
 public:
  int64_t legs = 0;
  TVM_FFI_DECLARE_OBJECT_INFO("test.object.Animal", AnimalObj, ffi::Object);
};

class MammalObj : public AnimalObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO("test.object.Mammal", MammalObj, AnimalObj);
};

class DogObj : public MammalObj {
 public:
  DogObj() = default;
  explicit DogObj(int64_t n) { legs = n; }
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.object.Dog", DogObj, MammalObj);
};

class CatObj : public MammalObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.object.Cat", CatObj, MammalObj);
};

class BirdObj : public AnimalObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.object.Bird", BirdObj, AnimalObj);
};

class Animal : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Animal, ObjectRef, AnimalObj);
};

class Mammal : public Animal {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Mammal, Animal, MammalObj);
};

// Non-nullable: a Dog reference always refers to a dog.
class Dog : public Mammal {
 public:
  explicit Dog(int64_t legs) : Mammal(ffi::make_object<DogObj>(legs)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Dog, Mammal, DogObj);
};

class Bird : public Animal {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Bird, Animal, BirdObj);
};

/*! \brief Throws from its constructor (allocation must be released). */
class ThrowingObj : public ffi::Object {
 public:
  ThrowingObj() { throw std::runtime_error("constructor failed"); }
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.object.Throwing", ThrowingObj, ffi::Object);
};

std::string TypeErrorMessage(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "TypeError");
    return e.message();
  }
  ADD_FAILURE() << "expected a TypeError";
  return "";
}

// ---------------------------------------------------------------------------
// make_object / ObjectPtr
// ---------------------------------------------------------------------------

TEST(ObjectPtr, MakeObjectStartsWithStrongAndWeakCountOne) {
  std::atomic<int> dtors{0};
  ObjectPtr<CountedObj> p = ffi::make_object<CountedObj>(&dtors, 7);
  ASSERT_NE(p.get(), nullptr);
  EXPECT_EQ(p.use_count(), 1);
  EXPECT_EQ(p->use_count(), 1);
  EXPECT_EQ(p->weak_count(), 1);
  EXPECT_TRUE(p.unique());
  EXPECT_EQ(p->value, 7);
  EXPECT_EQ(p->type_index(), CountedObj::RuntimeTypeIndex());
}

TEST(ObjectPtr, DefaultAndNullptrConstructedAreNull) {
  ObjectPtr<CountedObj> a;
  ObjectPtr<CountedObj> b(nullptr);
  EXPECT_FALSE(a);
  EXPECT_EQ(a, nullptr);
  EXPECT_EQ(a.get(), nullptr);
  EXPECT_EQ(a.use_count(), 0);
  EXPECT_FALSE(b);
  EXPECT_EQ(a, b);
}

TEST(ObjectPtr, CopyIncrementsAndDestructionDecrements) {
  std::atomic<int> dtors{0};
  ObjectPtr<CountedObj> p = ffi::make_object<CountedObj>(&dtors);
  {
    ObjectPtr<CountedObj> q = p;
    EXPECT_EQ(p.use_count(), 2);
    EXPECT_EQ(q.get(), p.get());
    ObjectPtr<CountedObj> r;
    r = q;
    EXPECT_EQ(p.use_count(), 3);
  }
  EXPECT_EQ(p.use_count(), 1);
  EXPECT_EQ(dtors.load(), 0);
}

TEST(ObjectPtr, MoveTransfersWithoutChangingCount) {
  std::atomic<int> dtors{0};
  ObjectPtr<CountedObj> p = ffi::make_object<CountedObj>(&dtors);
  CountedObj* raw = p.get();
  ObjectPtr<CountedObj> q = std::move(p);
  EXPECT_EQ(p.get(), nullptr);  // NOLINT(bugprone-use-after-move): moved-from is null
  EXPECT_EQ(q.get(), raw);
  EXPECT_EQ(q.use_count(), 1);
  ObjectPtr<CountedObj> r;
  r = std::move(q);
  EXPECT_EQ(q.get(), nullptr);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(r.use_count(), 1);
  EXPECT_EQ(dtors.load(), 0);
}

TEST(ObjectPtr, DestructorRunsExactlyOnceAtLastRelease) {
  std::atomic<int> dtors{0};
  {
    ObjectPtr<CountedObj> p = ffi::make_object<CountedObj>(&dtors);
    ObjectPtr<CountedObj> q = p;
    p.reset();
    EXPECT_EQ(dtors.load(), 0);
    EXPECT_EQ(q.use_count(), 1);
  }
  EXPECT_EQ(dtors.load(), 1);
}

TEST(ObjectPtr, ResetAndAssignNullReleaseTheObject) {
  std::atomic<int> dtors{0};
  ObjectPtr<CountedObj> p = ffi::make_object<CountedObj>(&dtors);
  p.reset();
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(dtors.load(), 1);
  p = ffi::make_object<CountedObj>(&dtors);
  p = nullptr;
  EXPECT_EQ(dtors.load(), 2);
  p.reset();  // resetting a null pointer is a no-op
  EXPECT_EQ(dtors.load(), 2);
}

TEST(ObjectPtr, CopyAssignReleasesThePreviousObject) {
  std::atomic<int> first{0}, second{0};
  ObjectPtr<CountedObj> a = ffi::make_object<CountedObj>(&first);
  ObjectPtr<CountedObj> b = ffi::make_object<CountedObj>(&second);
  a = b;
  EXPECT_EQ(first.load(), 1);
  EXPECT_EQ(second.load(), 0);
  EXPECT_EQ(b.use_count(), 2);
}

TEST(ObjectPtr, SelfAssignmentKeepsTheCount) {
  std::atomic<int> dtors{0};
  ObjectPtr<CountedObj> p = ffi::make_object<CountedObj>(&dtors);
  ObjectPtr<CountedObj>& alias = p;
  p = alias;
  EXPECT_EQ(p.use_count(), 1);
  p = std::move(alias);
  EXPECT_EQ(p.use_count(), 1);
  EXPECT_EQ(dtors.load(), 0);
}

TEST(ObjectPtr, SwapExchangesWithoutCounting) {
  std::atomic<int> d1{0}, d2{0};
  ObjectPtr<CountedObj> a = ffi::make_object<CountedObj>(&d1, 1);
  ObjectPtr<CountedObj> b = ffi::make_object<CountedObj>(&d2, 2);
  a.swap(b);
  EXPECT_EQ(a->value, 2);
  EXPECT_EQ(b->value, 1);
  EXPECT_EQ(a.use_count(), 1);
  EXPECT_EQ(b.use_count(), 1);
}

TEST(ObjectPtr, UpcastConversionSharesTheObject) {
  ObjectPtr<DogObj> dog = ffi::make_object<DogObj>(4);
  ObjectPtr<AnimalObj> animal = dog;
  EXPECT_EQ(animal.get(), static_cast<AnimalObj*>(dog.get()));
  EXPECT_EQ(dog.use_count(), 2);
  ObjectPtr<ffi::Object> base = std::move(animal);
  EXPECT_EQ(animal.get(), nullptr);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(dog.use_count(), 2);
  EXPECT_EQ(static_cast<AnimalObj*>(base.get())->legs, 4);
  static_assert(!std::is_constructible_v<ObjectPtr<DogObj>, ObjectPtr<AnimalObj>>,
                "ObjectPtr must not convert down the hierarchy implicitly");
}

TEST(ObjectPtr, HashAndEqualityAreByIdentity) {
  ObjectPtr<DogObj> a = ffi::make_object<DogObj>(4);
  ObjectPtr<DogObj> b = ffi::make_object<DogObj>(4);
  ObjectPtr<DogObj> a2 = a;
  EXPECT_TRUE(a == a2);
  EXPECT_TRUE(a != b);
  std::unordered_set<ObjectPtr<DogObj>, ffi::ObjectPtrHash, ffi::ObjectPtrEqual> set;
  set.insert(a);
  set.insert(a2);
  set.insert(b);
  EXPECT_EQ(set.size(), 2u);
}

TEST(ObjectPtr, ConstructorExceptionPropagatesFromMakeObject) {
  EXPECT_THROW(ffi::make_object<ThrowingObj>(), std::runtime_error);
  EXPECT_THROW(ffi::make_arc<ThrowingObj>(), std::runtime_error);
}

TEST(ObjectPtr, CopyingAnObjectValueGivesTheCopyItsOwnHeader) {
  std::atomic<int> dtors{0};
  ObjectPtr<CountedObj> a = ffi::make_object<CountedObj>(&dtors, 5);
  ObjectPtr<CountedObj> b = a;
  ObjectPtr<CountedObj> copy = ffi::make_object<CountedObj>(*a);
  EXPECT_NE(copy.get(), a.get());
  EXPECT_EQ(copy.use_count(), 1);
  EXPECT_EQ(copy->value, 5);
  EXPECT_EQ(a.use_count(), 2);
  copy.reset();
  EXPECT_EQ(dtors.load(), 1);
  EXPECT_EQ(a.use_count(), 2);
}

TEST(ObjectPtr, StressCopiesFromManyThreadsKeepTheCountExact) {
  std::atomic<int> dtors{0};
  ObjectPtr<CountedObj> shared = ffi::make_object<CountedObj>(&dtors);
  constexpr int kThreads = 8;
  constexpr int kIters = 100000;
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      while (!go.load()) std::this_thread::yield();
      for (int i = 0; i < kIters; ++i) {
        ObjectPtr<CountedObj> copy = shared;
        ObjectPtr<CountedObj> moved = std::move(copy);
        ObjectPtr<ffi::Object> base = moved;
      }
    });
  }
  go.store(true);
  for (auto& th : threads) th.join();
  EXPECT_EQ(shared.use_count(), 1);
  EXPECT_EQ(shared->weak_count(), 1);
  EXPECT_EQ(dtors.load(), 0);
  shared.reset();
  EXPECT_EQ(dtors.load(), 1);
}

TEST(ObjectPtr, ConcurrentLastReleaseDestroysExactlyOnce) {
  constexpr int kThreads = 8;
  constexpr int kRounds = 200;
  for (int round = 0; round < kRounds; ++round) {
    std::atomic<int> dtors{0};
    std::vector<ObjectPtr<CountedObj>> copies(kThreads);
    {
      ObjectPtr<CountedObj> p = ffi::make_object<CountedObj>(&dtors);
      for (auto& c : copies) c = p;
    }
    std::atomic<int> ready{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        ready.fetch_add(1);
        while (ready.load() < kThreads) std::this_thread::yield();
        copies[t].reset();
      });
    }
    for (auto& th : threads) th.join();
    ASSERT_EQ(dtors.load(), 1) << "round " << round;
  }
}

// ---------------------------------------------------------------------------
// The deleter protocol (docs/abi.md §2.3), observed with a recording deleter.
// ---------------------------------------------------------------------------

std::vector<int>* g_deleter_flags = nullptr;

class RecordedObj : public ffi::Object {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.object.Recorded", RecordedObj, ffi::Object);
};

void RecordingDeleter(void* self, int flags) {
  g_deleter_flags->push_back(flags);
  RecordedObj* obj = static_cast<RecordedObj*>(reinterpret_cast<ffi::Object*>(self));
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) obj->~RecordedObj();
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) std::free(self);
}

ObjectPtr<RecordedObj> MakeRecorded() {
  void* mem = std::malloc(sizeof(RecordedObj));
  RecordedObj* obj = new (mem) RecordedObj();
  ffi::detail::ObjectUnsafe::InitHeader(obj, RecordedObj::RuntimeTypeIndex(), RecordingDeleter);
  return ffi::detail::ObjectUnsafe::ObjectPtrFromOwned<RecordedObj>(static_cast<ffi::Object*>(obj));
}

TEST(ObjectDeleter, LastStrongReleaseWithoutWeakCallsDeleterOnceWithBoth) {
  std::vector<int> flags;
  g_deleter_flags = &flags;
  ObjectPtr<RecordedObj> p = MakeRecorded();
  ObjectPtr<RecordedObj> q = p;
  p.reset();
  EXPECT_TRUE(flags.empty());
  q.reset();
  EXPECT_EQ(flags, std::vector<int>({kTVMFFIObjectDeleterFlagBitMaskBoth}));
  g_deleter_flags = nullptr;
}

TEST(ObjectDeleter, WeakReferenceSplitsDestroyAndFree) {
  std::vector<int> flags;
  g_deleter_flags = &flags;
  ObjectPtr<RecordedObj> p = MakeRecorded();
  WeakObjectPtr<RecordedObj> w(p);
  EXPECT_EQ(p->weak_count(), 2);
  p.reset();
  // Destroyed (flag 1) but the memory stays for the weak reference.
  EXPECT_EQ(flags, std::vector<int>({kTVMFFIObjectDeleterFlagBitMaskStrong}));
  EXPECT_TRUE(w.expired());
  w.reset();
  EXPECT_EQ(flags, std::vector<int>({kTVMFFIObjectDeleterFlagBitMaskStrong,
                                     kTVMFFIObjectDeleterFlagBitMaskWeak}));
  g_deleter_flags = nullptr;
}

TEST(ObjectDeleter, CAPIIncRefDecRefFollowTheSameRules) {
  std::vector<int> flags;
  g_deleter_flags = &flags;
  ObjectPtr<RecordedObj> p = MakeRecorded();
  TVMFFIObject* header = ffi::detail::ObjectUnsafe::GetHeader(p.get());
  ASSERT_EQ(TVMFFIObjectIncRef(header), 0);
  EXPECT_EQ(p.use_count(), 2);
  p.reset();
  EXPECT_TRUE(flags.empty());
  ASSERT_EQ(TVMFFIObjectDecRef(header), 0);
  EXPECT_EQ(flags, std::vector<int>({kTVMFFIObjectDeleterFlagBitMaskBoth}));
  g_deleter_flags = nullptr;
}

// ---------------------------------------------------------------------------
// WeakObjectPtr
// ---------------------------------------------------------------------------

TEST(WeakObjectPtr, DefaultIsExpiredAndLocksToNull) {
  WeakObjectPtr<CountedObj> w;
  EXPECT_TRUE(w.expired());
  EXPECT_EQ(w.lock(), nullptr);
}

TEST(WeakObjectPtr, LockWhileAliveReturnsAStrongReference) {
  std::atomic<int> dtors{0};
  ObjectPtr<CountedObj> p = ffi::make_object<CountedObj>(&dtors);
  WeakObjectPtr<CountedObj> w(p);
  EXPECT_FALSE(w.expired());
  EXPECT_EQ(p.use_count(), 1);  // a weak reference is not a strong one
  ObjectPtr<CountedObj> locked = w.lock();
  EXPECT_EQ(locked.get(), p.get());
  EXPECT_EQ(p.use_count(), 2);
}

TEST(WeakObjectPtr, ExpiresWhenTheLastStrongReferenceGoes) {
  std::atomic<int> dtors{0};
  ObjectPtr<CountedObj> p = ffi::make_object<CountedObj>(&dtors);
  WeakObjectPtr<CountedObj> w(p);
  p.reset();
  EXPECT_EQ(dtors.load(), 1);  // destroyed at strong zero, weak still held
  EXPECT_TRUE(w.expired());
  EXPECT_EQ(w.lock(), nullptr);
  EXPECT_EQ(dtors.load(), 1);
}

TEST(WeakObjectPtr, CopiesCountAsWeakReferencesAndMovesDoNot) {
  std::atomic<int> dtors{0};
  ObjectPtr<CountedObj> p = ffi::make_object<CountedObj>(&dtors);
  WeakObjectPtr<CountedObj> w1(p);
  EXPECT_EQ(p->weak_count(), 2);
  WeakObjectPtr<CountedObj> w2 = w1;
  EXPECT_EQ(p->weak_count(), 3);
  WeakObjectPtr<CountedObj> w3 = std::move(w2);
  EXPECT_EQ(p->weak_count(), 3);
  EXPECT_TRUE(w2.expired());  // NOLINT(bugprone-use-after-move): moved-from is empty
  w3.reset();
  EXPECT_EQ(p->weak_count(), 2);
  w1 = WeakObjectPtr<CountedObj>();
  EXPECT_EQ(p->weak_count(), 1);
  EXPECT_EQ(p.use_count(), 1);
}

TEST(WeakObjectPtr, ConcurrentLockAndReleaseNeverResurrects) {
  constexpr int kRounds = 200;
  for (int round = 0; round < kRounds; ++round) {
    std::atomic<int> dtors{0};
    ObjectPtr<CountedObj> p = ffi::make_object<CountedObj>(&dtors);
    WeakObjectPtr<CountedObj> w(p);
    std::atomic<bool> go{false};
    std::thread locker([&] {
      while (!go.load()) std::this_thread::yield();
      for (int i = 0; i < 1000; ++i) {
        ObjectPtr<CountedObj> s = w.lock();
        if (s) {
          EXPECT_EQ(dtors.load(), 0);  // a locked object is alive
        } else {
          break;
        }
      }
    });
    go.store(true);
    p.reset();
    locker.join();
    EXPECT_EQ(dtors.load(), 1) << "round " << round;
    EXPECT_TRUE(w.expired());
  }
}

// ---------------------------------------------------------------------------
// Arc
// ---------------------------------------------------------------------------

static_assert(!std::is_default_constructible_v<Arc<CountedObj>>,
              "Arc must not be default constructible");
static_assert(!std::is_constructible_v<Arc<CountedObj>, std::nullptr_t>,
              "Arc must not be constructible from nullptr");
static_assert(!std::is_assignable_v<Arc<CountedObj>&, std::nullptr_t>,
              "Arc must not be assignable from nullptr");
static_assert(sizeof(Arc<CountedObj>) == sizeof(void*), "Arc is one pointer wide");
static_assert(sizeof(ObjectPtr<CountedObj>) == sizeof(void*), "ObjectPtr is one pointer wide");

TEST(Arc, MakeArcIsNonNullWithCountOne) {
  std::atomic<int> dtors{0};
  Arc<CountedObj> a = ffi::make_arc<CountedObj>(&dtors, 3);
  ASSERT_NE(a.get(), nullptr);
  EXPECT_EQ(a.use_count(), 1);
  EXPECT_EQ(a->value, 3);
  EXPECT_EQ((*a).value, 3);
}

TEST(Arc, CopyAndMoveKeepCountsExact) {
  std::atomic<int> dtors{0};
  Arc<CountedObj> a = ffi::make_arc<CountedObj>(&dtors);
  Arc<CountedObj> b = a;
  EXPECT_EQ(a.use_count(), 2);
  Arc<CountedObj> c = std::move(b);
  EXPECT_EQ(a.use_count(), 2);
  // A moved-from Arc is empty (documented exception to the non-null guarantee).
  EXPECT_EQ(b.get(), nullptr);  // NOLINT(bugprone-use-after-move)
  b = c;
  EXPECT_EQ(a.use_count(), 3);
  {
    ObjectPtr<CountedObj> nullable = a;  // Arc converts to the nullable carrier
    EXPECT_EQ(a.use_count(), 4);
  }
  EXPECT_EQ(a.use_count(), 3);
  EXPECT_EQ(dtors.load(), 0);
}

TEST(Arc, DestructorRunsOnceWhenLastArcGoes) {
  std::atomic<int> dtors{0};
  {
    Arc<CountedObj> a = ffi::make_arc<CountedObj>(&dtors);
    Arc<CountedObj> b = a;
  }
  EXPECT_EQ(dtors.load(), 1);
}

TEST(Arc, UnsafeInitIsEmpty) {
  Arc<CountedObj> a{ffi::UnsafeInit{}};
  EXPECT_EQ(a.get(), nullptr);
  EXPECT_EQ(a.use_count(), 0);
  std::atomic<int> dtors{0};
  a = ffi::make_arc<CountedObj>(&dtors);  // populated afterwards
  EXPECT_EQ(a.use_count(), 1);
}

TEST(Arc, UpcastSharesTheObject) {
  Arc<DogObj> dog = ffi::make_arc<DogObj>(4);
  Arc<AnimalObj> animal = dog;
  EXPECT_EQ(dog.use_count(), 2);
  EXPECT_EQ(animal->legs, 4);
  Arc<ffi::Object> base = std::move(animal);
  EXPECT_EQ(dog.use_count(), 2);
  static_assert(!std::is_constructible_v<Arc<DogObj>, Arc<AnimalObj>>,
                "Arc must not convert down the hierarchy implicitly");
  static_assert(!std::is_constructible_v<Arc<DogObj>, ObjectPtr<DogObj>>,
                "a nullable ObjectPtr must not become an Arc implicitly");
}

TEST(Arc, StoredInAnyCopiesRetainAndMovesTransfer) {
  Arc<DogObj> dog = ffi::make_arc<DogObj>(4);
  Any a = dog;
  EXPECT_EQ(dog.use_count(), 2);
  EXPECT_EQ(a.type_index(), DogObj::RuntimeTypeIndex());
  Any b = std::move(dog);
  EXPECT_EQ(dog.get(), nullptr);  // NOLINT(bugprone-use-after-move)
  Arc<DogObj> back = a.cast<Arc<DogObj>>();
  EXPECT_EQ(back.use_count(), 3);
  Arc<DogObj> moved = std::move(b).cast<Arc<DogObj>>();
  EXPECT_TRUE(b.is_none());  // NOLINT(bugprone-use-after-move): the exact-type cast moved out
  EXPECT_EQ(moved.use_count(), 3);
}

TEST(Arc, CastFromNoneThrowsTypeError) {
  Any none;
  EXPECT_EQ(TypeErrorMessage([&] { none.cast<Arc<DogObj>>(); }),
            "Cannot convert from type `None` to `test.object.Dog`");
  EXPECT_FALSE(none.try_cast<Arc<DogObj>>().has_value());
  EXPECT_FALSE(none.as<Arc<DogObj>>().has_value());
}

TEST(Arc, CastFromAnotherObjectTypeThrowsTypeError) {
  Any cat = ffi::make_arc<CatObj>();
  EXPECT_EQ(TypeErrorMessage([&] { cat.cast<Arc<DogObj>>(); }),
            "Cannot convert from type `test.object.Cat` to `test.object.Dog`");
  // An ancestor type accepts it.
  EXPECT_EQ(cat.cast<Arc<MammalObj>>()->type_index(), CatObj::RuntimeTypeIndex());
}

TEST(Arc, SchemaIsTheBareObjectType) {
  EXPECT_EQ(ffi::TypeTraits<Arc<DogObj>>::TypeStr(), "test.object.Dog");
  EXPECT_EQ(ffi::TypeTraits<Arc<DogObj>>::TypeSchema(), R"({"type":"test.object.Dog"})");
}

TEST(Arc, OptionalArcRoundTripsThroughAny) {
  using OptDog = ffi::Optional<Arc<DogObj>>;
  Arc<DogObj> dog = ffi::make_arc<DogObj>(4);
  OptDog present = dog;
  EXPECT_EQ(dog.use_count(), 2);
  Any a = present;
  EXPECT_EQ(a.type_index(), DogObj::RuntimeTypeIndex());
  OptDog back = a.cast<OptDog>();
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back.value().get(), dog.get());
  EXPECT_EQ(dog.use_count(), 4);

  OptDog empty;
  Any none = empty;
  EXPECT_TRUE(none.is_none());
  EXPECT_FALSE(none.cast<OptDog>().has_value());
  EXPECT_EQ(ffi::TypeTraits<OptDog>::TypeStr(), "Optional<test.object.Dog>");
  EXPECT_EQ(ffi::TypeTraits<OptDog>::TypeSchema(),
            R"({"type":"Optional","args":[{"type":"test.object.Dog"}]})");
}

// ---------------------------------------------------------------------------
// ObjectPtr and Any: null <-> None
// ---------------------------------------------------------------------------

TEST(ObjectPtr, NullBecomesNoneInAny) {
  ObjectPtr<DogObj> null;
  Any a = null;
  EXPECT_TRUE(a.is_none());
  EXPECT_EQ(a.type_index(), kTVMFFINone);
}

TEST(ObjectPtr, NoneCastsToNull) {
  Any none;
  ObjectPtr<DogObj> p = none.cast<ObjectPtr<DogObj>>();
  EXPECT_EQ(p, nullptr);
  std::optional<ObjectPtr<DogObj>> exact = none.as<ObjectPtr<DogObj>>();
  ASSERT_TRUE(exact.has_value());
  EXPECT_EQ(*exact, nullptr);
}

TEST(ObjectPtr, StoredInAnyRetainsTheObject) {
  std::atomic<int> dtors{0};
  ObjectPtr<CountedObj> p = ffi::make_object<CountedObj>(&dtors);
  {
    Any a = p;
    EXPECT_EQ(p.use_count(), 2);
    Any b = a;
    EXPECT_EQ(p.use_count(), 3);
    ffi::AnyView v = a;  // a view holds no reference
    EXPECT_EQ(p.use_count(), 3);
    EXPECT_EQ(v.cast<ObjectPtr<CountedObj>>().get(), p.get());
  }
  EXPECT_EQ(p.use_count(), 1);
  EXPECT_EQ(dtors.load(), 0);
}

TEST(ObjectPtr, WrongObjectTypeCastNamesBothTypes) {
  Any cat = ffi::make_object<CatObj>();
  EXPECT_EQ(TypeErrorMessage([&] { cat.cast<ObjectPtr<DogObj>>(); }),
            "Cannot convert from type `test.object.Cat` to `test.object.Dog`");
  Any number = 1;
  EXPECT_EQ(TypeErrorMessage([&] { number.cast<ObjectPtr<DogObj>>(); }),
            "Cannot convert from type `int` to `test.object.Dog`");
}

TEST(ObjectPtr, TypeStrIsTheKeyAndSchemaIsOptionalOfIt) {
  EXPECT_EQ(ffi::TypeTraits<ObjectPtr<DogObj>>::TypeStr(), "test.object.Dog");
  EXPECT_EQ(ffi::TypeTraits<ObjectPtr<DogObj>>::TypeSchema(),
            R"({"type":"Optional","args":[{"type":"test.object.Dog"}]})");
}

// ---------------------------------------------------------------------------
// Type hierarchy
// ---------------------------------------------------------------------------

TEST(ObjectHierarchy, DynamicTypesGetStableIndicesAboveDynObjectBegin) {
  int32_t animal = AnimalObj::RuntimeTypeIndex();
  int32_t mammal = MammalObj::RuntimeTypeIndex();
  int32_t dog = DogObj::RuntimeTypeIndex();
  EXPECT_GE(animal, kTVMFFIDynObjectBegin);
  EXPECT_GE(mammal, kTVMFFIDynObjectBegin);
  EXPECT_GE(dog, kTVMFFIDynObjectBegin);
  EXPECT_NE(animal, mammal);
  EXPECT_NE(mammal, dog);
  EXPECT_EQ(DogObj::RuntimeTypeIndex(), dog);
  TVMFFIByteArray key{"test.object.Dog", std::char_traits<char>::length("test.object.Dog")};
  int32_t looked_up = -1;
  ASSERT_EQ(TVMFFITypeKeyToIndex(&key, &looked_up), 0);
  EXPECT_EQ(looked_up, dog);
}

TEST(ObjectHierarchy, RegistryRecordsDepthAndAncestors) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(DogObj::RuntimeTypeIndex());
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(std::string(info->type_key.data, info->type_key.size), "test.object.Dog");
  EXPECT_EQ(info->type_depth, 3);
  EXPECT_EQ(DogObj::_type_depth, 3);
  EXPECT_EQ(info->type_ancestors[0]->type_index, kTVMFFIObject);
  EXPECT_EQ(info->type_ancestors[1]->type_index, AnimalObj::RuntimeTypeIndex());
  EXPECT_EQ(info->type_ancestors[2]->type_index, MammalObj::RuntimeTypeIndex());
}

TEST(ObjectHierarchy, IsInstanceAtEveryLevel) {
  ObjectPtr<DogObj> dog = ffi::make_object<DogObj>();
  const ffi::Object* obj = dog.get();
  EXPECT_TRUE(obj->IsInstance<ffi::Object>());
  EXPECT_TRUE(obj->IsInstance<AnimalObj>());
  EXPECT_TRUE(obj->IsInstance<MammalObj>());
  EXPECT_TRUE(obj->IsInstance<DogObj>());
  EXPECT_FALSE(obj->IsInstance<CatObj>());
  EXPECT_FALSE(obj->IsInstance<BirdObj>());
}

TEST(ObjectHierarchy, IsInstanceRejectsSiblingsAndDescendants) {
  ObjectPtr<MammalObj> mammal = ffi::make_object<MammalObj>();
  EXPECT_TRUE(mammal->IsInstance<AnimalObj>());
  EXPECT_TRUE(mammal->IsInstance<MammalObj>());
  EXPECT_FALSE(mammal->IsInstance<DogObj>());  // a parent is not a child
  EXPECT_FALSE(mammal->IsInstance<BirdObj>());

  ObjectPtr<BirdObj> bird = ffi::make_object<BirdObj>();
  EXPECT_TRUE(bird->IsInstance<AnimalObj>());
  EXPECT_FALSE(bird->IsInstance<MammalObj>());
  EXPECT_FALSE(bird->IsInstance<DogObj>());

  ObjectPtr<AnimalObj> animal = ffi::make_object<AnimalObj>();
  EXPECT_TRUE(animal->IsInstance<AnimalObj>());
  EXPECT_FALSE(animal->IsInstance<MammalObj>());
  EXPECT_FALSE(animal->IsInstance<BirdObj>());

  std::atomic<int> dtors{0};
  ObjectPtr<CountedObj> unrelated = ffi::make_object<CountedObj>(&dtors);
  EXPECT_FALSE(unrelated->IsInstance<AnimalObj>());
}

TEST(ObjectHierarchy, TypeKeysOfObjectsAndReferences) {
  Dog dog(4);
  EXPECT_EQ(dog->GetTypeKey(), "test.object.Dog");
  EXPECT_EQ(dog.GetTypeKey(), "test.object.Dog");
  Animal bird(ffi::make_object<BirdObj>());
  EXPECT_EQ(bird.GetTypeKey(), "test.object.Bird");
  Animal none;
  EXPECT_EQ(none.GetTypeKey(), "None");
  EXPECT_EQ(none.type_index(), kTVMFFINone);
  Any a = dog;
  EXPECT_EQ(a.GetTypeKey(), "test.object.Dog");
}

// ---------------------------------------------------------------------------
// ObjectRef
// ---------------------------------------------------------------------------

static_assert(std::is_default_constructible_v<Animal>, "a NULLABLE ref has a default constructor");
static_assert(std::is_default_constructible_v<Mammal>, "a NULLABLE ref has a default constructor");
static_assert(std::is_default_constructible_v<Bird>, "a NULLABLE ref has a default constructor");
static_assert(!std::is_default_constructible_v<Dog>,
              "a NOTNULLABLE ref has no default constructor");
static_assert(!std::is_constructible_v<Dog, ObjectPtr<CatObj>>,
              "a ref only wraps pointers to its container type");
static_assert(sizeof(Animal) == sizeof(void*), "a reference is one pointer wide");

TEST(ObjectRef, DefaultConstructedNullableRefIsUndefined) {
  Animal a;
  EXPECT_FALSE(a.defined());
  EXPECT_EQ(a.get(), nullptr);
  EXPECT_EQ(a.use_count(), 0);
}

TEST(ObjectRef, CopyAndMoveKeepCountsExact) {
  Dog dog(4);
  EXPECT_EQ(dog.use_count(), 1);
  Dog copy = dog;
  EXPECT_EQ(dog.use_count(), 2);
  Dog moved = std::move(copy);
  EXPECT_EQ(dog.use_count(), 2);
  Animal as_animal = dog;
  EXPECT_EQ(dog.use_count(), 3);
  as_animal = Animal();
  EXPECT_EQ(dog.use_count(), 2);
  EXPECT_TRUE(moved.same_as(dog));
  EXPECT_TRUE(moved == dog);
}

TEST(ObjectRef, ArrowReachesTheContainer) {
  Dog dog(4);
  EXPECT_EQ(dog->legs, 4);
  EXPECT_EQ(dog.get()->legs, 4);
}

TEST(ObjectRef, SameAsIsIdentityNotValue) {
  Dog a(4), b(4);
  EXPECT_FALSE(a.same_as(b));
  EXPECT_TRUE(a != b);
  EXPECT_NE(a < b, b < a);  // a strict order by address
  std::unordered_set<ObjectRef, ffi::ObjectPtrHash, ffi::ObjectPtrEqual> set{a, b, a};
  EXPECT_EQ(set.size(), 2u);
}

TEST(ObjectRef, AsReturnsTheObjectOnlyForInstances) {
  Animal dog = Dog(4);
  ASSERT_NE(dog.as<DogObj>(), nullptr);
  EXPECT_EQ(dog.as<DogObj>()->legs, 4);
  EXPECT_NE(dog.as<MammalObj>(), nullptr);
  EXPECT_NE(dog.as<AnimalObj>(), nullptr);
  EXPECT_NE(dog.as<ffi::Object>(), nullptr);
  EXPECT_EQ(dog.as<CatObj>(), nullptr);
  EXPECT_EQ(dog.as<BirdObj>(), nullptr);
  Animal none;
  EXPECT_EQ(none.as<AnimalObj>(), nullptr);
  EXPECT_EQ(none.as<ffi::Object>(), nullptr);
}

TEST(ObjectRef, GetRefMakesANewReference) {
  Dog dog(4);
  const DogObj* raw = dog.get();
  Dog again = ffi::GetRef<Dog>(raw);
  EXPECT_TRUE(again.same_as(dog));
  EXPECT_EQ(dog.use_count(), 2);
  Animal as_animal = ffi::GetRef<Animal>(raw);
  EXPECT_EQ(dog.use_count(), 3);
}

TEST(ObjectRef, GetObjectPtrMakesANewReference) {
  Dog dog(4);
  ObjectPtr<DogObj> p = ffi::GetObjectPtr<DogObj>(dog.get());
  EXPECT_EQ(p.get(), dog.get());
  EXPECT_EQ(dog.use_count(), 2);
  p.reset();
  EXPECT_EQ(dog.use_count(), 1);
}

TEST(ObjectRef, DowncastToTheDynamicTypeSucceeds) {
  Dog dog(4);
  Animal animal = dog;
  Mammal mammal = ffi::Downcast<Mammal>(animal);
  EXPECT_TRUE(mammal.same_as(dog));
  Dog back = ffi::Downcast<Dog>(animal);
  EXPECT_TRUE(back.same_as(dog));
  EXPECT_EQ(dog.use_count(), 4);  // dog, animal, mammal, back
  Dog moved = ffi::Downcast<Dog>(std::move(animal));
  EXPECT_EQ(dog.use_count(), 4);  // moved in, moved out
}

TEST(ObjectRef, DowncastToAnUnrelatedTypeNamesBothTypes) {
  Animal cat(ffi::make_object<CatObj>());
  EXPECT_EQ(TypeErrorMessage([&] { ffi::Downcast<Dog>(cat); }),
            "Cannot convert from type `test.object.Cat` to `test.object.Dog`");
  EXPECT_EQ(TypeErrorMessage([&] { ffi::Downcast<Bird>(cat); }),
            "Cannot convert from type `test.object.Cat` to `test.object.Bird`");
  EXPECT_EQ(cat.use_count(), 1);  // the failed casts released their copies
}

TEST(ObjectRef, DowncastOfNullDependsOnNullability) {
  Animal none;
  Bird bird = ffi::Downcast<Bird>(none);  // nullable target keeps None
  EXPECT_FALSE(bird.defined());
  EXPECT_EQ(TypeErrorMessage([&] { ffi::Downcast<Dog>(none); }),
            "Cannot convert from type `None` to `test.object.Dog`");
}

TEST(ObjectRef, DowncastFromAny) {
  Dog dog(4);
  Any a = dog;
  EXPECT_TRUE(ffi::Downcast<Dog>(a).same_as(dog));
  Any number = 3;
  EXPECT_EQ(TypeErrorMessage([&] { ffi::Downcast<Dog>(number); }),
            "Cannot convert from type `int` to `test.object.Dog`");
}

TEST(ObjectRef, NullableRefMapsNoneBothWays) {
  Animal none;
  Any a = none;
  EXPECT_TRUE(a.is_none());
  Animal back = a.cast<Animal>();
  EXPECT_FALSE(back.defined());
}

TEST(ObjectRef, NotNullableRefRejectsNone) {
  Any none;
  EXPECT_EQ(TypeErrorMessage([&] { none.cast<Dog>(); }),
            "Cannot convert from type `None` to `test.object.Dog`");
  EXPECT_FALSE(none.try_cast<Dog>().has_value());
}

TEST(ObjectRef, CastFromAnyChecksTheHierarchy) {
  Any dog = Dog(4);
  EXPECT_EQ(dog.cast<Animal>()->legs, 4);
  EXPECT_TRUE(dog.cast<Mammal>().defined());
  EXPECT_TRUE(dog.cast<ObjectRef>().defined());
  EXPECT_EQ(TypeErrorMessage([&] { dog.cast<Bird>(); }),
            "Cannot convert from type `test.object.Dog` to `test.object.Bird`");
  Any animal = Animal(ffi::make_object<AnimalObj>());
  EXPECT_EQ(TypeErrorMessage([&] { animal.cast<Mammal>(); }),
            "Cannot convert from type `test.object.Animal` to `test.object.Mammal`");
}

TEST(ObjectRef, AnyAsObjectTypeReturnsPointerOrNull) {
  Any dog = Dog(4);
  const DogObj* p = dog.as<DogObj>();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->legs, 4);
  EXPECT_NE(dog.as<AnimalObj>(), nullptr);
  EXPECT_EQ(dog.as<CatObj>(), nullptr);
  Any number = 1;
  EXPECT_EQ(number.as<DogObj>(), nullptr);
}

TEST(ObjectRef, RefSchemaIsTheContainerTypeKey) {
  EXPECT_EQ(ffi::TypeTraits<Dog>::TypeStr(), "test.object.Dog");
  EXPECT_EQ(ffi::TypeTraits<Dog>::TypeSchema(), R"({"type":"test.object.Dog"})");
  EXPECT_EQ(ffi::TypeTraits<ObjectRef>::TypeStr(), "ffi.Object");
}

// ---------------------------------------------------------------------------
// In-place array objects
// ---------------------------------------------------------------------------

/*! \brief An element that counts constructions and destructions. */
struct CountedElem {
  static std::atomic<int> constructed;
  static std::atomic<int> destroyed;
  explicit CountedElem(int64_t v) : value(v) { constructed.fetch_add(1); }
  ~CountedElem() { destroyed.fetch_add(1); }
  int64_t value;
  double weight = 0.5;
};
std::atomic<int> CountedElem::constructed{0};
std::atomic<int> CountedElem::destroyed{0};

/*! \brief Owns `size` CountedElem stored right after itself. */
class ElemArrayObj : public ffi::Object {
 public:
  int32_t tag = 0;  // makes sizeof unaligned to the element so padding matters
  size_t size = 0;
  ~ElemArrayObj() {
    CountedElem* base = ffi::InplaceArrayBase<ElemArrayObj, CountedElem>(this);
    for (size_t i = 0; i < size; ++i) base[i].~CountedElem();
  }
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.object.ElemArray", ElemArrayObj, ffi::Object);
};

ObjectPtr<ElemArrayObj> MakeElemArray(size_t n) {
  ObjectPtr<ElemArrayObj> p = ffi::make_inplace_array_object<ElemArrayObj, CountedElem>(n);
  CountedElem* base = ffi::InplaceArrayBase<ElemArrayObj, CountedElem>(p.get());
  for (size_t i = 0; i < n; ++i) {
    new (base + i) CountedElem(static_cast<int64_t>(i) * 10);
    p->size = i + 1;
  }
  return p;
}

TEST(InplaceArray, ElementsFollowTheObjectAligned) {
  ObjectPtr<ElemArrayObj> p = MakeElemArray(5);
  const char* obj = reinterpret_cast<const char*>(p.get());
  const char* base =
      reinterpret_cast<const char*>(ffi::InplaceArrayBase<ElemArrayObj, CountedElem>(p.get()));
  EXPECT_GE(base, obj + sizeof(ElemArrayObj));
  EXPECT_LT(base, obj + sizeof(ElemArrayObj) + alignof(CountedElem));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(base) % alignof(CountedElem), 0u);
  EXPECT_EQ(p.use_count(), 1);
  EXPECT_EQ(p->type_index(), ElemArrayObj::RuntimeTypeIndex());
}

TEST(InplaceArray, ElementsAreReadableAndWritable) {
  ObjectPtr<ElemArrayObj> p = MakeElemArray(100);
  CountedElem* base = ffi::InplaceArrayBase<ElemArrayObj, CountedElem>(p.get());
  for (size_t i = 0; i < 100; ++i) {
    EXPECT_EQ(base[i].value, static_cast<int64_t>(i) * 10);
    base[i].weight = static_cast<double>(i);
  }
  EXPECT_EQ(base[99].weight, 99.0);
}

TEST(InplaceArray, DestructionDestroysEveryElementOnce) {
  int constructed0 = CountedElem::constructed.load();
  int destroyed0 = CountedElem::destroyed.load();
  {
    ObjectPtr<ElemArrayObj> p = MakeElemArray(17);
    ObjectPtr<ElemArrayObj> q = p;
    EXPECT_EQ(CountedElem::constructed.load() - constructed0, 17);
    p.reset();
    EXPECT_EQ(CountedElem::destroyed.load() - destroyed0, 0);
  }
  EXPECT_EQ(CountedElem::destroyed.load() - destroyed0, 17);
}

TEST(InplaceArray, ZeroElementsIsValid) {
  int destroyed0 = CountedElem::destroyed.load();
  ObjectPtr<ElemArrayObj> p = MakeElemArray(0);
  EXPECT_EQ(p->size, 0u);
  p.reset();
  EXPECT_EQ(CountedElem::destroyed.load() - destroyed0, 0);
}

class CharBufObj : public ffi::Object {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.object.CharBuf", CharBufObj, ffi::Object);
};

TEST(InplaceArray, CharElementsHoldArbitraryLength) {
  constexpr size_t kLen = 4096;
  ObjectPtr<CharBufObj> p = ffi::make_inplace_array_object<CharBufObj, char>(kLen);
  char* data = ffi::InplaceArrayBase<CharBufObj, char>(p.get());
  EXPECT_EQ(data, reinterpret_cast<char*>(p.get()) + sizeof(CharBufObj));
  for (size_t i = 0; i < kLen; ++i) data[i] = static_cast<char>('a' + i % 26);
  EXPECT_EQ(data[kLen - 1], static_cast<char>('a' + (kLen - 1) % 26));
}

}  // namespace
