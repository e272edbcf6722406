/*
 * Reflected test type of the serialization suites: "testing.serialization.Point"
 * (an inline int and dtype, a node-valued Optional<String>, and an Any payload
 * with a default) - every kind of field a JSON graph writes - registered with
 * reflection::ObjectDef. Its payload is writable so tests can build cycles.
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>

TVM_FFI_NAMESPACE_BEGIN
namespace testing {
namespace {

class SerializationPointObj : public Object {
 public:
  int64_t x = 0;
  DLDataType dtype{kDLFloat, 32, 1};
  Optional<String> label;
  Any payload;

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.serialization.Point", SerializationPointObj, Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::ObjectDef<SerializationPointObj>()
      .def_rw("x", &SerializationPointObj::x)
      .def_rw("dtype", &SerializationPointObj::dtype)
      .def_rw("label", &SerializationPointObj::label)
      .def_rw("payload", &SerializationPointObj::payload, refl::DefaultValue(nullptr));
}

}  // namespace
}  // namespace testing
TVM_FFI_NAMESPACE_END
