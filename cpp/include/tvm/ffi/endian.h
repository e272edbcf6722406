/*
 * Byte order of the host and of serialized data.
 *
 *   TVM_FFI_IO_USE_LITTLE_ENDIAN  byte order of serialized data (default 1: little endian)
 *   TVM_FFI_LITTLE_ENDIAN         1 when the host is little endian (detected)
 *   TVM_FFI_IO_NO_ENDIAN_SWAP     1 when the two agree, so reads and writes need no swap
 *
 *   if (!TVM_FFI_IO_NO_ENDIAN_SWAP) ByteSwap(buf, sizeof(int32_t), n);
 */
#ifndef TVM_FFI_ENDIAN_H_
#define TVM_FFI_ENDIAN_H_

#include <tvm/ffi/base.h>

#include <cstddef>
#include <cstdint>

#ifndef TVM_FFI_IO_USE_LITTLE_ENDIAN
#define TVM_FFI_IO_USE_LITTLE_ENDIAN 1
#endif

#ifndef TVM_FFI_LITTLE_ENDIAN
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__)
#define TVM_FFI_LITTLE_ENDIAN (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
#elif defined(_WIN32) || defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)
#define TVM_FFI_LITTLE_ENDIAN 1
#else
#error "tvm-ffi: cannot detect the byte order of this platform; define TVM_FFI_LITTLE_ENDIAN"
#endif
#endif

#define TVM_FFI_IO_NO_ENDIAN_SWAP (TVM_FFI_LITTLE_ENDIAN == TVM_FFI_IO_USE_LITTLE_ENDIAN)

TVM_FFI_NAMESPACE_BEGIN

/*!
 * \brief Reverse the bytes of each of num_elems elements of elem_bytes bytes, in place.
 * \param data The first element.
 * \param elem_bytes The size of one element (1 leaves the data unchanged).
 * \param num_elems The number of elements.
 */
inline void ByteSwap(void* data, size_t elem_bytes, size_t num_elems) {
  unsigned char* p = static_cast<unsigned char*>(data);
  for (size_t i = 0; i < num_elems; ++i, p += elem_bytes) {
    for (size_t lo = 0, hi = elem_bytes; lo + 1 < hi; ++lo, --hi) {
      unsigned char t = p[lo];
      p[lo] = p[hi - 1];
      p[hi - 1] = t;
    }
  }
}

TVM_FFI_NAMESPACE_END
#endif  // TVM_FFI_ENDIAN_H_
