/*
 * Overloaded methods: OverloadObjectDef<Class> and overload_cast.
 *
 *   refl::OverloadObjectDef<PointObj>()
 *       .def_ro("x", &PointObj::x)
 *       .def(refl::init<int64_t>())
 *       .def(refl::init<int64_t, int64_t>())                 // a second __ffi_init__ overload
 *       .def_static("make", refl::overload_cast<int64_t>(&MakePoint))
 *       .def_static("make", refl::overload_cast<String>(&MakePoint))
 *       .def("scale", refl::overload_cast<double>(&PointObj::Scale, refl::const_));
 *
 * OverloadObjectDef has the surface of ObjectDef, but registering a method
 * name again adds an overload: the first registration creates the dispatcher
 * Function "<type_key>.<name>", and every registration publishes its own
 * method record (same Function, its own type schema). A call picks the first
 * overload, in registration order, whose arity matches and whose arguments
 * all convert (Any/AnyView parameters take anything); with a single overload
 * the call converts exactly like a plain typed function.
 */
#ifndef TVM_FFI_REFLECTION_OVERLOAD_H_
#define TVM_FFI_REFLECTION_OVERLOAD_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace reflection {

namespace overload_detail {

/*! \brief One overload: its typed Function and how to test and explain a call against it. */
struct OverloadEntry {
  Function func;
  bool (*matches)(const TVMFFIAny* args, int32_t num_args);
  std::string (*explain)(const std::string& name, const TVMFFIAny* args, int32_t num_args);
};

/*! \brief The overloads of one method name, shared by its dispatcher Function. */
struct OverloadSet {
  std::string name;
  std::vector<OverloadEntry> entries;
};

/*! \brief Matching and mismatch texts for a callable of signature R(Args...). */
template <typename R, typename... Args>
struct OverloadSignature {
  static constexpr int32_t kArity = static_cast<int32_t>(sizeof...(Args));

  template <typename Arg>
  static bool ArgMatches(const TVMFFIAny* arg) {
    using T = std::remove_const_t<std::remove_reference_t<Arg>>;
    if constexpr (std::is_same_v<T, Any> || std::is_same_v<T, AnyView>) {
      return true;
    } else {
      return TypeTraits<T>::CheckAnyStrict(arg) ||
             TypeTraits<T>::TryCastFromAnyView(arg).has_value();
    }
  }

  template <size_t... I>
  static bool AllMatch(const TVMFFIAny* args, std::index_sequence<I...>) {
    return (ArgMatches<Args>(args + I) && ...);
  }

  static bool Matches(const TVMFFIAny* args, int32_t num_args) {
    if (num_args != kArity) return false;
    return AllMatch(args, std::index_sequence_for<Args...>{});
  }

  template <typename Arg>
  static bool ExplainArg(const TVMFFIAny* arg, size_t index, const std::string& call,
                         std::string* out) {
    if (ArgMatches<Arg>(arg)) return false;
    using T = std::remove_const_t<std::remove_reference_t<Arg>>;
    std::ostringstream os;
    os << "Mismatched type on argument #" << index << " when calling: `" << call << "`. Expected `"
       << TypeTraits<T>::TypeStr() << "` but got `" << TypeTraits<T>::GetMismatchTypeInfo(arg)
       << "`";
    *out = os.str();
    return true;
  }

  template <size_t... I>
  static std::string ExplainArgs(const TVMFFIAny* args, const std::string& call,
                                 std::index_sequence<I...>) {
    std::string out;
    (ExplainArg<Args>(args + I, I, call, &out) || ...);
    return out;
  }

  static std::string Explain(const std::string& name, const TVMFFIAny* args, int32_t num_args) {
    std::string call = name + " " + ffi::detail::FuncSignatureImpl<R, Args...>::Sig();
    if (num_args != kArity) {
      return "Mismatched number of arguments when calling: `" + call + "`. Expected " +
             std::to_string(kArity) + " arguments";
    }
    return ExplainArgs(args, call, std::index_sequence_for<Args...>{});
  }
};

template <typename F>
struct OverloadSignatureOf;
template <typename R, typename... Args>
struct OverloadSignatureOf<R(Args...)> {
  using type = OverloadSignature<R, Args...>;
};

/*! \brief The dispatcher Function of an overload set. */
inline Function MakeOverloadDispatcher(std::shared_ptr<OverloadSet> set) {
  return Function::FromPacked([set](const AnyView* args, int32_t num_args, Any* rv) {
    const std::vector<OverloadEntry>& entries = set->entries;
    const TVMFFIAny* raw = reinterpret_cast<const TVMFFIAny*>(args);
    if (entries.size() == 1) {
      entries[0].func.CallPacked(args, num_args, rv);
      return;
    }
    for (const OverloadEntry& entry : entries) {
      if (entry.matches(raw, num_args)) {
        entry.func.CallPacked(args, num_args, rv);
        return;
      }
    }
    std::ostringstream os;
    os << "No matching overload found when calling: `" << set->name << "` with " << num_args
       << " arguments:";
    for (size_t i = 0; i < entries.size(); ++i) {
      os << "\nOverload #" << i << ": " << entries[i].explain(set->name, raw, num_args);
    }
    TVM_FFI_THROW(TypeError) << os.str();
  });
}

}  // namespace overload_detail

