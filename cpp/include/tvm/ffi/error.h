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
#include <iostream>
#include <memory>
#include <new>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN

/*! \brief The error object; its cell layout is fixed by the ABI (docs/abi.md §2.4). */
class ErrorObj : public Object, public TVMFFIErrorCell {
 public:
  static constexpr int32_t _type_index = kTVMFFIError;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC("ffi.Error", ErrorObj, Object);
};

namespace detail {
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
}  // namespace detail

/*!
 * \brief A structured error: kind (e.g. "ValueError"), message, backtrace,
 *  and optionally the error that caused it and an extra context object.
 *  Thrown as a C++ exception; stored in Any as an object.
 */
class Error : public ObjectRef, public std::exception {
 public:
  /*! \brief Create an error; backtrace is most-recent-call first. */
  Error(std::string_view kind, std::string_view message, std::string_view backtrace = {})
      : ObjectRef(Create(kind, message, backtrace, nullptr, nullptr)) {}
  /*! \brief Create an error whose backtrace is a byte array (NULL: none). */
  Error(std::string_view kind, std::string_view message, const TVMFFIByteArray* backtrace)
      : ObjectRef(
            Create(kind, message,
                   backtrace != nullptr ? detail::ByteArrayView(*backtrace) : std::string_view(),
                   nullptr, nullptr)) {}
  /*!
   * \brief Create an error that records the error it was raised from and an
   *  extra context object (both owned by the new error).
   */
  Error(std::string_view kind, std::string_view message, std::string_view backtrace,
        std::optional<Error> cause_chain, std::optional<ObjectRef> extra_context)
      : ObjectRef(Create(kind, message, backtrace,
                         cause_chain.has_value() ? HandleOf(*cause_chain) : nullptr,
                         extra_context.has_value() ? HandleOf(*extra_context) : nullptr)) {}
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

  std::string kind() const { return std::string(detail::ByteArrayView(get()->kind)); }
  std::string message() const { return std::string(detail::ByteArrayView(get()->message)); }
  /*! \return The backtrace, most recent call first. */
  std::string backtrace() const { return std::string(detail::ByteArrayView(get()->backtrace)); }

  /*! \return The error this one was raised from, if recorded. */
  std::optional<Error> cause_chain() const {
    TVMFFIObjectHandle cause = get()->cause_chain;
    if (cause == nullptr) return std::nullopt;
    return Error(
        detail::ObjectUnsafe::ObjectPtrFromUnowned<Object>(static_cast<TVMFFIObject*>(cause)));
  }
  /*! \return The extra context object attached to this error, if any. */
  std::optional<ObjectRef> extra_context() const {
    TVMFFIObjectHandle extra = get()->extra_context;
    if (extra == nullptr) return std::nullopt;
    return ObjectRef(
        detail::ObjectUnsafe::ObjectPtrFromUnowned<Object>(static_cast<TVMFFIObject*>(extra)));
  }

