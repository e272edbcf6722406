/*
 * TVMFFIBacktrace: the native backtrace text attached to errors.
 *
 * Format. One frame per line, most-recent call first, each line exactly
 *     File "<file>", line <N>, in <function>\n     (two leading spaces)
 * The first line is the site passed by the caller (the throw site, from
 * __FILE__/__LINE__/__PRETTY_FUNCTION__); it is left out when filename or
 * func is NULL. The native frames of the calling thread follow.
 *
 * Unwinding uses _Unwind_Backtrace (libgcc, no extra dependency). Frames
 * are dropped when they belong to the backtrace machinery itself: everything
 * deeper than the caller of TVMFFIBacktrace, and any frame whose function is
 * TVMFFIBacktrace or lives in tvm::ffi::<our inline namespace>::details (the
 * error-raising helpers of our C++ headers call TVMFFIBacktrace from there).
 * When a site frame was written, the first remaining native frame is the
 * function containing the site, so it is dropped as a duplicate. Unwinding
 * stops after `main` and before `__libc_start_main` / `_start`.
 *
 * Symbolization. Built with TVM_FFI_USE_LIBDW (CMake defines it when
 * elfutils' libdw is found), libdwfl reads the symbol table and DWARF line
 * tables, so frames carry the demangled function name and the source
 * file:line of the call. Without libdw, or for a PC libdwfl cannot map,
 * dladdr gives the demangled exported symbol and the shared object path as
 * the file, with line 0, e.g.  File "/path/libfoo.so", line 0, in foo::bar(int)
 * Hidden or static functions have no dynamic symbol there and print as
 * <unknown> (so are functions of an executable not linked with -rdynamic,
 * and glibc's hidden __libc_start_call_main, which then cannot end the
 * trace by name). A process-wide libdwfl session and a PC -> frame cache are
 * shared by all threads under one mutex (symbolization only runs when an
 * error is created, and the cache makes repeated throws from the same places
 * cheap). The loader's dlopen/dlclose counters are checked on every call:
 * new libraries make the session re-read /proc/self/maps, and an unload
 * also empties the cache because addresses may be reused. The session and
 * cache are never freed, so errors thrown during process exit still work.
 *
 * Options (read on every call):
 *   TVM_FFI_BACKTRACE=0        no native frames, only the site frame (fast).
 *   TVM_FFI_BACKTRACE_LIMIT=N  at most N native frames (default 64, capped at
 *                              1024); 0 also means only the site frame.
 *
 * cross_ffi_boundary != 0 says the caller sits at an FFI boundary (a safe-call
 * wrapper): only native frames in the same shared object as the caller are
 * kept, and unwinding stops at the first frame of another object, because
 * the frames beyond belong to the other side, which reports its own.
 *
 * The returned TVMFFIByteArray is thread-local and valid until the next call
 * on the same thread. No C++ exception escapes; on allocation failure the
 * text is whatever could be built (possibly empty).
 */
#include <cxxabi.h>
#include <dlfcn.h>
#include <link.h>
#include <unwind.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

#ifdef TVM_FFI_USE_LIBDW
#include <elfutils/libdwfl.h>
#include <unistd.h>
#endif

#include "backtrace_impl.h"

#define TVM_FFI_BT_STR_(x) #x
#define TVM_FFI_BT_STR(x) TVM_FFI_BT_STR_(x)

