// Source compatibility: container code written the way library code uses the
// tvm-ffi 0.1.x API (implicit upcasts, Variant/Tuple access, the object-level
// sequence API, the detail helpers of checks and typed functions). Compiling
// this file is the test; tests/cpp exercises the behaviour.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/function_detail.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace compat_containers {

using namespace tvm::ffi;  // NOLINT(build/namespaces): the way user code is written

class ExprNode : public Object {
 public:
  static constexpr uint32_t _type_child_slots = 4;
  TVM_FFI_DECLARE_OBJECT_INFO("compat.Expr", ExprNode, Object);
};
class Expr : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Expr, ObjectRef, ExprNode);
};
class VarNode : public ExprNode {
 public:
  String name;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("compat.Var", VarNode, ExprNode);
};
class Var : public Expr {
 public:
  explicit Var(String name) {
    ObjectPtr<VarNode> n = make_object<VarNode>();
    n->name = std::move(name);
    data_ = std::move(n);
  }
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Var, Expr, VarNode);
};

// Passing containers of a subclass where containers of the base are expected.
int64_t CountExprs(const Array<Expr>& exprs) { return static_cast<int64_t>(exprs.size()); }
int64_t CountAny(const List<Any>& items) { return static_cast<int64_t>(items.size()); }
int64_t UseUpcasts(const Array<Var>& vars, const List<Var>& list, const Map<String, Var>& m) {
  Map<String, Expr> wide = m;
  Dict<Any, Any> dict = Dict<String, int64_t>{{"a", 1}};
  Tuple<Expr, Any> pair = Tuple<Var, int64_t>(Var("x"), 2);
  Optional<Expr> maybe = Optional<Var>(Var("y"));
  return CountExprs(vars) + CountAny(list) + static_cast<int64_t>(wide.size() + dict.size()) +
         (maybe.has_value() ? 1 : 0) + (pair.get<0>().defined() ? 1 : 0);
}

// Variant: subclasses of an alternative, converting get, strict as.
std::string Describe(const Variant<String, Expr>& v) {
  if (std::optional<String> s = v.as<String>()) return std::string(*s);
  if (const VarNode* var = v.as<VarNode>()) return std::string(var->name);
  return v.GetTypeKey();
}
std::string DescribeVar() { return Describe(Var("v")); }
double VariantNumber(const Variant<int64_t, String>& v) { return v.get<double>(); }

// Tuple: deduction guide, free get<I>, structured bindings.
int64_t TupleSum() {
  Tuple t(int64_t{1}, int64_t{2});
  using std::get;
  auto [a, b] = t;
  return get<0>(t) + get<1>(std::move(t)) + a + b;
}

// The element API on the objects themselves.
void EditList(List<int64_t> l) {
  ListObj* obj = l.GetListObj();
  obj->insert(0, Any(int64_t{0}));
  if (obj->size() > 2) obj->erase(1, 2);
  if (!obj->empty()) obj->pop_back();
  obj->resize(4);
  obj->Reverse();
  obj->SetItem(0, Any(int64_t{9}));
}
int64_t SumArrayObj(const Array<int64_t>& a) {
  int64_t sum = 0;
  for (const Any& v : *a.get()) sum += v.cast<int64_t>();
  return sum + (a.GetArrayObj()->empty() ? 0 : a.get()->front().cast<int64_t>());
}
List<int64_t> Repeated() { return List<int64_t>(ListObj::CreateRepeated(3, Any(int64_t{7}))); }
Array<String> Joined(const Array<String>& tail) {
  return Array<String>::Agregate(String("head"), tail, String("end"));
}
void Reassign(List<String> l, const std::vector<String>& src) { l.Assign(src.begin(), src.end()); }

// Free helpers and traits.
int32_t ArrayIndex() { return TypeKeyToIndex("ffi.Array"); }
Any BytesFromBuffer(TVMFFIByteArray* buf) { return buf; }
DLManagedTensor* Export(const Tensor& t) { return t.get()->ToDLPack(); }

// detail helpers used by check and function machinery.
std::string CheckText(int64_t x, int64_t y) {
  std::unique_ptr<std::string> msg = detail::LogCheck_LT(x, y);
  return msg ? *msg : std::string();
}
constexpr int32_t kArgs = detail::FunctionInfo<decltype(&CheckText)>::num_args;
static_assert(kArgs == 2, "FunctionInfo counts parameters");
[[noreturn]] void Fail(const std::string& backtrace) {
  detail::ErrorBuilder("RuntimeError", backtrace, false).stream() << "failed";
  TVM_FFI_UNREACHABLE();
}
const detail::StringObj* HeapString(const String& s) {
  return s.size() > 7 ? static_cast<const detail::StringObj*>(nullptr) : nullptr;
}

}  // namespace compat_containers