  /*!
   * \return The backtrace in Python's order (most recent call last): the
   *  newline-terminated lines reversed, empty lines dropped, each ending in a
   *  newline (an unterminated trailing line is dropped).
   */
  std::string TracebackMostRecentCallLast() const {
    std::string_view bt = detail::ByteArrayView(get()->backtrace);
    std::vector<std::string_view> lines;
    size_t pos = 0;
    while (pos < bt.size()) {
      size_t nl = bt.find('\n', pos);
      if (nl == std::string_view::npos) break;
      if (nl != pos) lines.push_back(bt.substr(pos, nl - pos));
      pos = nl + 1;
    }
    std::string out;
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
      out.append(it->data(), it->size());
      out += '\n';
    }
    return out;
  }

  /*!
   * \return The Python-style report: "Traceback (most recent call last):\n",
   *  the frames, then "Kind: message\n".
   */
  std::string FullMessage() const {
    return "Traceback (most recent call last):\n" + TracebackMostRecentCallLast() + kind() + ": " +
           message() + "\n";
  }

  /*!
   * \brief Replace (mode kTVMFFIBacktraceUpdateModeReplace) or extend
   *  (kTVMFFIBacktraceUpdateModeAppend) the backtrace with outer frames.
   */
  void UpdateBacktrace(const TVMFFIByteArray* backtrace_str, int32_t update_mode) const {
    ErrorObj* obj = const_cast<ErrorObj*>(get());
    obj->update_backtrace(obj, backtrace_str, update_mode);
  }

  /*! \brief Append frames (outer callers) to the backtrace. */
  void AppendBacktrace(std::string_view frames) const {
    TVMFFIByteArray bytes{frames.data(), frames.size()};
    UpdateBacktrace(&bytes, kTVMFFIBacktraceUpdateModeAppend);
  }

  /*!
   * \return The message (kind and backtrace are separate, see FullMessage()).
   *  Safe to call from several threads at once.
   */
  const char* what() const noexcept override {
    const std::string* text = what_.load(std::memory_order_acquire);
    if (text != nullptr) return text->c_str();
    if (!defined()) return "Error";
    std::string* fresh = nullptr;
    try {
      // The cell's message need not be NUL-terminated (another library may have made it).
      fresh = new std::string(detail::ByteArrayView(get()->message));
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
  static TVMFFIObjectHandle HandleOf(const ObjectRef& ref) {
    return ref.defined() ? detail::ObjectUnsafe::GetHeader(ref.get()) : nullptr;
  }
  static ObjectPtr<Object> Create(std::string_view kind, std::string_view message,
                                  std::string_view backtrace, TVMFFIObjectHandle cause,
                                  TVMFFIObjectHandle extra) {
    TVMFFIByteArray k{kind.data(), kind.size()};
    TVMFFIByteArray m{message.data(), message.size()};
    TVMFFIByteArray b{backtrace.data(), backtrace.size()};
    TVMFFIObjectHandle out = nullptr;
    if (TVMFFIErrorCreateWithCauseAndExtraContext(&k, &m, &b, cause, extra, &out) != 0) {
      throw std::bad_alloc();
    }
    return detail::ObjectUnsafe::ObjectPtrFromOwned<Object>(static_cast<TVMFFIObject*>(out));
  }
  void ResetWhat() noexcept { delete what_.exchange(nullptr, std::memory_order_acq_rel); }
  mutable std::atomic<std::string*> what_{nullptr};
};

/*!
 * \brief The error thrown after TVMFFIEnvCheckSignals() reported a pending
 *  error (e.g. a Python KeyboardInterrupt already set in the interpreter).
 */
inline Error EnvErrorAlreadySet() { return Error("EnvErrorAlreadySet", "", ""); }

namespace detail {

/*!
 * \brief Collects a message and throws an Error when destroyed; with
 *  log_before_throw the error's FullMessage() goes to stderr first.
 */
class ErrorBuilder {
 public:
  /*! \brief The backtrace is taken at the throw, starting at file:line in func. */
  ErrorBuilder(const char* kind, const char* file, int line, const char* func,
               bool log_before_throw = false)
      : kind_(kind), file_(file), line_(line), func_(func), log_(log_before_throw) {}
  /*! \brief An error with a backtrace the caller already has (most recent call first). */
  ErrorBuilder(std::string kind, std::string backtrace, bool log_before_throw)
      : kind_(std::move(kind)), backtrace_(std::move(backtrace)), log_(log_before_throw) {}
  /*! \brief As above, with the backtrace as a byte array (NULL: none). */
  ErrorBuilder(std::string kind, const TVMFFIByteArray* backtrace, bool log_before_throw)
      : ErrorBuilder(std::move(kind), ByteArrayString(backtrace), log_before_throw) {}
  /*! \brief As above, and the error records its cause and an extra context object. */
  ErrorBuilder(std::string kind, const TVMFFIByteArray* backtrace, bool log_before_throw,
               std::optional<Error> cause_chain, std::optional<ObjectRef> extra_context)
      : kind_(std::move(kind)),
        backtrace_(ByteArrayString(backtrace)),
        log_(log_before_throw),
        cause_chain_(std::move(cause_chain)),
        extra_context_(std::move(extra_context)) {}
  ErrorBuilder(const ErrorBuilder&) = delete;
  ErrorBuilder& operator=(const ErrorBuilder&) = delete;
  std::ostringstream& stream() { return stream_; }

#if defined(_MSC_VER)
  __declspec(noreturn)
#else
  [[noreturn]]
#endif
  ~ErrorBuilder() noexcept(false) {
    if (file_ != nullptr) {
      const TVMFFIByteArray* bt = TVMFFIBacktrace(file_, line_, func_, 0);
      if (bt != nullptr) backtrace_.assign(bt->data, bt->size);
    }
    Error error(kind_, stream_.str(), backtrace_, std::move(cause_chain_),
                std::move(extra_context_));
    if (log_) std::cerr << error.FullMessage();
    throw error;
  }

 private:
  static std::string ByteArrayString(const TVMFFIByteArray* b) {
    return b != nullptr ? std::string(b->data, b->size) : std::string();
  }

  std::string kind_;
  const char* file_ = nullptr;
  int line_ = 0;
  const char* func_ = nullptr;
  std::string backtrace_;
  bool log_;
  std::optional<Error> cause_chain_;
  std::optional<ObjectRef> extra_context_;
  std::ostringstream stream_;
};

/*! \brief Store err as the thread's raised error (for returning -1 from a C function). */
inline void SetRaisedFromError(const Error& err) {
  TVMFFIErrorSetRaised(ObjectUnsafe::GetHeader(err.get()));
}
/*! \brief Same as SetRaisedFromError. */
inline void SetSafeCallRaised(const Error& err) { SetRaisedFromError(err); }

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
/*! \brief Take the raised error of this thread as an Error, unchanged. */
inline Error MoveFromSafeCallRaised() { return MoveFromRaised(); }

/*! \brief The value of a CHECK_NOTNULL expression; throws kind when it is null. */
template <typename T>
inline T CheckNotNull(T&& ptr, const char* kind, const char* text, const char* file, int line,
                      const char* func) {
  if (TVM_FFI_UNLIKELY(ptr == nullptr)) {
    ErrorBuilder(kind, file, line, func).stream() << text;
  }
  return std::forward<T>(ptr);
}
}  // namespace detail

TVM_FFI_NAMESPACE_END

#ifndef TVM_FFI_ALWAYS_LOG_BEFORE_THROW
#define TVM_FFI_ALWAYS_LOG_BEFORE_THROW 0
#endif
// Build configuration defaults user code may test (cpp_api.md §3.1): backtraces come from the
// runtime (libtvm_ffi decides how it walks the stack); these only record the wheel's defaults.
#ifndef TVM_FFI_USE_LIBBACKTRACE
#define TVM_FFI_USE_LIBBACKTRACE 1
#endif
#ifndef TVM_FFI_BACKTRACE_ON_SEGFAULT
#define TVM_FFI_BACKTRACE_ON_SEGFAULT 1
#endif

/*! \brief Throw an ffi::Error of the given kind: TVM_FFI_THROW(ValueError) << "msg". */
#define TVM_FFI_THROW(ErrorKind)                                                     \
  ::tvm::ffi::detail::ErrorBuilder(#ErrorKind, __FILE__, __LINE__, TVM_FFI_FUNC_SIG, \
                                   TVM_FFI_ALWAYS_LOG_BEFORE_THROW)                  \
      .stream()

/*! \brief As TVM_FFI_THROW, and print the error's FullMessage() to stderr first. */
#define TVM_FFI_LOG_AND_THROW(ErrorKind) \
  ::tvm::ffi::detail::ErrorBuilder(#ErrorKind, __FILE__, __LINE__, TVM_FFI_FUNC_SIG, true).stream()

// Picks the 2- or 3-argument form of a check macro (the error kind is optional).
#define TVM_FFI_CHECK_SELECT_3_(a, b, c, name, ...) name
#define TVM_FFI_CHECK_SELECT_2_(a, b, name, ...) name

#define TVM_FFI_CHECK_WITH_KIND_(cond, ErrorKind) \
  if (TVM_FFI_LIKELY(cond)) {                     \
  } else                                          \
    TVM_FFI_THROW(ErrorKind) << "Check failed: (" #cond ") is false: "
#define TVM_FFI_CHECK_DEFAULT_KIND_(cond) TVM_FFI_CHECK_WITH_KIND_(cond, InternalError)

/*!
 * \brief Throw an error of kind ErrorKind (InternalError when omitted) when
 *  cond is false: TVM_FFI_CHECK(n > 0, ValueError) << "n = " << n.
 */
#define TVM_FFI_CHECK(...)                                                                    \
  TVM_FFI_CHECK_SELECT_2_(__VA_ARGS__, TVM_FFI_CHECK_WITH_KIND_, TVM_FFI_CHECK_DEFAULT_KIND_, \
                          unused)(__VA_ARGS__)

/*! \brief Internal invariant check; raises InternalError. */
#define TVM_FFI_ICHECK(cond) TVM_FFI_CHECK_WITH_KIND_(cond, InternalError)

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
// Each operand of a binary check is evaluated once; the message is built only on failure.
#define TVM_FFI_DEFINE_BINARY_CHECK_(name, op)                                  \
  template <typename A, typename B>                                             \
  inline std::optional<std::string> BinaryCheck##name(const A& a, const B& b) { \
    if (TVM_FFI_LIKELY(a op b)) return std::nullopt;                            \
    std::ostringstream os;                                                      \
    os << "(" << a << " vs. " << b << ") ";                                     \
    return os.str();                                                            \
  }
TVM_FFI_DEFINE_BINARY_CHECK_(EQ, ==)
TVM_FFI_DEFINE_BINARY_CHECK_(NE, !=)
TVM_FFI_DEFINE_BINARY_CHECK_(LT, <)
TVM_FFI_DEFINE_BINARY_CHECK_(LE, <=)
TVM_FFI_DEFINE_BINARY_CHECK_(GT, >)
TVM_FFI_DEFINE_BINARY_CHECK_(GE, >=)
#undef TVM_FFI_DEFINE_BINARY_CHECK_

/*! \return " (x vs. y) ", the operand part of a failed binary check's message. */
template <typename X, typename Y>
inline std::unique_ptr<std::string> LogCheckFormat(const X& x, const Y& y) {
  std::ostringstream os;
  os << " (" << x << " vs. " << y << ") ";
  return std::make_unique<std::string>(os.str());
}
// LogCheck_OP(x, y): null when `x OP y` holds, else LogCheckFormat(x, y).
#define TVM_FFI_DEFINE_LOG_CHECK_(name, op)                                     \
  template <typename X, typename Y>                                             \
  inline std::unique_ptr<std::string> LogCheck_##name(const X& x, const Y& y) { \
    if (TVM_FFI_LIKELY(x op y)) return nullptr;                                 \
    return LogCheckFormat(x, y);                                                \
  }
