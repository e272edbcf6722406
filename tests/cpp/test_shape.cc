// Tests of container/shape.h (Shape, ShapeView, their Any conversions) and
// of the runtime global "ffi.Shape".
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/function.h>

#include <list>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace ffi = tvm::ffi;

void ExpectExtents(const ffi::Shape& s, const std::vector<int64_t>& expected) {
  ASSERT_EQ(s.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(s[i], expected[i]) << "index " << i;
}

TEST(ShapeContainer, Construction) {
  ffi::Shape shape = {1, 2, 3};
  ExpectExtents(shape, {1, 2, 3});
  ExpectExtents(ffi::Shape(std::vector<int64_t>{4, 5}), {4, 5});
  std::list<int> ints = {6, 7, 8, 9};
  ExpectExtents(ffi::Shape(ints.begin(), ints.end()), {6, 7, 8, 9});
  int64_t raw[] = {10, 11};
  ExpectExtents(ffi::Shape(raw, raw + 2), {10, 11});
  std::vector<int64_t> vec = {12, 13, 14};
  ExpectExtents(ffi::Shape(ffi::ShapeView(vec)), {12, 13, 14});
  // The default is the empty shape, not null.
  ffi::Shape empty;
  EXPECT_TRUE(empty.defined());
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_EQ(empty.Product(), 1);
  EXPECT_EQ(sizeof(ffi::Shape), sizeof(void*));
}

TEST(ShapeContainer, ReadApi) {
  ffi::Shape shape = {2, 3, 4};
  EXPECT_EQ(shape.ndim(), 3u);
  EXPECT_EQ(shape.at(1), 3);
  EXPECT_EQ(shape.front(), 2);
  EXPECT_EQ(shape.back(), 4);
  EXPECT_EQ(shape.Product(), 24);
  int64_t sum = 0;
  for (int64_t v : shape) sum += v;
  EXPECT_EQ(sum, 9);
  EXPECT_EQ(shape.ToVector(), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ((ffi::Shape{5, 0, 7}).Product(), 0);
  std::ostringstream os;
  os << shape;
  EXPECT_EQ(os.str(), "[2, 3, 4]");
}

TEST(ShapeContainer, OutOfRangeIndexRaisesIndexError) {
  ffi::Shape shape = {2, 3, 4};
  for (size_t bad : {size_t{3}, size_t{100}}) {
    try {
      (void)shape.at(bad);
      ADD_FAILURE() << "no error for index " << bad;
    } catch (const ffi::Error& e) {
      EXPECT_EQ(e.kind(), "IndexError");
      EXPECT_NE(e.message().find("indexing " + std::to_string(bad)), std::string::npos)
          << e.message();
      EXPECT_NE(e.message().find("size 3"), std::string::npos) << e.message();
    }
  }
  EXPECT_THROW((void)shape.at(3), ffi::Error);
  EXPECT_THROW((void)ffi::Shape().back(), ffi::Error);
}

TEST(ShapeContainer, EqualityComparesExtents) {
  ffi::Shape a = {1, 2, 3};
  ffi::Shape b = {1, 2, 3};
  ffi::Shape c = {1, 2};
  ffi::Shape d = {1, 2, 4};
  EXPECT_FALSE(a.same_as(b));
  EXPECT_TRUE(a == b);
  EXPECT_TRUE(a != c);
  EXPECT_TRUE(a != d);
  std::vector<int64_t> v = {1, 2, 3};
  EXPECT_TRUE(a == ffi::ShapeView(v));
  EXPECT_TRUE(ffi::ShapeView(v) == a);
  EXPECT_TRUE(ffi::ShapeView(v) != c);
  EXPECT_TRUE(ffi::Shape() == ffi::Shape());
}

TEST(ShapeContainer, ObjectLayoutFollowsTheAbi) {
  ffi::Shape shape = {7, 8, 9};
  const ffi::ShapeObj* obj = shape.get();
  EXPECT_EQ(obj->type_index(), kTVMFFIShape);
  const char* base = reinterpret_cast<const char*>(obj);
  // The cell follows the 24-byte header; the extents follow the object.
  const TVMFFIShapeCell* cell = reinterpret_cast<const TVMFFIShapeCell*>(base + 24);
  EXPECT_EQ(cell->size, 3u);
  EXPECT_EQ(cell->data, shape.data());
  EXPECT_EQ(reinterpret_cast<const char*>(cell->data), base + sizeof(ffi::ShapeObj));
  EXPECT_EQ(cell->data[2], 9);
  EXPECT_EQ(obj->GetTypeKey(), "ffi.Shape");
}

TEST(ShapeContainer, ShapeViewIsNonOwning) {
  std::vector<int64_t> v = {3, 4};
  ffi::ShapeView view = v;
  EXPECT_EQ(view.data(), v.data());
  EXPECT_EQ(view.Product(), 12);
  EXPECT_EQ(view[1], 4);
  EXPECT_THROW((void)view.at(2), ffi::Error);
  ffi::Shape shape = {5, 6, 7};
  ffi::ShapeView from_shape = shape;
  EXPECT_EQ(from_shape.data(), shape.data());
  EXPECT_EQ(shape.use_count(), 1);
  ffi::ShapeView empty;
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.Product(), 1);
}

TEST(ShapeTypeTraits, AnyRoundTrip) {
  ffi::Shape shape = {1, 2, 3};
  ffi::Any a = shape;
  EXPECT_EQ(a.type_index(), kTVMFFIShape);
  EXPECT_EQ(shape.use_count(), 2);
  ffi::Shape back = a.cast<ffi::Shape>();
  EXPECT_TRUE(back.same_as(shape));
  EXPECT_EQ(ffi::TypeTraits<ffi::Shape>::TypeStr(), "ffi.Shape");
  EXPECT_EQ(ffi::TypeTraits<ffi::Shape>::TypeSchema(), "{\"type\":\"ffi.Shape\"}");
  a.reset();
  EXPECT_EQ(shape.use_count(), 2);  // shape and back
}

TEST(ShapeTypeTraits, ArraysAndListsOfIntsConvert) {
  ffi::Any arr = ffi::Array<int64_t>({4, 5, 6});
  EXPECT_FALSE(arr.as<ffi::Shape>().has_value());
  ExpectExtents(arr.cast<ffi::Shape>(), {4, 5, 6});
  ffi::Any list = ffi::List<int>({7, 8});
  ExpectExtents(list.cast<ffi::Shape>(), {7, 8});
  ffi::Any empty = ffi::Array<int64_t>();
  EXPECT_TRUE(empty.cast<ffi::Shape>().empty());
}

TEST(ShapeTypeTraits, BadValuesRaiseTypeError) {
  ffi::Any mixed = ffi::Array<ffi::Any>({1, ffi::String("x"), 3});
  EXPECT_FALSE(mixed.try_cast<ffi::Shape>().has_value());
  try {
    mixed.cast<ffi::Shape>();
    ADD_FAILURE() << "no error";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "TypeError");
    EXPECT_NE(e.message().find("from type `ffi.Array` to `ffi.Shape`"), std::string::npos)
        << e.message();
  }
  ffi::Any none;
  try {
    none.cast<ffi::Shape>();
    ADD_FAILURE() << "no error";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "TypeError");
    EXPECT_NE(e.message().find("Cannot convert from type `None` to `ffi.Shape`"), std::string::npos)
        << e.message();
  }
  EXPECT_THROW(ffi::Any(1.5).cast<ffi::Shape>(), ffi::Error);
}

