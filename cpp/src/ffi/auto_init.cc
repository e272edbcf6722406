/*
 * The generated constructor of reflected types: ffi._RegisterFFIInit(type_index)
 * builds a packed __ffi_init__ from the type's fields and stores it as the
 * type's __ffi_init__ attribute. ObjectDef calls it for every type with a
 * creator and no explicit init<...>, so it is registered before any other
 * static initialiser of this library runs (init_priority) and therefore
 * before any library that links to it is loaded.
 *
 * Calling convention: positional values, then optionally the KWARGS sentinel
 * followed by name, value pairs. Positional values bind, in order, to the
 * init fields that are not keyword-only, required ones before defaulted ones;
 * keywords may name any init field; the remaining fields take their defaults.
 */
#include "reflection_sentinels.h"

#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/creator.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
namespace {

struct InitField {
  const TVMFFIFieldInfo* info;
  std::string name;
  bool init;
  bool kw_only;
  bool has_default;
};

/*! \brief "<prefix>:\n  <message, every newline followed by two spaces>". */
std::string IndentUnder(const std::string& prefix, const std::string& message) {
  std::string out = prefix + ":\n  ";
  for (char c : message) {
    out += c;
    if (c == '\n') out += "  ";
  }
  return out;
}

/*! \brief The raised error of a failed setter call, re-raised with the message nested under prefix.
 */
[[noreturn]] void RethrowNested(const std::string& prefix) {
  Error inner = MoveFromRaised();
  throw Error(inner.kind(), IndentUnder(prefix, inner.message()), inner.backtrace());
}

class AutoInit {
 public:
  explicit AutoInit(const TVMFFITypeInfo* type_info)
      : type_info_(type_info), type_key_(ToStringView(type_info->type_key)) {
    reflection::ForEachFieldInfo(type_info, [&](const TVMFFIFieldInfo* f) {
      fields_.push_back(InitField{f, std::string(ToStringView(f->name)),
                                  (f->flags & kTVMFFIFieldFlagBitMaskInitOff) == 0,
                                  (f->flags & kTVMFFIFieldFlagBitMaskKwOnly) != 0,
                                  (f->flags & kTVMFFIFieldFlagBitMaskHasDefault) != 0});
    });
    for (int pass = 0; pass < 2; ++pass) {
      for (size_t i = 0; i < fields_.size(); ++i) {
        const InitField& f = fields_[i];
        if (f.init && !f.kw_only && f.has_default == (pass == 1)) positional_.push_back(i);
      }
    }
  }

  void Call(const AnyView* args, int32_t num_args, Any* rv) const {
    ObjectPtr<Object> obj = reflection::CreateEmptyObject(type_info_);
    const Object* kwargs = KwargsObject().get();
    int32_t kwargs_pos = -1;
    for (int32_t i = 0; i < num_args; ++i) {
      if (args[i].type_index() >= kTVMFFIStaticObjectBegin &&
          AnyUnsafe::GetTVMFFIAny(args[i])->v_obj ==
              reinterpret_cast<const TVMFFIObject*>(kwargs)) {
        kwargs_pos = i;
        break;
      }
    }
    int32_t num_positional = kwargs_pos < 0 ? num_args : kwargs_pos;
    if (static_cast<size_t>(num_positional) > positional_.size()) {
      TVM_FFI_THROW(TypeError) << type_key_ << ".__ffi_init__() takes at most "
                               << positional_.size() << " positional argument(s), but "
                               << num_positional << " were given";
    }
    std::vector<bool> is_set(fields_.size(), false);
    for (int32_t i = 0; i < num_positional; ++i) {
      size_t field_index = positional_[i];
      SetField(obj.get(), fields_[field_index], args[i]);
      is_set[field_index] = true;
    }
    if (kwargs_pos >= 0) {
      int32_t num_rest = num_args - kwargs_pos - 1;
      if (num_rest % 2 != 0) {
        TVM_FFI_THROW(TypeError) << type_key_
                                 << ".__ffi_init__() KWARGS requires an even number of key-value "
                                    "arguments";
      }
      for (int32_t i = kwargs_pos + 1; i < num_args; i += 2) {
        String key = args[i].cast<String>();
        std::string_view name(key.data(), key.size());
        size_t field_index = FindInitField(name);
        if (field_index == fields_.size()) {
          TVM_FFI_THROW(TypeError)
              << type_key_ << ".__ffi_init__() got an unexpected keyword argument '" << name << "'";
        }
        if (is_set[field_index]) {
          TVM_FFI_THROW(TypeError)
              << type_key_ << ".__ffi_init__() got multiple values for argument '" << name << "'";
        }
        SetField(obj.get(), fields_[field_index], args[i + 1]);
        is_set[field_index] = true;
      }
    }
    for (size_t i = 0; i < fields_.size(); ++i) {
      if (is_set[i]) continue;
      const InitField& f = fields_[i];
      if (f.has_default) {
        void* addr = reinterpret_cast<char*>(obj.get()) + f.info->offset;
        if (reflection::CallFieldSetterToDefault(f.info, addr) != 0) {
          RethrowNested(std::string(type_key_) + ".__ffi_init__() default for field '" + f.name +
                        "'");
        }
      } else if (f.init) {
        TVM_FFI_THROW(TypeError) << type_key_ << ".__ffi_init__() missing required "
                                 << (f.kw_only ? "keyword-only " : "") << "argument: '" << f.name
                                 << "'";
      }
    }
    *rv = ObjectRef(std::move(obj));
  }

 private:
  size_t FindInitField(std::string_view name) const {
    for (size_t i = 0; i < fields_.size(); ++i) {
      if (fields_[i].init && fields_[i].name == name) return i;
    }
    return fields_.size();
  }

  void SetField(Object* obj, const InitField& f, AnyView value) const {
    void* addr = reinterpret_cast<char*>(obj) + f.info->offset;
    if (reflection::CallFieldSetter(f.info, addr, value) != 0) {
      RethrowNested(std::string(type_key_) + ".__ffi_init__() field '" + f.name + "'");
    }
  }

  const TVMFFITypeInfo* type_info_;
  std::string_view type_key_;
  std::vector<InitField> fields_;
  // Indices into fields_ of the positional parameters, in order.
  std::vector<size_t> positional_;
};

void RegisterFFIInit(int32_t type_index) {
  const TVMFFITypeInfo* type_info = TVMFFIGetTypeInfo(type_index);
  if (type_info == nullptr) {
    TVM_FFI_THROW(ValueError) << "ffi._RegisterFFIInit: type index " << type_index
                              << " is not registered";
  }
  auto init = std::make_shared<AutoInit>(type_info);
  Function f = Function::FromPacked(
      [init](const AnyView* args, int32_t num_args, Any* rv) { init->Call(args, num_args, rv); });
  TVMFFIByteArray name = reflection::AsByteArray(reflection::type_attr::kInit.name);
  TVMFFIAny value = *AnyUnsafe::GetTVMFFIAny(AnyView(f));
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(type_index, &name, &value));
}

/*! \brief Registers ffi._RegisterFFIInit before the library's other static initialisers. */
struct RegisterAutoInitEarly {
  RegisterAutoInitEarly() {
    reflection::GlobalDef().def("ffi._RegisterFFIInit", RegisterFFIInit,
                                "Generate the __ffi_init__ of a reflected type from its fields.");
  }
};

__attribute__((init_priority(101))) RegisterAutoInitEarly register_auto_init_early;

}  // namespace
}  // namespace detail
TVM_FFI_NAMESPACE_END