TVM_FFI_DEFINE_LOG_CHECK_(LT, <)
TVM_FFI_DEFINE_LOG_CHECK_(GT, >)
TVM_FFI_DEFINE_LOG_CHECK_(LE, <=)
TVM_FFI_DEFINE_LOG_CHECK_(GE, >=)
TVM_FFI_DEFINE_LOG_CHECK_(EQ, ==)
TVM_FFI_DEFINE_LOG_CHECK_(NE, !=)
#undef TVM_FFI_DEFINE_LOG_CHECK_
}  // namespace detail
TVM_FFI_NAMESPACE_END

// Message: "Check failed: a == b (1 vs. 2) : " followed by what the caller streams.
#define TVM_FFI_CHECK_BINARY_OP_(name, op, a, b, ErrorKind)                                   \
  if (auto _tvm_ffi_check_msg = ::tvm::ffi::detail::BinaryCheck##name((a), (b));              \
      TVM_FFI_LIKELY(!_tvm_ffi_check_msg)) {                                                  \
  } else                                                                                      \
    TVM_FFI_THROW(ErrorKind) << "Check failed: " #a " " #op " " #b " " << *_tvm_ffi_check_msg \
                             << ": "

#define TVM_FFI_CHECK_BINARY_DISPATCH_(name, op, ...)                       \
  TVM_FFI_CHECK_SELECT_3_(__VA_ARGS__, TVM_FFI_CHECK_BINARY_KIND_##name##_, \
                          TVM_FFI_CHECK_BINARY_DEFAULT_##name##_, unused)(__VA_ARGS__)
#define TVM_FFI_CHECK_BINARY_KIND_EQ_(a, b, K) TVM_FFI_CHECK_BINARY_OP_(EQ, ==, a, b, K)
#define TVM_FFI_CHECK_BINARY_KIND_NE_(a, b, K) TVM_FFI_CHECK_BINARY_OP_(NE, !=, a, b, K)
#define TVM_FFI_CHECK_BINARY_KIND_LT_(a, b, K) TVM_FFI_CHECK_BINARY_OP_(LT, <, a, b, K)
#define TVM_FFI_CHECK_BINARY_KIND_LE_(a, b, K) TVM_FFI_CHECK_BINARY_OP_(LE, <=, a, b, K)
#define TVM_FFI_CHECK_BINARY_KIND_GT_(a, b, K) TVM_FFI_CHECK_BINARY_OP_(GT, >, a, b, K)
#define TVM_FFI_CHECK_BINARY_KIND_GE_(a, b, K) TVM_FFI_CHECK_BINARY_OP_(GE, >=, a, b, K)
#define TVM_FFI_CHECK_BINARY_DEFAULT_EQ_(a, b) TVM_FFI_CHECK_BINARY_KIND_EQ_(a, b, InternalError)
#define TVM_FFI_CHECK_BINARY_DEFAULT_NE_(a, b) TVM_FFI_CHECK_BINARY_KIND_NE_(a, b, InternalError)
#define TVM_FFI_CHECK_BINARY_DEFAULT_LT_(a, b) TVM_FFI_CHECK_BINARY_KIND_LT_(a, b, InternalError)
#define TVM_FFI_CHECK_BINARY_DEFAULT_LE_(a, b) TVM_FFI_CHECK_BINARY_KIND_LE_(a, b, InternalError)
#define TVM_FFI_CHECK_BINARY_DEFAULT_GT_(a, b) TVM_FFI_CHECK_BINARY_KIND_GT_(a, b, InternalError)
#define TVM_FFI_CHECK_BINARY_DEFAULT_GE_(a, b) TVM_FFI_CHECK_BINARY_KIND_GE_(a, b, InternalError)

/*!
 * \brief Binary checks: TVM_FFI_CHECK_EQ(x, y, ValueError) << "why". Each
 *  operand is evaluated once; the kind defaults to InternalError.
 */
#define TVM_FFI_CHECK_EQ(...) TVM_FFI_CHECK_BINARY_DISPATCH_(EQ, ==, __VA_ARGS__)
#define TVM_FFI_CHECK_NE(...) TVM_FFI_CHECK_BINARY_DISPATCH_(NE, !=, __VA_ARGS__)
#define TVM_FFI_CHECK_LT(...) TVM_FFI_CHECK_BINARY_DISPATCH_(LT, <, __VA_ARGS__)
#define TVM_FFI_CHECK_LE(...) TVM_FFI_CHECK_BINARY_DISPATCH_(LE, <=, __VA_ARGS__)
#define TVM_FFI_CHECK_GT(...) TVM_FFI_CHECK_BINARY_DISPATCH_(GT, >, __VA_ARGS__)
#define TVM_FFI_CHECK_GE(...) TVM_FFI_CHECK_BINARY_DISPATCH_(GE, >=, __VA_ARGS__)

#define TVM_FFI_ICHECK_EQ(a, b) TVM_FFI_CHECK_BINARY_KIND_EQ_(a, b, InternalError)
#define TVM_FFI_ICHECK_NE(a, b) TVM_FFI_CHECK_BINARY_KIND_NE_(a, b, InternalError)
#define TVM_FFI_ICHECK_LT(a, b) TVM_FFI_CHECK_BINARY_KIND_LT_(a, b, InternalError)
#define TVM_FFI_ICHECK_LE(a, b) TVM_FFI_CHECK_BINARY_KIND_LE_(a, b, InternalError)
#define TVM_FFI_ICHECK_GT(a, b) TVM_FFI_CHECK_BINARY_KIND_GT_(a, b, InternalError)
#define TVM_FFI_ICHECK_GE(a, b) TVM_FFI_CHECK_BINARY_KIND_GE_(a, b, InternalError)

/*!
 * \brief An expression yielding x; throws ErrorKind "Check not null: x " when
 *  x is null: `T* p = TVM_FFI_CHECK_NOTNULL(Lookup(), KeyError);`.
 */
#define TVM_FFI_CHECK_NOTNULL(x, ErrorKind)                                                        \
  ::tvm::ffi::detail::CheckNotNull((x), #ErrorKind, "Check not null: " #x " ", __FILE__, __LINE__, \
                                   TVM_FFI_FUNC_SIG)
#define TVM_FFI_ICHECK_NOTNULL(x) TVM_FFI_CHECK_NOTNULL(x, InternalError)

/*!
 * \brief Debug-only checks: the ICHECK forms, or nothing (the condition is
 *  not evaluated) when NDEBUG is defined.
 */
#ifdef NDEBUG
#define TVM_FFI_DCHECK(x) \
  while (false) TVM_FFI_ICHECK(x)
#define TVM_FFI_DCHECK_EQ(a, b) \
  while (false) TVM_FFI_ICHECK_EQ(a, b)
#define TVM_FFI_DCHECK_NE(a, b) \
  while (false) TVM_FFI_ICHECK_NE(a, b)
#define TVM_FFI_DCHECK_LT(a, b) \
  while (false) TVM_FFI_ICHECK_LT(a, b)
#define TVM_FFI_DCHECK_LE(a, b) \
  while (false) TVM_FFI_ICHECK_LE(a, b)
#define TVM_FFI_DCHECK_GT(a, b) \
  while (false) TVM_FFI_ICHECK_GT(a, b)
#define TVM_FFI_DCHECK_GE(a, b) \
  while (false) TVM_FFI_ICHECK_GE(a, b)
#define TVM_FFI_DCHECK_NOTNULL(x) (x)
#else
#define TVM_FFI_DCHECK(x) TVM_FFI_ICHECK(x)
#define TVM_FFI_DCHECK_EQ(a, b) TVM_FFI_ICHECK_EQ(a, b)
#define TVM_FFI_DCHECK_NE(a, b) TVM_FFI_ICHECK_NE(a, b)
#define TVM_FFI_DCHECK_LT(a, b) TVM_FFI_ICHECK_LT(a, b)
#define TVM_FFI_DCHECK_LE(a, b) TVM_FFI_ICHECK_LE(a, b)
#define TVM_FFI_DCHECK_GT(a, b) TVM_FFI_ICHECK_GT(a, b)
#define TVM_FFI_DCHECK_GE(a, b) TVM_FFI_ICHECK_GE(a, b)
#define TVM_FFI_DCHECK_NOTNULL(x) TVM_FFI_ICHECK_NOTNULL(x)
#endif

/*!
 * \brief Bracket the body of a C function: an ffi::Error becomes the raised
 *  error as is, any other std::exception an InternalError with its what(),
 *  and the function returns -1. (Exceptions of other types, which must not
 *  cross a C boundary, are reported as InternalError too.)
 */
#define TVM_FFI_SAFE_CALL_BEGIN() try {
#define TVM_FFI_SAFE_CALL_END()                                             \
  return 0;                                                                 \
  }                                                                         \
  catch (const ::tvm::ffi::Error& err) {                                    \
    ::tvm::ffi::detail::SetRaisedFromError(err);                            \
    return -1;                                                              \
  }                                                                         \
  catch (const std::exception& ex) {                                        \
    TVMFFIErrorSetRaisedFromCStr("InternalError", ex.what());               \
    return -1;                                                              \
  }                                                                         \
  catch (...) {                                                             \
    TVMFFIErrorSetRaisedFromCStr("InternalError", "unknown C++ exception"); \
    return -1;                                                              \
  }

/*! \brief Call a C function of the ABI and rethrow its raised error as ffi::Error. */
#define TVM_FFI_CHECK_SAFE_CALL(func)                                                 \
  do {                                                                                \
    if (TVM_FFI_UNLIKELY((func) != 0)) {                                              \
      throw ::tvm::ffi::detail::MoveFromRaised(__FILE__, __LINE__, TVM_FFI_FUNC_SIG); \
    }                                                                                 \
  } while (0)

#endif  // TVM_FFI_ERROR_H_