/*! \brief ObjectDef whose methods may be registered several times under one name. */
template <typename Class>
class OverloadObjectDef : public ObjectDef<Class> {
  using Base = ObjectDef<Class>;

 public:
  template <typename... Extra>
  explicit OverloadObjectDef(Extra&&... extra) : Base(std::forward<Extra>(extra)...) {}

  template <typename T, typename BaseClass, typename... Extra>
  OverloadObjectDef& def_ro(const char* name, T BaseClass::* field_ptr, Extra&&... extra) {
    Base::def_ro(name, field_ptr, std::forward<Extra>(extra)...);
    return *this;
  }

  template <typename T, typename BaseClass, typename... Extra>
  OverloadObjectDef& def_rw(const char* name, T BaseClass::* field_ptr, Extra&&... extra) {
    Base::def_rw(name, field_ptr, std::forward<Extra>(extra)...);
    return *this;
  }

  /*! \brief An instance method, or one more overload of it. */
  template <typename Func, typename... Extra>
  OverloadObjectDef& def(const char* name, Func&& func, Extra&&... extra) {
    RegisterOverload(name, false, ffi::detail::WrapMethodCallable(std::forward<Func>(func)),
                     std::forward<Extra>(extra)...);
    return *this;
  }

  /*! \brief A static method, or one more overload of it. */
  template <typename Func, typename... Extra>
  OverloadObjectDef& def_static(const char* name, Func&& func, Extra&&... extra) {
    RegisterOverload(name, true, std::forward<Func>(func), std::forward<Extra>(extra)...);
    return *this;
  }

  /*!
   * \brief A constructor overload of __ffi_init__; the first one also stores
   *  the dispatcher as the __ffi_init__ type attribute.
   */
  template <typename... Args, typename... Extra>
  OverloadObjectDef& def(init<Args...>, Extra&&... extra) {
    auto ctor = [](Args... args) -> ObjectRef {
      return ObjectRef(make_object<Class>(std::forward<Args>(args)...));
    };
    bool first = false;
    Function dispatcher = RegisterOverload(&first, type_attr::kInit.name, true, std::move(ctor),
                                           std::forward<Extra>(extra)...);
    if (first) {
      ffi::detail::RegisterTypeAttrValue(this->type_index_, this->type_key_, type_attr::kInit.name,
                                         dispatcher);
    }
    this->has_explicit_init_ = true;
    return *this;
  }

  template <typename T>
  OverloadObjectDef& def_type_attr(const char* name, T&& value) {
    Base::def_type_attr(name, std::forward<T>(value));
    return *this;
  }

  template <typename TSelf>
  OverloadObjectDef& def_convert() {
    Base::template def_convert<TSelf>();
    return *this;
  }

 private:
  template <typename Func, typename... Extra>
  Function RegisterOverload(const char* name, bool is_static, Func&& func, Extra&&... extra) {
    bool first = false;
    return RegisterOverload(&first, name, is_static, std::forward<Func>(func),
                            std::forward<Extra>(extra)...);
  }

  /*! \brief Add one overload; *first tells whether it created the dispatcher. */
  template <typename Func, typename... Extra>
  Function RegisterOverload(bool* first, const char* name, bool is_static, Func&& func,
                            Extra&&... extra);

  std::unordered_map<std::string,
                     std::pair<std::shared_ptr<overload_detail::OverloadSet>, Function>>
      overloads_;
};

template <typename Class>
template <typename Func, typename... Extra>
Function OverloadObjectDef<Class>::RegisterOverload(bool* first, const char* name, bool is_static,
                                                    Func&& func, Extra&&... extra) {
  using F = std::decay_t<Func>;
  using Sig = ffi::detail::FuncTypeOf<F>;
  using Matcher = typename overload_detail::OverloadSignatureOf<Sig>::type;
  std::string full_name = std::string(this->type_key_) + "." + name;
  auto it = overloads_.find(name);
  *first = it == overloads_.end();
  if (*first) {
    auto set = std::make_shared<overload_detail::OverloadSet>();
    set->name = full_name;
    it = overloads_.emplace(name, std::make_pair(set, overload_detail::MakeOverloadDispatcher(set)))
             .first;
  }
  std::string schema = ffi::detail::FuncSignature<F>::Schema();
  it->second.first->entries.push_back(
      overload_detail::OverloadEntry{Function::FromTyped(F(std::forward<Func>(func)), full_name),
                                     &Matcher::Matches, &Matcher::Explain});
  const Function& dispatcher = it->second.second;
  MethodInfoBuilder info;
  info.name = TVMFFIByteArray{name, std::strlen(name)};
  info.doc = TVMFFIByteArray{nullptr, 0};
  info.flags = is_static ? kTVMFFIFieldFlagBitMaskIsStaticMethod : 0;
  (ffi::detail::ApplyExtraInfoTrait(&info, std::forward<Extra>(extra)), ...);
  std::string metadata = ffi::detail::MakeReflectionMetadata(schema, info.metadata_);
  info.metadata = TVMFFIByteArray{metadata.data(), metadata.size()};
  TypeTraits<Function>::CopyToAnyView(dispatcher, &info.method);
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterMethod(this->type_index_, &info));
  return dispatcher;
}

}  // namespace reflection
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_REFLECTION_OVERLOAD_H_