TVM_FFI_NAMESPACE_BEGIN
namespace {

constexpr int kDefaultLimit = 64;
constexpr int kMaxLimit = 1024;
// Frames unwound beyond the limit, to make room for the dropped internal ones.
constexpr int kInternalSlack = 32;
constexpr int kMaxRawFrames = kMaxLimit + kInternalSlack;
// The PC cache is emptied when it grows past this many entries.
constexpr size_t kMaxCacheEntries = 1 << 16;

const char kInternalNamespace[] =
    "tvm::ffi::" TVM_FFI_BT_STR(TVM_FFI_INLINE_NAMESPACE) "::detail::";

const TVMFFIByteArray kEmptyText = {"", 0};

int ReadLimit() {
  const char* enabled = std::getenv("TVM_FFI_BACKTRACE");
  if (enabled != nullptr && std::strcmp(enabled, "0") == 0) return 0;
  const char* limit = std::getenv("TVM_FFI_BACKTRACE_LIMIT");
  if (limit == nullptr || *limit == '\0') return kDefaultLimit;
  char* end = nullptr;
  long value = std::strtol(limit, &end, 10);
  if (*end != '\0' || value < 0) return kDefaultLimit;
  return static_cast<int>(std::min<long>(value, kMaxLimit));
}

void AppendFrame(std::string* out, const char* file, long line, const char* func) {
  out->append("  File \"");
  out->append(file);
  out->append("\", line ");
  // snprintf rather than std::to_string, whose libstdc++ digit table would
  // be exported from the library as a unique global symbol.
  char digits[24];
  int n = std::snprintf(digits, sizeof(digits), "%ld", line);
  out->append(digits, n > 0 ? static_cast<size_t>(n) : 0);
  out->append(", in ");
  out->append(func);
  out->push_back('\n');
}

std::string Demangle(const char* name) {
  if (name[0] == '_' && name[1] == 'Z') {
    int status = 0;
    char* demangled = abi::__cxa_demangle(name, nullptr, nullptr, &status);
    if (status == 0 && demangled != nullptr) {
      std::string result(demangled);
      std::free(demangled);
      return result;
    }
    std::free(demangled);
  }
  return std::string(name);
}

// Frames of TVMFFIBacktrace and of our headers' error helpers. Only the part
// before the parameter list counts, so a user function taking a detail::
// type is kept.
bool IsInternalFrame(const std::string& func) {
  size_t params = func.find('(');
  size_t pos = func.find("TVMFFIBacktrace");
  if (pos != std::string::npos && pos < params) return true;
  pos = func.find(kInternalNamespace);
  return pos != std::string::npos && pos < params;
}

bool IsProcessStartFrame(const std::string& func) {
  return func == "__libc_start_main" || func == "__libc_start_call_main" || func == "_start";
}

bool IsMainFrame(const std::string& func) { return func == "main" || func == "main()"; }

// ---------------------------------------------------------------------------
// Unwinding
// ---------------------------------------------------------------------------

struct UnwindState {
  uintptr_t* pcs;
  int size;
  int capacity;
};

_Unwind_Reason_Code UnwindCallback(_Unwind_Context* context, void* arg) {
  UnwindState* state = static_cast<UnwindState*>(arg);
  int ip_before_insn = 0;
  uintptr_t ip = _Unwind_GetIPInfo(context, &ip_before_insn);
  if (ip == 0) return _URC_END_OF_STACK;
  // A return address points after the call; step back into the call
  // instruction so the line table names the line of the call.
  if (!ip_before_insn) ip -= 1;
  state->pcs[state->size++] = ip;
  return state->size >= state->capacity ? _URC_END_OF_STACK : _URC_NO_REASON;
}

// ---------------------------------------------------------------------------
// Symbolization
// ---------------------------------------------------------------------------

struct FrameInfo {
  std::string func;
  std::string file;
  int line = 0;
};

struct LoaderCounters {
  unsigned long long adds = 0;
  unsigned long long subs = 0;
  bool operator==(const LoaderCounters& other) const {
    return adds == other.adds && subs == other.subs;
  }
};

int ReadLoaderCounters(dl_phdr_info* info, size_t size, void* data) {
  if (size >= offsetof(dl_phdr_info, dlpi_subs) + sizeof(info->dlpi_subs)) {
    LoaderCounters* counters = static_cast<LoaderCounters*>(data);
    counters->adds = info->dlpi_adds;
    counters->subs = info->dlpi_subs;
  }
  // Every entry carries the same counters; one is enough.
  return 1;
}

class Symbolizer {
 public:
  static Symbolizer* Global() {
    // Leaked on purpose: errors may be created while static destructors run.
    static Symbolizer* instance = new Symbolizer();
    return instance;
  }

