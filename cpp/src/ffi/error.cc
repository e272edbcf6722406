/*
 * Error objects (type index kTVMFFIError) and the thread-local raised error.
 *
 * Layout of an Error: the TVMFFIObject header, the TVMFFIErrorCell at offset
 * 24, then private fields. kind and message are copied once into the same
 * allocation, after the private fields; the backtrace lives in a separate
 * growable buffer because update_backtrace appends to it as the error
 * propagates. All three are NUL-terminated.
 *
 * update_backtrace mutates the error in place. An error is owned by the
 * thread that propagates it, so it must not be called concurrently on the
 * same error from two threads (reading kind/message is always safe). Mode 1
 * (append) puts the new text after the stored text, mode 0 (and any other
 * value) replaces it; a NULL backtrace counts as empty text.
 *
 * The raised-error slot holds one strong reference per thread and gives it
 * up when the thread exits.
 *
 * TVMFFIErrorSetRaisedFromCStr(Parts) records the native backtrace of its C
 * caller (see backtrace.cc; TVM_FFI_BACKTRACE=0 makes it empty), with no
 * site frame since C callers have none to give. A NULL kind means
 * "RuntimeError", a NULL message (or part) is empty.
 *
 * When memory runs out while creating an error, a static MemoryError (never
 * freed, backtrace fixed and empty) is raised in its place, so a failure is
 * always reported.
 */
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "backtrace_impl.h"

TVM_FFI_NAMESPACE_BEGIN
namespace {

struct ErrorObject {
  TVMFFIObject header;
  TVMFFIErrorCell cell;
  // malloc'd backtrace text, or nullptr while cell.backtrace is the static "".
  char* backtrace_buffer;
  size_t backtrace_capacity;
};

static_assert(offsetof(ErrorObject, cell) == sizeof(TVMFFIObject),
              "the error cell must follow the object header");
static_assert(sizeof(TVMFFIErrorCell) == 72, "TVMFFIErrorCell is 72 bytes");
static_assert(alignof(ErrorObject) <= alignof(std::max_align_t), "malloc alignment suffices");

constexpr uint64_t kInitialRefCount = (uint64_t{1} << 32) | 1;
const char kEmpty[] = "";

void ErrorUpdateBacktrace(TVMFFIObjectHandle self, const TVMFFIByteArray* backtrace,
                          int32_t update_mode) {
  ErrorObject* err = static_cast<ErrorObject*>(self);
  if (err == nullptr) return;
  const char* src = backtrace != nullptr && backtrace->data != nullptr ? backtrace->data : kEmpty;
  size_t src_size = backtrace != nullptr && backtrace->data != nullptr ? backtrace->size : 0;
  size_t keep = update_mode == kTVMFFIBacktraceUpdateModeAppend ? err->cell.backtrace.size : 0;
  if (src_size > SIZE_MAX / 2 - keep) return;
  size_t new_size = keep + src_size;
  if (err->backtrace_buffer != nullptr && new_size < err->backtrace_capacity) {
    // src may alias the current text; memmove covers both modes.
    std::memmove(err->backtrace_buffer + keep, src, src_size);
    err->backtrace_buffer[new_size] = '\0';
    err->cell.backtrace.size = new_size;
    return;
  }
  if (new_size == 0) {
    err->cell.backtrace.data = kEmpty;
    err->cell.backtrace.size = 0;
    return;
  }
  // Grow geometrically so repeated appends stay linear overall.
  size_t capacity = std::max(new_size + 1, err->backtrace_capacity * 2);
  char* buffer = static_cast<char*>(std::malloc(capacity));
  if (buffer == nullptr) {
    capacity = new_size + 1;
    buffer = static_cast<char*>(std::malloc(capacity));
    // Out of memory: keep the old text, which is still valid.
    if (buffer == nullptr) return;
  }
  std::memcpy(buffer, err->cell.backtrace.data, keep);
  std::memcpy(buffer + keep, src, src_size);
  buffer[new_size] = '\0';
  std::free(err->backtrace_buffer);
  err->backtrace_buffer = buffer;
  err->backtrace_capacity = capacity;
  err->cell.backtrace.data = buffer;
  err->cell.backtrace.size = new_size;
}

void ErrorDeleter(void* self, int flags) {
  ErrorObject* err = static_cast<ErrorObject*>(self);
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    TVMFFIObjectHandle cause = err->cell.cause_chain;
    TVMFFIObjectHandle extra = err->cell.extra_context;
    err->cell.cause_chain = nullptr;
    err->cell.extra_context = nullptr;
    std::free(err->backtrace_buffer);
    err->backtrace_buffer = nullptr;
    err->backtrace_capacity = 0;
    err->cell.backtrace.data = kEmpty;
    err->cell.backtrace.size = 0;
    if (cause != nullptr) TVMFFIObjectDecRef(cause);
    if (extra != nullptr) TVMFFIObjectDecRef(extra);
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) std::free(err);
}