TEST(ShapeTypeTraits, TypedFunctionParameter) {
  ffi::Function numel =
      ffi::Function::FromTyped([](ffi::Shape s) -> int64_t { return s.Product(); }, "numel");
  EXPECT_EQ(numel(ffi::Shape({2, 5})).cast<int64_t>(), 10);
  EXPECT_EQ(numel(ffi::Array<int64_t>({3, 3})).cast<int64_t>(), 9);
  EXPECT_THROW(numel("3"), ffi::Error);
  ffi::Function make = ffi::Function::FromTyped(
      [](int64_t n) { return ffi::Shape(std::vector<int64_t>(static_cast<size_t>(n), 2)); });
  ffi::Shape made = make(3).cast<ffi::Shape>();
  ExpectExtents(made, {2, 2, 2});
  EXPECT_EQ(made.use_count(), 1);
}

TEST(ShapeGlobal, FfiShapeBuildsShapes) {
  ffi::Function f = ffi::Function::GetGlobalRequired("ffi.Shape");
  ffi::Shape s = f(2, 3, 4).cast<ffi::Shape>();
  ExpectExtents(s, {2, 3, 4});
  EXPECT_TRUE(f().cast<ffi::Shape>().empty());
  try {
    f(1, "two");
    ADD_FAILURE() << "no error";
  } catch (const ffi::Error& e) {
    EXPECT_EQ(e.kind(), "TypeError");
    EXPECT_NE(e.message().find("argument #1"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("`const char*`"), std::string::npos) << e.message();
  }
}

}  // namespace
