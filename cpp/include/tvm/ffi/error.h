/*
 * ffi::Error and the macros that raise and check errors.
 *
 * An Error is an object over the ABI's error cell (kind, message, backtrace)
 * and also a C++ exception. It is what crosses every FFI boundary: a C++
 * exception is turned into a raised error at the safe-call boundary and back
 * into a thrown ffi::Error on the other side, so the kind survives and maps to
 * Python's exception classes.
 *
 *   TVM_FFI_THROW(ValueError) << "bad size " << n;
 *   TVM_FFI_ICHECK_EQ(a, b) << "shapes differ";
 *   TVM_FFI_CHECK(ptr != nullptr, TypeError) << "expected a tensor";
 *   try { ... } catch (const ffi::Error& e) { e.kind(); e.message(); }
 */
#ifndef TVM_FFI_ERROR_H_
#define TVM_FFI_ERROR_H_

#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>

#include <atomic>
#include <exception>
#include <new>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN

/*! \brief The error object; its cell layout is fixed by the ABI (abi.md §2.4). */
class ErrorObj : public Object, public TVMFFIErrorCell {
 public:
  static constexpr int32_t _type_index = kTVMFFIError;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC("ffi.Error", ErrorObj, Object);
};

namespace details {
inline std::string_view ByteArrayView(const TVMFFIByteArray& b) { return {b.data, b.size}; }

// One frame line in the backtrace format the runtime uses.
inline std::string FormatFrame(const char* file, int line, const char* func) {
  std::string s = "  File \"";
  s += file;
  s += "\", line ";
  s += std::to_string(line);
  s += ", in ";
  s += func;
  s += '\n';
  return s;
}
}  // namespace details

/*!
 * \brief A structured error: kind (e.g. "ValueError"), message, backtrace.
 *  Thrown as a C++ exception; stored in Any as an object.
 */
class Error : public ObjectRef, public std::exception {
 public:
  /*! \brief Create an error; backtrace is most-recent-call first. */
  Error(std::string_view kind, std::string_view message, std::string_view backtrace = {})
      : ObjectRef(Create(kind, message, backtrace)) {}
  explicit Error(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}
  explicit Error(UnsafeInit tag) : ObjectRef(tag) {}
  // The what() text is a cache of this handle, rebuilt on demand after a copy or assignment.
  Error(const Error& other) : ObjectRef(other), std::exception(other) {}
  Error(Error&& other) noexcept
      : ObjectRef(std::move(other)),
        std::exception(other),
        what_(other.what_.exchange(nullptr, std::memory_order_acq_rel)) {}
  Error& operator=(const Error& other) {
    ObjectRef::operator=(other);
    ResetWhat();
    return *this;
  }
  Error& operator=(Error&& other) noexcept {
    ObjectRef::operator=(std::move(other));
    ResetWhat();
    return *this;
  }
  ~Error() override { ResetWhat(); }

  const ErrorObj* get() const { return static_cast<const ErrorObj*>(data_.get()); }
  const ErrorObj* operator->() const { return get(); }

  std::string kind() const { return std::string(details::ByteArrayView(get()->kind)); }
  std::string message() const { return std::string(details::ByteArrayView(get()->message)); }
  /*! \return The backtrace, most recent call first. */
  std::string backtrace() const { return std::string(details::ByteArrayView(get()->backtrace)); }