  std::mutex& mutex() { return mutex_; }

  // Caller holds mutex(). Reconciles the session and cache with the loader.
  void Sync() {
    LoaderCounters now;
    dl_iterate_phdr(ReadLoaderCounters, &now);
    if (synced_ && now == counters_) return;
    if (now.subs != counters_.subs) cache_.clear();
    counters_ = now;
    synced_ = true;
#ifdef TVM_FFI_USE_LIBDW
    RefreshDwfl();
#endif
  }

  // Caller holds mutex(). The reference stays valid until the next Sync().
  const FrameInfo& Lookup(uintptr_t pc) {
    auto it = cache_.find(pc);
    if (it != cache_.end()) return it->second;
    if (cache_.size() >= kMaxCacheEntries) cache_.clear();
    FrameInfo info;
    Resolve(pc, &info);
    return cache_.emplace(pc, std::move(info)).first->second;
  }

 private:
  void Resolve(uintptr_t pc, FrameInfo* info) {
#ifdef TVM_FFI_USE_LIBDW
    if (dwfl_ != nullptr && ResolveWithDwfl(pc, info)) return;
#endif
    ResolveWithDladdr(pc, info);
  }

  static void ResolveWithDladdr(uintptr_t pc, FrameInfo* info) {
    Dl_info dl;
    if (dladdr(reinterpret_cast<void*>(pc), &dl) != 0) {
      info->file = dl.dli_fname != nullptr && dl.dli_fname[0] != '\0' ? dl.dli_fname : "<unknown>";
      info->func = dl.dli_sname != nullptr ? Demangle(dl.dli_sname) : "<unknown>";
    } else {
      info->file = "<unknown>";
      info->func = "<unknown>";
    }
    info->line = 0;
  }

#ifdef TVM_FFI_USE_LIBDW
  void RefreshDwfl() {
    if (dwfl_ == nullptr) {
      callbacks_.find_elf = dwfl_linux_proc_find_elf;
      callbacks_.find_debuginfo = dwfl_standard_find_debuginfo;
      callbacks_.section_address = nullptr;
      callbacks_.debuginfo_path = &debuginfo_path_;
      dwfl_ = dwfl_begin(&callbacks_);
      if (dwfl_ == nullptr) return;
    }
    // Modules still mapped are kept by libdwfl across a re-report.
    dwfl_report_begin(dwfl_);
    int rc = dwfl_linux_proc_report(dwfl_, getpid());
    if (dwfl_report_end(dwfl_, nullptr, nullptr) != 0 || rc != 0) {
      dwfl_end(dwfl_);
      dwfl_ = nullptr;
    }
  }

