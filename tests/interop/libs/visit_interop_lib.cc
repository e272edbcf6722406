// Walks and maps values with the inline engines of extra/structural_visit.h and
// structural_mutate.h. Compiled against one copy of the headers and loaded
// into a runtime built from another, the engines' visitors and mutators are
// handed to the runtime's container hooks (`__s_visit__`, `__s_mutate__`), which
// call back through the visitor/mutator vtables: both sides must agree on
// those layouts and on the native hook ABI.
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/extra/structural_mutate.h>
#include <tvm/ffi/extra/structural_visit.h>
#include <tvm/ffi/function.h>

#include <cstdint>

namespace ffi = tvm::ffi;

namespace {

// The sum of every int reachable from root (Array/List elements, Map/Dict values).
int64_t SumInts(ffi::Any root) {
  int64_t sum = 0;
  ffi::StructuralWalk<ffi::WalkOrder::kPostOrder>(root, [&](int64_t v) {
    sum += v;
    return ffi::WalkResult::Advance();
  });
  return sum;
}

// The ints of root in pre-order, stopping at (and including) the first negative one.
ffi::Array<int64_t> IntsUntilNegative(ffi::Any root) {
  ffi::Array<int64_t> out;
  ffi::StructuralWalk<ffi::WalkOrder::kPreOrder>(root, [&](int64_t v) {
    out.push_back(v);
    return v < 0 ? ffi::WalkResult::Interrupt() : ffi::WalkResult::Advance();
  });
  return out;
}

// root with every int multiplied by ten.
ffi::Any TimesTen(ffi::Any root) {
  return ffi::StructuralMap<ffi::WalkOrder::kPostOrder>(root, [](int64_t v) { return v * 10; });
}

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(sum_ints, SumInts);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(ints_until_negative, IntsUntilNegative);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(times_ten, TimesTen);