  /*! \return The backtrace in Python's order (most recent call last). */
  std::string TracebackMostRecentCallLast() const {
    std::string_view bt = details::ByteArrayView(get()->backtrace);
    std::vector<std::string_view> lines;
    size_t pos = 0;
    while (pos < bt.size()) {
      size_t nl = bt.find('\n', pos);
      if (nl == std::string_view::npos) nl = bt.size();
      lines.push_back(bt.substr(pos, nl - pos));
      pos = nl + 1;
    }
    std::string out;
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
      out.append(it->data(), it->size());
      out += '\n';
    }
    return out;
  }

  /*! \brief Append frames (outer callers) to the backtrace. */
  void AppendBacktrace(std::string_view frames) const {
    TVMFFIByteArray bytes{frames.data(), frames.size()};
    ErrorObj* obj = const_cast<ErrorObj*>(get());
    obj->update_backtrace(obj, &bytes, kTVMFFIBacktraceUpdateModeAppend);
  }

  /*!
   * \return "Kind: message", formatted on first use (an Error read back from
   *  Any has no text yet). Safe to call from several threads at once.
   */
  const char* what() const noexcept override {
    const std::string* text = what_.load(std::memory_order_acquire);
    if (text != nullptr) return text->c_str();
    if (!defined()) return "Error";
    std::string* fresh = nullptr;
    try {
      fresh = new std::string(kind() + ": " + std::string(details::ByteArrayView(get()->message)));
    } catch (...) {
      return "Error (out of memory formatting the message)";
    }
    std::string* expected = nullptr;
    // The first thread to finish publishes its text; the others use that one.
    if (!what_.compare_exchange_strong(expected, fresh, std::memory_order_acq_rel)) {
      delete fresh;
      return expected->c_str();
    }
    return fresh->c_str();
  }

  static constexpr bool _type_is_nullable = false;
  using ContainerType = ErrorObj;

 private:
  static ObjectPtr<Object> Create(std::string_view kind, std::string_view message,
                                  std::string_view backtrace) {
    TVMFFIByteArray k{kind.data(), kind.size()};
    TVMFFIByteArray m{message.data(), message.size()};
    TVMFFIByteArray b{backtrace.data(), backtrace.size()};
    TVMFFIObjectHandle out = nullptr;
    if (TVMFFIErrorCreate(&k, &m, &b, &out) != 0) throw std::bad_alloc();
    return details::ObjectUnsafe::ObjectPtrFromOwned<Object>(static_cast<TVMFFIObject*>(out));
  }
  void ResetWhat() noexcept { delete what_.exchange(nullptr, std::memory_order_acq_rel); }
  mutable std::atomic<std::string*> what_{nullptr};
};

namespace details {

/*! \brief Collects a message and throws an Error when destroyed. */
class ErrorBuilder {
 public:
  ErrorBuilder(const char* kind, const char* file, int line, const char* func)
      : kind_(kind), file_(file), line_(line), func_(func) {}
  ErrorBuilder(const ErrorBuilder&) = delete;
  ErrorBuilder& operator=(const ErrorBuilder&) = delete;
  std::ostringstream& stream() { return stream_; }

#if defined(_MSC_VER)
  __declspec(noreturn)
#else
  [[noreturn]]
#endif
  ~ErrorBuilder() noexcept(false) {
    const TVMFFIByteArray* bt = TVMFFIBacktrace(file_, line_, func_, 0);
    std::string_view trace = bt ? std::string_view(bt->data, bt->size) : std::string_view();
    throw Error(kind_, stream_.str(), trace);
  }

 private:
  const char* kind_;
  const char* file_;
  int line_;
  const char* func_;
  std::ostringstream stream_;
};

/*! \brief Store err as the thread's raised error (for returning -1 from a C function). */
inline void SetRaisedFromError(const Error& err) {
  TVMFFIErrorSetRaised(ObjectUnsafe::GetHeader(err.get()));
}

/*!
 * \brief Take the raised error of this thread as an Error, appending the
 *  frame where it re-enters C++ so the backtrace grows as it crosses calls.
 */
inline Error MoveFromRaised(const char* file = nullptr, int line = 0, const char* func = nullptr) {
  TVMFFIObjectHandle handle = nullptr;
  TVMFFIErrorMoveFromRaised(&handle);
  if (handle == nullptr) {
    return Error("RuntimeError", "an FFI call failed without raising an error");
  }
  Error err(ObjectUnsafe::ObjectPtrFromOwned<Object>(static_cast<TVMFFIObject*>(handle)));
  if (file != nullptr) err.AppendBacktrace(FormatFrame(file, line, func));
  return err;
}
}  // namespace details

TVM_FFI_NAMESPACE_END

