// Tests of the Tensor/TensorView/Shape members of the 0.1.x C++ API: size(i),
// stride(i), dim(), sizes(), is_contiguous(), as_strided, the nullable
// Tensor, the free IsContiguous/IsAligned/IsDirectAddressDevice, and the
// Shape/ShapeView construction forms.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>

#include <cstdlib>
#include <sstream>
#include <vector>

#include "testing_helpers.h"

namespace {

namespace ffi = tvm::ffi;
using ffi::Shape;
using ffi::ShapeView;
using ffi::Tensor;
using ffi::TensorView;
using tvm_ffi_testing::CatchError;

struct MallocAlloc {
  void AllocData(DLTensor* t) { t->data = std::malloc(ffi::GetDataSize(*t) + 1); }
  void FreeData(DLTensor* t) { std::free(t->data); }
};

const DLDataType kF32 = {kDLFloat, 32, 1};
const DLDevice kCPU = {kDLCPU, 0};

Tensor Make(std::initializer_list<int64_t> shape) {
  return Tensor::FromNDAlloc(MallocAlloc(), shape, kF32, kCPU);
}

TEST(TensorApi, SizeAndStrideCountNegativeIndicesFromTheEnd) {
  Tensor t = Make({2, 3, 4});
  EXPECT_EQ(t.size(0), 2);
  EXPECT_EQ(t.size(2), 4);
  EXPECT_EQ(t.size(-1), 4);
  EXPECT_EQ(t.size(-3), 2);
  EXPECT_EQ(t.stride(0), 12);
  EXPECT_EQ(t.stride(1), 4);
  EXPECT_EQ(t.stride(-1), 1);
}

TEST(TensorApi, OutOfRangeDimIsIndexErrorNamingTheIndex) {
  Tensor t = Make({2, 3});
  ffi::Error e = CatchError([&] { (void)t.size(2); });
  EXPECT_EQ(e.kind(), "IndexError");
  EXPECT_EQ(e.message(), "Index 2 out of bounds for tensor with 2 dimensions");
  EXPECT_EQ(CatchError([&] { (void)t.stride(-3); }).message(),
            "Index -3 out of bounds for tensor with 2 dimensions");
}

TEST(TensorApi, AtenStyleAccessors) {
  Tensor t = Make({2, 3});
  EXPECT_EQ(t.dim(), 2);
  EXPECT_EQ(t.sizes(), t.shape());
  EXPECT_EQ(t.sizes()[1], 3);
  EXPECT_EQ(t.strides()[0], 3);
  EXPECT_EQ(t.numel(), 6);
  EXPECT_TRUE(t.is_contiguous());
}

TEST(TensorApi, DefaultTensorIsNullAndNoneCastsToIt) {
  Tensor t;
  EXPECT_FALSE(t.defined());
  ffi::Any none;
  EXPECT_FALSE(none.cast<Tensor>().defined());
  ffi::Any stored = t;
  EXPECT_EQ(stored.type_index(), kTVMFFINone);
}

TEST(TensorApi, AsStridedSharesTheMemoryAndKeepsItAlive) {
  Tensor view;
  void* base = nullptr;
  {
    Tensor t = Make({4, 6});
    base = t.data_ptr();
    view = t.as_strided({2, 3}, {6, 2}, 7);
  }
  EXPECT_EQ(view.ndim(), 2);
  EXPECT_EQ(view.size(0), 2);
  EXPECT_EQ(view.stride(1), 2);
  // The element offset is folded into the data pointer on CPU.
  EXPECT_EQ(view.data_ptr(), static_cast<char*>(base) + 7 * sizeof(float));
  EXPECT_EQ(view.byte_offset(), 0u);
  EXPECT_FALSE(view.is_contiguous());
}

TEST(TensorApi, AsStridedWithoutOffsetKeepsTheData) {
  Tensor t = Make({4, 6});
  Tensor view = t.as_strided({6, 4}, {1, 6});
  EXPECT_EQ(view.data_ptr(), t.data_ptr());
  EXPECT_EQ(view.shape(), ShapeView({6, 4}));
}

TEST(TensorApi, AsStridedRejectsMismatchedSizes) {
  Tensor t = Make({4});
  EXPECT_EQ(CatchError([&] { t.as_strided({2, 2}, {2}); }).kind(), "InternalError");
  EXPECT_EQ(CatchError([&] { t.as_strided({2}, {1}, -1); }).kind(), "InternalError");
}

TEST(TensorViewApi, SizeStrideDimAndAsStrided) {
  Tensor t = Make({2, 5});
  TensorView v = t;
  EXPECT_EQ(v.size(-1), 5);
  EXPECT_EQ(v.stride(0), 5);
  EXPECT_EQ(v.dim(), 2);
  EXPECT_EQ(v.sizes()[0], 2);
  EXPECT_TRUE(v.is_contiguous());
  int64_t shape[1] = {5};
  int64_t strides[1] = {1};
  TensorView row = v.as_strided(ShapeView(shape, 1), ShapeView(strides, 1), 5);
  EXPECT_EQ(row.ndim(), 1);
  EXPECT_EQ(row.data_ptr(), static_cast<char*>(t.data_ptr()) + 5 * sizeof(float));
  EXPECT_EQ(CatchError([&] { (void)v.size(2); }).kind(), "IndexError");
}

TEST(TensorViewApi, UndefinedTensorOrNullPointerIsInternalError) {
  Tensor undefined;
  EXPECT_EQ(CatchError([&] {
              TensorView v = undefined;
              (void)v;
            }).kind(),
            "InternalError");
  const DLTensor* null = nullptr;
  EXPECT_EQ(CatchError([&] {
              TensorView v = null;
              (void)v;
            }).kind(),
            "InternalError");
}

TEST(TensorViewApi, AssignFromATensor) {
  Tensor a = Make({2});
  Tensor b = Make({3, 3});
  TensorView v = a;
  v = b;
  EXPECT_EQ(v.ndim(), 2);
  EXPECT_EQ(v.data_ptr(), b.data_ptr());
}

TEST(TensorFreeFunctions, IsDirectAddressDevice) {
  EXPECT_TRUE(ffi::IsDirectAddressDevice({kDLCPU, 0}));
  EXPECT_TRUE(ffi::IsDirectAddressDevice({kDLCUDA, 1}));
  EXPECT_TRUE(ffi::IsDirectAddressDevice({kDLCUDAHost, 0}));
  EXPECT_TRUE(ffi::IsDirectAddressDevice({kDLCUDAManaged, 0}));
  EXPECT_TRUE(ffi::IsDirectAddressDevice({kDLROCM, 0}));
  EXPECT_TRUE(ffi::IsDirectAddressDevice({kDLROCMHost, 0}));
  EXPECT_FALSE(ffi::IsDirectAddressDevice({kDLOpenCL, 0}));
  EXPECT_FALSE(ffi::IsDirectAddressDevice({kDLVulkan, 0}));
}

TEST(TensorFreeFunctions, IsContiguous) {
  int64_t shape[3] = {2, 1, 3};
  int64_t compact[3] = {3, 3, 1};
  int64_t any_unit_stride[3] = {3, 99, 1};
  int64_t transposed[3] = {1, 3, 2};
  DLTensor t{nullptr, kCPU, 3, kF32, shape, nullptr, 0};
  EXPECT_TRUE(ffi::IsContiguous(t));
  t.strides = compact;
  EXPECT_TRUE(ffi::IsContiguous(t));
  t.strides = any_unit_stride;
  EXPECT_TRUE(ffi::IsContiguous(t));
  t.strides = transposed;
  EXPECT_FALSE(ffi::IsContiguous(t));
  int64_t empty_shape[3] = {2, 0, 3};
  t.shape = empty_shape;
  EXPECT_TRUE(ffi::IsContiguous(t));
}

TEST(TensorFreeFunctions, IsAlignedUsesTheAddressOnlyOnDirectDevices) {
  alignas(64) static char buffer[128];
  int64_t shape[1] = {1};
  DLTensor t{buffer + 4, kCPU, 1, kF32, shape, nullptr, 4};
  EXPECT_TRUE(ffi::IsAligned(t, 8));
  EXPECT_FALSE(ffi::IsAligned(t, 16));
  DLTensor opencl{reinterpret_cast<void*>(3), {kDLOpenCL, 0}, 1, kF32, shape, nullptr, 16};
  EXPECT_TRUE(ffi::IsAligned(opencl, 16));
  opencl.byte_offset = 8;
  EXPECT_FALSE(ffi::IsAligned(opencl, 16));
}

TEST(ShapeApi, ConstructionForms) {
  EXPECT_EQ(Shape().size(), 0u);
  EXPECT_EQ(Shape().Product(), 1);
  EXPECT_EQ(Shape({1, 2, 3}).Product(), 6);
  Shape from_array = ffi::Array<int64_t>{4, 5};
  EXPECT_EQ(from_array, Shape({4, 5}));
  std::vector<int64_t> values{6, 7};
  EXPECT_EQ(Shape(values.begin(), values.end()), Shape({6, 7}));
  EXPECT_EQ(Shape(std::vector<int64_t>{8}), Shape({8}));
  Shape from_view = ShapeView({9, 10});
  EXPECT_EQ(from_view.back(), 10);
}

TEST(ShapeApi, StridesFromShapeIsCompactRowMajor) {
  EXPECT_EQ(Shape::StridesFromShape(Shape({1, 2, 3})), Shape({6, 3, 1}));
  EXPECT_EQ(Shape::StridesFromShape(Shape()).size(), 0u);
  EXPECT_EQ(ffi::detail::MakeStridesFromShape(Shape({4, 5})), Shape({5, 1}));
}

TEST(ShapeApi, AtNamesTheIndexAndSize) {
  Shape s = {1, 2};
  ffi::Error e = CatchError([&] { (void)s.at(2); });
  EXPECT_EQ(e.kind(), "IndexError");
  EXPECT_EQ(e.message(), "indexing 2 on a Shape of size 2");
  ShapeView v = s;
  EXPECT_EQ(CatchError([&] { (void)v.at(5); }).message(), "indexing 5 on a Shape of size 2");
}

TEST(ShapeApi, PrintsInBrackets) {
  std::ostringstream os;
  os << Shape({1, 2, 3});
  EXPECT_EQ(os.str(), "[1, 2, 3]");
}

TEST(ShapeApi, CastsFromAnArrayOfIntsAndBools) {
  ffi::Any a = ffi::Array<ffi::Any>{1, 2};
  EXPECT_EQ(a.cast<Shape>(), Shape({1, 2}));
  ffi::Any b = ffi::Array<ffi::Any>{true, 3};
  EXPECT_EQ(b.cast<Shape>(), Shape({1, 3}));
  ffi::Any c = ffi::Array<ffi::Any>{1.5};
  EXPECT_FALSE(c.try_cast<Shape>().has_value());
}

TEST(ShapeApi, MakeEmptyShapeIsFilledThroughThePointer) {
  int64_t* data = nullptr;
  Shape s = ffi::detail::MakeEmptyShape(3, &data);
  data[0] = 7;
  data[2] = 9;
  EXPECT_EQ(s, Shape({7, 0, 9}));
}

}  // namespace
