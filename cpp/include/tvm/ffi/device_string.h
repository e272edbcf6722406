/*
 * Parsing of the device strings that casts to DLDevice accept ("cuda", "cuda:1", "mps:0"; text
 * after the first blank is ignored). Kept apart from device.h so that the DLDevice conversion in
 * type_traits.h can use it without the String machinery.
 */
#ifndef TVM_FFI_DEVICE_STRING_H_
#define TVM_FFI_DEVICE_STRING_H_

#include <dlpack/dlpack.h>
#include <tvm/ffi/base.h>

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN
namespace detail {

// Reads a non-negative decimal int32 spanning all of s.
inline bool ParseDeviceInt(std::string_view s, int32_t* out) {
  if (s.empty() || s.size() > 10) return false;
  int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  if (v > INT32_MAX) return false;
  *out = static_cast<int32_t>(v);
  return true;
}

/*!
 * \brief The device type of a name accepted in device strings: cpu, cuda,
 *  opencl, vulkan, metal (also mps), vpi, rocm, ext_dev, hexagon, webgpu (also
 *  wgpu), maia, trn.
 */
inline std::optional<DLDeviceType> TryParseDLDeviceType(std::string_view name) {
  static const std::pair<const char*, DLDeviceType> kNames[] = {
      {"cpu", kDLCPU},        {"cuda", kDLCUDA},       {"opencl", kDLOpenCL}, {"vulkan", kDLVulkan},
      {"metal", kDLMetal},    {"mps", kDLMetal},       {"vpi", kDLVPI},       {"rocm", kDLROCM},
      {"ext_dev", kDLExtDev}, {"hexagon", kDLHexagon}, {"wgpu", kDLWebGPU},   {"webgpu", kDLWebGPU},
      {"maia", kDLMAIA},      {"trn", kDLTrn},
  };
  for (const auto& entry : kNames) {
    if (name == entry.first) return entry.second;
  }
  return std::nullopt;
}

/*! \brief A device index: decimal digits only, at most 2147483647. */
inline std::optional<int32_t> TryParseDLDeviceIndex(std::string_view text) {
  int32_t id = 0;
  if (!ParseDeviceInt(text, &id)) return std::nullopt;
  return id;
}

/*!
 * \brief A device string "name" (index 0) or "name:index"; text after the
 *  first blank is ignored. std::nullopt when it is not one.
 */
inline std::optional<DLDevice> TryStringViewToDLDevice(std::string_view text) {
  size_t blank = text.find(' ');
  if (blank != std::string_view::npos) text = text.substr(0, blank);
  size_t colon = text.find(':');
  std::optional<DLDeviceType> type = TryParseDLDeviceType(text.substr(0, colon));
  if (!type.has_value()) return std::nullopt;
  int32_t id = 0;
  if (colon != std::string_view::npos) {
    std::optional<int32_t> parsed = TryParseDLDeviceIndex(text.substr(colon + 1));
    if (!parsed.has_value()) return std::nullopt;
    id = *parsed;
  }
  DLDevice device;
  device.device_type = *type;
  device.device_id = id;
  return device;
}
}  // namespace detail
TVM_FFI_NAMESPACE_END
#endif  // TVM_FFI_DEVICE_STRING_H_