/*! \brief Throw an ffi::Error of the given kind: TVM_FFI_THROW(ValueError) << "msg". */
#define TVM_FFI_THROW(ErrorKind) \
  ::tvm::ffi::details::ErrorBuilder(#ErrorKind, __FILE__, __LINE__, TVM_FFI_FUNC_SIG).stream()

/*! \brief Throw an error of kind ErrorKind when cond is false. */
#define TVM_FFI_CHECK(cond, ErrorKind) \
  if (TVM_FFI_LIKELY(cond)) {          \
  } else                               \
    TVM_FFI_THROW(ErrorKind) << "Check failed: (" #cond ") is false: "

/*! \brief Internal invariant check; raises InternalError. */
#define TVM_FFI_ICHECK(cond)  \
  if (TVM_FFI_LIKELY(cond)) { \
  } else                      \
    TVM_FFI_THROW(InternalError) << "Check failed: (" #cond ") is false: "

TVM_FFI_NAMESPACE_BEGIN
namespace details {
// Each operand of a binary check is evaluated once; the message is built only on failure.
#define TVM_FFI_DEFINE_BINARY_CHECK_(name, op)                                        \
  template <typename A, typename B>                                                   \
  inline std::optional<std::string> BinaryCheck##name(const A& a, const B& b) {       \
    if (TVM_FFI_LIKELY(a op b)) return std::nullopt;                                  \
    std::ostringstream os;                                                            \
    os << "(" << a << " vs. " << b << ")";                                            \
    return os.str();                                                                  \
  }
TVM_FFI_DEFINE_BINARY_CHECK_(EQ, ==)
TVM_FFI_DEFINE_BINARY_CHECK_(NE, !=)
TVM_FFI_DEFINE_BINARY_CHECK_(LT, <)
TVM_FFI_DEFINE_BINARY_CHECK_(LE, <=)
TVM_FFI_DEFINE_BINARY_CHECK_(GT, >)
TVM_FFI_DEFINE_BINARY_CHECK_(GE, >=)
#undef TVM_FFI_DEFINE_BINARY_CHECK_
}  // namespace details
TVM_FFI_NAMESPACE_END

#define TVM_FFI_ICHECK_BINARY_OP_(name, op, a, b)                                        \
  if (auto _tvm_ffi_check_msg = ::tvm::ffi::details::BinaryCheck##name((a), (b));        \
      TVM_FFI_LIKELY(!_tvm_ffi_check_msg)) {                                             \
  } else                                                                                 \
    TVM_FFI_THROW(InternalError) << "Check failed: " #a " " #op " " #b " "               \
                                 << *_tvm_ffi_check_msg << ": "

#define TVM_FFI_ICHECK_EQ(a, b) TVM_FFI_ICHECK_BINARY_OP_(EQ, ==, a, b)
#define TVM_FFI_ICHECK_NE(a, b) TVM_FFI_ICHECK_BINARY_OP_(NE, !=, a, b)
#define TVM_FFI_ICHECK_LT(a, b) TVM_FFI_ICHECK_BINARY_OP_(LT, <, a, b)
#define TVM_FFI_ICHECK_LE(a, b) TVM_FFI_ICHECK_BINARY_OP_(LE, <=, a, b)
#define TVM_FFI_ICHECK_GT(a, b) TVM_FFI_ICHECK_BINARY_OP_(GT, >, a, b)
#define TVM_FFI_ICHECK_GE(a, b) TVM_FFI_ICHECK_BINARY_OP_(GE, >=, a, b)
#define TVM_FFI_ICHECK_NOTNULL(x) TVM_FFI_ICHECK((x) != nullptr)

/*!
 * \brief Bracket the body of a C function: every exception becomes a raised
 *  error and the function returns -1 (std::bad_alloc becomes MemoryError, any
 *  other std::exception RuntimeError with its what()).
 */
#define TVM_FFI_SAFE_CALL_BEGIN() try {
#define TVM_FFI_SAFE_CALL_END()                                           \
  return 0;                                                               \
  }                                                                       \
  catch (const ::tvm::ffi::Error& err) {                                  \
    ::tvm::ffi::details::SetRaisedFromError(err);                         \
    return -1;                                                            \
  }                                                                       \
  catch (const std::bad_alloc&) {                                         \
    TVMFFIErrorSetRaisedFromCStr("MemoryError", "out of memory");         \
    return -1;                                                            \
  }                                                                       \
  catch (const std::exception& ex) {                                      \
    TVMFFIErrorSetRaisedFromCStr("RuntimeError", ex.what());              \
    return -1;                                                            \
  }                                                                       \
  catch (...) {                                                           \
    TVMFFIErrorSetRaisedFromCStr("RuntimeError", "unknown C++ exception"); \
    return -1;                                                            \
  }

/*! \brief Call a C function of the ABI and rethrow its raised error as ffi::Error. */
#define TVM_FFI_CHECK_SAFE_CALL(func)                                                      \
  do {                                                                                     \
    if (TVM_FFI_UNLIKELY((func) != 0)) {                                                   \
      throw ::tvm::ffi::details::MoveFromRaised(__FILE__, __LINE__, TVM_FFI_FUNC_SIG);     \
    }                                                                                      \
  } while (0)

#endif  // TVM_FFI_ERROR_H_