  bool ResolveWithDwfl(uintptr_t pc, FrameInfo* info) {
    Dwarf_Addr addr = static_cast<Dwarf_Addr>(pc);
    Dwfl_Module* module = dwfl_addrmodule(dwfl_, addr);
    if (module == nullptr) return false;
    const char* name = dwfl_module_addrname(module, addr);
    if (name != nullptr) {
      info->func = Demangle(name);
    } else {
      Dl_info dl;
      info->func = dladdr(reinterpret_cast<void*>(pc), &dl) != 0 && dl.dli_sname != nullptr
                       ? Demangle(dl.dli_sname)
                       : "<unknown>";
    }
    int line = 0;
    const char* file = nullptr;
    if (Dwfl_Line* src = dwfl_module_getsrc(module, addr)) {
      file = dwfl_lineinfo(src, nullptr, &line, nullptr, nullptr, nullptr);
    }
    if (file != nullptr) {
      info->file = file;
      info->line = line;
    } else {
      const char* module_name =
          dwfl_module_info(module, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
      info->file = module_name != nullptr && module_name[0] != '\0' ? module_name : "<unknown>";
      info->line = 0;
    }
    return true;
  }

  Dwfl_Callbacks callbacks_{};
  char* debuginfo_path_ = nullptr;
  Dwfl* dwfl_ = nullptr;
#endif

  std::mutex mutex_;
  bool synced_ = false;
  LoaderCounters counters_;
  std::unordered_map<uintptr_t, FrameInfo> cache_;
};

// Base address of the shared object containing pc, or nullptr.
void* ObjectBase(uintptr_t pc) {
  Dl_info dl;
  if (dladdr(reinterpret_cast<void*>(pc), &dl) == 0) return nullptr;
  return dl.dli_fbase;
}

void AppendNativeFrames(std::string* out, int limit, bool drop_site_function,
                        int cross_ffi_boundary, void* first_pc) {
  uintptr_t pcs[kMaxRawFrames];
  UnwindState state{pcs, 0, std::min(limit + kInternalSlack, kMaxRawFrames)};
  _Unwind_Backtrace(UnwindCallback, &state);

  int begin = 0;
  uintptr_t first = reinterpret_cast<uintptr_t>(first_pc);
  if (first != 0) {
    for (int i = 0; i < state.size; ++i) {
      if (pcs[i] == first - 1 || pcs[i] == first) {
        begin = i;
        break;
      }
    }
  }
  void* boundary_object = nullptr;
  if (cross_ffi_boundary != 0 && begin < state.size) boundary_object = ObjectBase(pcs[begin]);

  Symbolizer* symbolizer = Symbolizer::Global();
  std::lock_guard<std::mutex> lock(symbolizer->mutex());
  symbolizer->Sync();
  int written = 0;
  for (int i = begin; i < state.size && written < limit; ++i) {
    if (boundary_object != nullptr && ObjectBase(pcs[i]) != boundary_object) break;
    const FrameInfo& frame = symbolizer->Lookup(pcs[i]);
    if (IsInternalFrame(frame.func)) continue;
    if (drop_site_function) {
      drop_site_function = false;
      continue;
    }
    if (IsProcessStartFrame(frame.func)) break;
    AppendFrame(out, frame.file.c_str(), frame.line, frame.func.c_str());
    ++written;
    if (IsMainFrame(frame.func)) break;
  }
}

// Per-thread result text. tls_text_gone guards calls made by other
// thread-local destructors after this one ran.
thread_local bool tls_text_gone = false;

struct ThreadText {
  std::string text;
  TVMFFIByteArray view = {"", 0};
  ~ThreadText() { tls_text_gone = true; }
};

thread_local ThreadText tls_text;

}  // namespace

namespace detail {

const TVMFFIByteArray* CaptureBacktrace(const char* filename, int lineno, const char* func,
                                        int cross_ffi_boundary, void* first_pc) noexcept {
  if (tls_text_gone) return &kEmptyText;
  ThreadText& tt = tls_text;
  tt.text.clear();
  try {
    bool has_site = filename != nullptr && func != nullptr;
    if (has_site) AppendFrame(&tt.text, filename, lineno, func);
    int limit = ReadLimit();
    if (limit > 0) AppendNativeFrames(&tt.text, limit, has_site, cross_ffi_boundary, first_pc);
  } catch (...) {
    // Out of memory: keep the frames built so far.
  }
  tt.view.data = tt.text.c_str();
  tt.view.size = tt.text.size();
  return &tt.view;
}

}  // namespace detail
TVM_FFI_NAMESPACE_END

extern "C" TVM_FFI_DLL TVM_FFI_NOINLINE const TVMFFIByteArray* TVMFFIBacktrace(
    const char* filename, int lineno, const char* func, int cross_ffi_boundary) {
  return ::tvm::ffi::detail::CaptureBacktrace(filename, lineno, func, cross_ffi_boundary,
                                              __builtin_return_address(0));
}