// The static error raised when memory runs out. It is shared by all threads,
// so its update_backtrace does nothing, and it holds one reference forever.
void StaticErrorUpdateBacktrace(TVMFFIObjectHandle, const TVMFFIByteArray*, int32_t) {}
void StaticErrorDeleter(void*, int) {}

const char kOutOfMemoryKind[] = "MemoryError";
const char kOutOfMemoryMessage[] = "out of memory while creating an error";

ErrorObject g_out_of_memory_error = {{kInitialRefCount, kTVMFFIError, 0, {StaticErrorDeleter}},
                                     {{kOutOfMemoryKind, sizeof(kOutOfMemoryKind) - 1},
                                      {kOutOfMemoryMessage, sizeof(kOutOfMemoryMessage) - 1},
                                      {kEmpty, 0},
                                      StaticErrorUpdateBacktrace,
                                      nullptr,
                                      nullptr},
                                     nullptr,
                                     0};

// Either a valid byte range, or nullptr when `data` is NULL with a non-zero size.
bool ValidBytes(const TVMFFIByteArray* bytes) {
  return bytes != nullptr && (bytes->data != nullptr || bytes->size == 0);
}

// Allocates an error; returns nullptr when out of memory. Takes new
// references to cause and extra.
ErrorObject* NewError(const char* kind, size_t kind_size, const char* message, size_t message_size,
                      const char* backtrace, size_t backtrace_size, TVMFFIObjectHandle cause,
                      TVMFFIObjectHandle extra) {
  constexpr size_t kMaxText = SIZE_MAX / 4;
  if (kind_size > kMaxText || message_size > kMaxText) return nullptr;
  size_t total = sizeof(ErrorObject) + kind_size + 1 + message_size + 1;
  ErrorObject* err = static_cast<ErrorObject*>(std::malloc(total));
  if (err == nullptr) return nullptr;
  char* kind_data = reinterpret_cast<char*>(err + 1);
  char* message_data = kind_data + kind_size + 1;
  if (kind_size != 0) std::memcpy(kind_data, kind, kind_size);
  kind_data[kind_size] = '\0';
  if (message_size != 0) std::memcpy(message_data, message, message_size);
  message_data[message_size] = '\0';

  err->header.combined_ref_count = kInitialRefCount;
  err->header.type_index = kTVMFFIError;
  err->header.__padding = 0;
  err->header.deleter = ErrorDeleter;
  err->cell.kind = {kind_data, kind_size};
  err->cell.message = {message_data, message_size};
  err->cell.backtrace = {kEmpty, 0};
  err->cell.update_backtrace = ErrorUpdateBacktrace;
  err->cell.cause_chain = nullptr;
  err->cell.extra_context = nullptr;
  err->backtrace_buffer = nullptr;
  err->backtrace_capacity = 0;
  if (backtrace_size != 0) {
    TVMFFIByteArray bt = {backtrace, backtrace_size};
    ErrorUpdateBacktrace(err, &bt, kTVMFFIBacktraceUpdateModeReplace);
    if (err->cell.backtrace.size != backtrace_size) {
      std::free(err);
      return nullptr;
    }
  }
  if (cause != nullptr) {
    TVMFFIObjectIncRef(cause);
    err->cell.cause_chain = cause;
  }
  if (extra != nullptr) {
    TVMFFIObjectIncRef(extra);
    err->cell.extra_context = extra;
  }
  return err;
}

// ---------------------------------------------------------------------------
// Thread-local raised error
// ---------------------------------------------------------------------------

// The slot is a plain pointer so it stays usable during thread exit; the
// releaser drops its reference when the thread's destructors run. Errors set
// after that (by later thread-local destructors) are released at once, since
// nobody can take them any more.
thread_local TVMFFIObjectHandle tls_raised = nullptr;
thread_local bool tls_slot_closed = false;

struct RaisedSlotReleaser {
  bool armed = false;
  ~RaisedSlotReleaser() {
    tls_slot_closed = true;
    // A deleter may raise again while we release; loop until the slot is empty.
    while (tls_raised != nullptr) {
      TVMFFIObjectHandle err = tls_raised;
      tls_raised = nullptr;
      TVMFFIObjectDecRef(err);
    }
  }
};

thread_local RaisedSlotReleaser tls_releaser;

// Stores one reference the caller already owns into the slot.
void StoreRaised(TVMFFIObjectHandle owned) {
  if (tls_slot_closed) {
    if (owned != nullptr) TVMFFIObjectDecRef(owned);
    return;
  }
  tls_releaser.armed = true;
  TVMFFIObjectHandle previous = tls_raised;
  tls_raised = owned;
  if (previous != nullptr) TVMFFIObjectDecRef(previous);
}

void RaiseOutOfMemory() {
  TVMFFIObjectIncRef(&g_out_of_memory_error);
  StoreRaised(&g_out_of_memory_error);
}

