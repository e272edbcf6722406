/*
 * Test types of libtvm_ffi_testing with __ffi_repr__ hooks, for the printing
 * suites: testing.TestReprHook (field `child`, printed as "Hook<child>"
 * through the hook's nested printer) and testing.TestReprRaises (a hook that
 * raises ValueError "repr failed").
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <string>

TVM_FFI_NAMESPACE_BEGIN
namespace testing {

class TestReprHookObj : public Object {
 public:
  Any child;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestReprHook", TestReprHookObj, Object);
};

class TestReprRaisesObj : public Object {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestReprRaises", TestReprRaisesObj, Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::ObjectDef<TestReprHookObj>()
      .def_rw("child", &TestReprHookObj::child)
      .def_type_attr(refl::type_attr::kRepr.name, [](AnyView self, Function fn_repr) {
        const TestReprHookObj* obj = self.cast<ObjectRef>().as<TestReprHookObj>();
        return String("Hook<" + std::string(fn_repr(obj->child).cast<String>()) + ">");
      });
  refl::ObjectDef<TestReprRaisesObj>().def_type_attr(refl::type_attr::kRepr.name,
                                                     [](AnyView, Function) -> String {
                                                       TVM_FFI_THROW(ValueError) << "repr failed";
                                                       TVM_FFI_UNREACHABLE();
                                                     });
}

}  // namespace testing
TVM_FFI_NAMESPACE_END
