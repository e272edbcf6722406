/*
 * Private interface between backtrace.cc and the other runtime sources.
 *
 * TVMFFIBacktrace finds the first frame to report from its own return
 * address. Runtime entry points that capture a backtrace on behalf of their C
 * caller (TVMFFIErrorSetRaisedFromCStr) pass their own return address instead,
 * so their frame is never reported.
 */
#ifndef TVM_FFI_SRC_FFI_BACKTRACE_IMPL_H_
#define TVM_FFI_SRC_FFI_BACKTRACE_IMPL_H_

#include <tvm/ffi/base.h>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {

/*!
 * \brief Build the backtrace text of the calling thread (the format and
 *  options are described at the top of backtrace.cc).
 * \param filename, lineno, func The site frame, written first; skipped when
 *  filename or func is NULL.
 * \param cross_ffi_boundary See TVMFFIBacktrace in backtrace.cc.
 * \param first_pc Return address of the first frame to report: native frames
 *  deeper than it (the runtime's own) are dropped.
 * \return Thread-local text valid until the next call on this thread; never
 *  NULL, never throws.
 */
__attribute__((visibility("hidden"))) const TVMFFIByteArray* CaptureBacktrace(
    const char* filename, int lineno, const char* func, int cross_ffi_boundary,
    void* first_pc) noexcept;

}  // namespace detail
TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_SRC_FFI_BACKTRACE_IMPL_H_
