/*
 * A look at a shared library file before dlopen maps it. The dynamic loader
 * maps each loadable segment of an ELF file with mmap; a segment that runs
 * past the end of a truncated file maps pages with no bytes behind them, and
 * the first touch of one kills the process with SIGBUS instead of failing the
 * load. So the ELF header, the program header table and every segment with
 * file contents are checked against the file's size first, and a file that
 * does not fit is refused with an error naming it. Files that are not 64-bit
 * little-endian ELF are left to dlopen, which reports them itself.
 */
#include "module_internal.h"

#include <tvm/ffi/error.h>

#include <elf.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {
namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

[[noreturn]] void Truncated(const std::string& path, const std::string& what, uint64_t end,
                            uint64_t size) {
  TVM_FFI_THROW(RuntimeError) << "Failed to load dynamic shared library " << path
                              << ": the file is truncated or corrupt (" << what << " ends at byte "
                              << end << ", but the file has " << size << " bytes)";
}

/*! \brief offset + length, or UINT64_MAX when the sum overflows. */
uint64_t End(uint64_t offset, uint64_t length) {
  return offset > UINT64_MAX - length ? UINT64_MAX : offset + length;
}

}  // namespace

void CheckSharedLibraryFile(const std::string& path) {
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (file == nullptr) return;  // dlopen reports a missing or unreadable file
  struct stat st;
  if (fstat(fileno(file.get()), &st) != 0 || !S_ISREG(st.st_mode)) return;
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  unsigned char ident[EI_NIDENT];
  if (std::fread(ident, 1, EI_NIDENT, file.get()) != EI_NIDENT) return;
  if (std::memcmp(ident, ELFMAG, SELFMAG) != 0 || ident[EI_CLASS] != ELFCLASS64 ||
      ident[EI_DATA] != ELFDATA2LSB) {
    return;
  }
  Elf64_Ehdr header;
  if (size < sizeof(header)) Truncated(path, "the ELF header", sizeof(header), size);
  if (std::fseek(file.get(), 0, SEEK_SET) != 0 ||
      std::fread(&header, sizeof(header), 1, file.get()) != 1) {
    Truncated(path, "the ELF header", sizeof(header), size);
  }
  if (header.e_phnum == 0) return;
  if (header.e_phentsize != sizeof(Elf64_Phdr)) {
    TVM_FFI_THROW(RuntimeError) << "Failed to load dynamic shared library " << path
                                << ": the file is corrupt (program header entries of "
                                << header.e_phentsize << " bytes, expected " << sizeof(Elf64_Phdr)
                                << ")";
  }
  const uint64_t table_end =
      End(header.e_phoff, static_cast<uint64_t>(header.e_phnum) * sizeof(Elf64_Phdr));
  if (table_end > size) Truncated(path, "the program header table", table_end, size);
  std::vector<Elf64_Phdr> segments(header.e_phnum);
  if (std::fseek(file.get(), static_cast<long>(header.e_phoff), SEEK_SET) != 0 ||
      std::fread(segments.data(), sizeof(Elf64_Phdr), segments.size(), file.get()) !=
          segments.size()) {
    Truncated(path, "the program header table", table_end, size);
  }
  for (size_t i = 0; i < segments.size(); ++i) {
    const Elf64_Phdr& seg = segments[i];
    if (seg.p_filesz == 0) continue;
    if (seg.p_type != PT_LOAD && seg.p_type != PT_DYNAMIC && seg.p_type != PT_INTERP) continue;
    const uint64_t end = End(seg.p_offset, seg.p_filesz);
    if (end > size) Truncated(path, "segment " + std::to_string(i), end, size);
  }
}

}  // namespace detail
TVM_FFI_NAMESPACE_END