void RaiseNew(const char* kind, const char* message, size_t message_size, void* caller_pc) {
  if (kind == nullptr) kind = "RuntimeError";
  const TVMFFIByteArray* bt = detail::CaptureBacktrace(nullptr, 0, nullptr, 0, caller_pc);
  ErrorObject* err = NewError(kind, std::strlen(kind), message, message_size, bt->data, bt->size,
                              nullptr, nullptr);
  if (err == nullptr) {
    RaiseOutOfMemory();
    return;
  }
  StoreRaised(err);
}

int CreateError(const TVMFFIByteArray* kind, const TVMFFIByteArray* message,
                const TVMFFIByteArray* backtrace, TVMFFIObjectHandle cause_chain,
                TVMFFIObjectHandle extra_context, TVMFFIObjectHandle* out, void* caller_pc) {
  const char* invalid = nullptr;
  if (out == nullptr) {
    invalid = "TVMFFIErrorCreate: out is NULL";
  } else if (!ValidBytes(kind)) {
    invalid = "TVMFFIErrorCreate: kind is NULL";
  } else if (!ValidBytes(message)) {
    invalid = "TVMFFIErrorCreate: message is NULL";
  } else if (backtrace != nullptr && !ValidBytes(backtrace)) {
    invalid = "TVMFFIErrorCreate: backtrace data is NULL with a non-zero size";
  }
  if (out != nullptr) *out = nullptr;
  if (invalid != nullptr) {
    RaiseNew("ValueError", invalid, std::strlen(invalid), caller_pc);
    return -1;
  }
  ErrorObject* err =
      NewError(kind->data, kind->size, message->data, message->size,
               backtrace != nullptr ? backtrace->data : nullptr,
               backtrace != nullptr ? backtrace->size : 0, cause_chain, extra_context);
  if (err == nullptr) {
    RaiseOutOfMemory();
    return -1;
  }
  *out = err;
  return 0;
}

}  // namespace
TVM_FFI_NAMESPACE_END

extern "C" {

TVM_FFI_DLL TVM_FFI_NOINLINE int TVMFFIErrorCreate(const TVMFFIByteArray* kind,
                                                   const TVMFFIByteArray* message,
                                                   const TVMFFIByteArray* backtrace,
                                                   TVMFFIObjectHandle* out) {
  return ::tvm::ffi::CreateError(kind, message, backtrace, nullptr, nullptr, out,
                                 __builtin_return_address(0));
}

TVM_FFI_DLL TVM_FFI_NOINLINE int TVMFFIErrorCreateWithCauseAndExtraContext(
    const TVMFFIByteArray* kind, const TVMFFIByteArray* message, const TVMFFIByteArray* backtrace,
    TVMFFIObjectHandle cause_chain, TVMFFIObjectHandle extra_context, TVMFFIObjectHandle* out) {
  return ::tvm::ffi::CreateError(kind, message, backtrace, cause_chain, extra_context, out,
                                 __builtin_return_address(0));
}

TVM_FFI_DLL void TVMFFIErrorSetRaised(TVMFFIObjectHandle error) {
  // Take the new reference first: error may be the one already raised.
  if (error != nullptr) TVMFFIObjectIncRef(error);
  ::tvm::ffi::StoreRaised(error);
}

TVM_FFI_DLL TVM_FFI_NOINLINE void TVMFFIErrorSetRaisedFromCStr(const char* kind,
                                                               const char* message) {
  if (message == nullptr) message = "";
  ::tvm::ffi::RaiseNew(kind, message, std::strlen(message), __builtin_return_address(0));
}

TVM_FFI_DLL TVM_FFI_NOINLINE void TVMFFIErrorSetRaisedFromCStrParts(const char* kind,
                                                                    const char** message_parts,
                                                                    int32_t num_parts) {
  void* caller_pc = __builtin_return_address(0);
  size_t total = 0;
  for (int32_t i = 0; message_parts != nullptr && i < num_parts; ++i) {
    if (message_parts[i] != nullptr) total += std::strlen(message_parts[i]);
  }
  char* message = static_cast<char*>(std::malloc(total + 1));
  if (message == nullptr) {
    ::tvm::ffi::RaiseOutOfMemory();
    return;
  }
  size_t pos = 0;
  for (int32_t i = 0; message_parts != nullptr && i < num_parts; ++i) {
    if (message_parts[i] == nullptr) continue;
    size_t n = std::strlen(message_parts[i]);
    std::memcpy(message + pos, message_parts[i], n);
    pos += n;
  }
  message[pos] = '\0';
  ::tvm::ffi::RaiseNew(kind, message, pos, caller_pc);
  std::free(message);
}

TVM_FFI_DLL void TVMFFIErrorMoveFromRaised(TVMFFIObjectHandle* result) {
  namespace impl = ::tvm::ffi;
  TVMFFIObjectHandle err = impl::tls_slot_closed ? nullptr : impl::tls_raised;
  impl::tls_raised = nullptr;
  if (result != nullptr) {
    *result = err;
  } else if (err != nullptr) {
    TVMFFIObjectDecRef(err);
  }
}

}  // extern "C"
