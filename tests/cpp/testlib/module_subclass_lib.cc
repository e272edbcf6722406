/*
 * A ModuleObj subclass defined in a loadable library (module_subclass_lib.so),
 * for the module tests of both suites: make_table_module(tag) returns a
 * module whose only function is <tag>(x) -> "<tag>:<x>", with a doc string,
 * metadata, source text, write formats, property bits, and WriteToFile /
 * SaveToBytes that work.
 */
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/string.h>

#include <fstream>
#include <string>

namespace module_subclass_lib {
namespace ffi = tvm::ffi;

class TableModuleObj : public ffi::ModuleObj {
 public:
  explicit TableModuleObj(std::string tag) : tag_(std::move(tag)) {}

  const char* kind() const final { return "table"; }
  int GetPropertyMask() const final {
    return ffi::Module::kBinarySerializable | ffi::Module::kRunnable;
  }
  ffi::Optional<ffi::Function> GetFunction(const ffi::String& name) final {
    if (name != tag_) return std::nullopt;
    std::string tag = tag_;
    return ffi::Function::FromTyped(
        [tag](int64_t x) { return ffi::String(tag + ":" + std::to_string(x)); });
  }
  ffi::Optional<ffi::String> GetFunctionDoc(const ffi::String& name) final {
    if (name != tag_) return std::nullopt;
    return ffi::String("Return the tag and x.");
  }
  ffi::Optional<ffi::String> GetFunctionMetadata(const ffi::String& name) final {
    if (name != tag_) return std::nullopt;
    return ffi::String(R"({"type_schema": "{\"type\":\"ffi.Function\",\"args\":)"
                       R"([{\"type\":\"str\"},{\"type\":\"int\"}]}"})");
  }
  ffi::Array<ffi::String> GetWriteFormats() const final { return {"txt"}; }
  void WriteToFile(const ffi::String& file, const ffi::String& format) const final {
    if (format != "txt") {
      TVM_FFI_THROW(ValueError) << "table module cannot write format `" << format << "`";
    }
    std::ofstream out{std::string(file)};
    out << "table " << tag_ << "\n";
  }
  ffi::Bytes SaveToBytes() const final { return ffi::Bytes(tag_.data(), tag_.size()); }
  ffi::String InspectSource(const ffi::String& format) const final {
    return ffi::String("// table " + tag_ + " (" + std::string(format) + ")");
  }

 private:
  std::string tag_;
};

ffi::Module MakeTableModule(const std::string& tag) {
  return ffi::Module(ffi::make_object<TableModuleObj>(tag));
}

}  // namespace module_subclass_lib

TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_table_module, module_subclass_lib::MakeTableModule);
