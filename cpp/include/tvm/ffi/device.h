/*
 * DLDevice helpers: device names ("cpu:0", "cuda:1"), comparison, hashing and
 * printing. The Any conversion of DLDevice lives in type_traits.h.
 *
 *   DLDevice dev = StringToDevice("cuda:1");   // {kDLCUDA, 1}
 *   std::string s = DeviceToString(dev);       // "cuda:1"
 *   std::unordered_map<DLDevice, void*> streams;
 *
 * A device type without a name (a value DLPack does not define) is written as
 * its decimal code ("5:0"), which StringToDevice reads back.
 *
 * The operators ==, != and << on DLDevice are declared in tvm::ffi (they
 * are extras of this project, kept out of the global namespace so they cannot
 * clash with a user's own); outside it, use `using tvm::ffi::operator==;`.
 *
 * detail::TryStringViewToDLDevice reads the device strings that casts
 * accept ("cuda", "cuda:1", "mps:0"; text after a blank is ignored).
 */
#ifndef TVM_FFI_DEVICE_H_
#define TVM_FFI_DEVICE_H_

#include <tvm/ffi/base.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/string.h>
#include <tvm/ffi/type_traits.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

TVM_FFI_NAMESPACE_BEGIN

namespace detail {
/*! \brief Name of each DLDeviceType value (index = value); nullptr where DLPack defines none. */
inline const char* const* DeviceTypeNameTable() {
  static const char* const kNames[] = {
      nullptr,         // 0
      "cpu",           // kDLCPU = 1
      "cuda",          // kDLCUDA = 2
      "cuda_host",     // kDLCUDAHost = 3
      "opencl",        // kDLOpenCL = 4
      nullptr,         // 5
      nullptr,         // 6
      "vulkan",        // kDLVulkan = 7
      "metal",         // kDLMetal = 8
      "vpi",           // kDLVPI = 9
      "rocm",          // kDLROCM = 10
      "rocm_host",     // kDLROCMHost = 11
      "ext_dev",       // kDLExtDev = 12
      "cuda_managed",  // kDLCUDAManaged = 13
      "oneapi",        // kDLOneAPI = 14
      "webgpu",        // kDLWebGPU = 15
      "hexagon",       // kDLHexagon = 16
      "maia",          // kDLMAIA = 17
      "trn",           // kDLTrn = 18
  };
  return kNames;
}
constexpr int32_t kNumDeviceTypeNames = 19;

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
}  // namespace detail

namespace detail {
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

/*! \return The name of a device type ("cuda"), or nullptr when it has none. */
inline const char* DeviceTypeToName(int32_t device_type) {
  if (device_type < 0 || device_type >= detail::kNumDeviceTypeNames) return nullptr;
  return detail::DeviceTypeNameTable()[device_type];
}

/*! \return The device type called name ("cuda" -> kDLCUDA), or std::nullopt. */
inline std::optional<DLDeviceType> DeviceTypeFromName(std::string_view name) {
  const char* const* names = detail::DeviceTypeNameTable();
  for (int32_t i = 0; i < detail::kNumDeviceTypeNames; ++i) {
    if (names[i] != nullptr && name == names[i]) return static_cast<DLDeviceType>(i);
  }
  return std::nullopt;
}

/*! \return "type:id", e.g. "cpu:0", "cuda:1"; unnamed types use their code ("5:0"). */
inline std::string DeviceToString(DLDevice device) {
  const char* name = DeviceTypeToName(device.device_type);
  std::string s = name != nullptr ? std::string(name)
                                  : std::to_string(static_cast<int32_t>(device.device_type));
  s += ':';
  s += std::to_string(device.device_id);
  return s;
}

/*!
 * \brief Parse "type" or "type:id" (id defaults to 0); type is a name of
 *  DeviceTypeToName or a decimal device type code.
 * \throws Error ValueError quoting the text when it is not a device.
 */
inline DLDevice StringToDevice(std::string_view str) {
  size_t colon = str.find(':');
  std::string_view type_part = str.substr(0, colon);
  int32_t device_id = 0;
  if (colon != std::string_view::npos &&
      !detail::ParseDeviceInt(str.substr(colon + 1), &device_id)) {
    TVM_FFI_THROW(ValueError) << "Cannot parse device string \"" << str
                              << "\": the device id must be a non-negative integer";
  }
  DLDevice device;
  device.device_id = device_id;
  if (std::optional<DLDeviceType> type = DeviceTypeFromName(type_part)) {
    device.device_type = *type;
    return device;
  }
  int32_t code = 0;
  if (detail::ParseDeviceInt(type_part, &code)) {
    device.device_type = static_cast<DLDeviceType>(code);
    return device;
  }
  TVM_FFI_THROW(ValueError) << "Cannot parse device string \"" << str
                            << "\": unknown device type \"" << type_part << "\"";
}

/*! \brief Equal when both the type and the id are. */
inline bool operator==(const DLDevice& a, const DLDevice& b) {
  return a.device_type == b.device_type && a.device_id == b.device_id;
}
inline bool operator!=(const DLDevice& a, const DLDevice& b) { return !(a == b); }

/*! \brief Print "cuda:1". */
inline std::ostream& operator<<(std::ostream& os, const DLDevice& device) {
  return os << DeviceToString(device);
}

TVM_FFI_NAMESPACE_END

namespace std {
/*! \brief Hash of a device, for unordered containers keyed by device. */
template <>
struct hash<DLDevice> {
  size_t operator()(const DLDevice& d) const {
    uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(d.device_type)) << 32) |
                   static_cast<uint32_t>(d.device_id);
    return std::hash<uint64_t>()(key);
  }
};
/*!
 * \brief Equality for unordered containers: the operator== of tvm::ffi is not
 *  found by std::equal_to through lookup on the global C struct.
 */
template <>
struct equal_to<DLDevice> {
  bool operator()(const DLDevice& a, const DLDevice& b) const {
    return a.device_type == b.device_type && a.device_id == b.device_id;
  }
};
}  // namespace std

#endif  // TVM_FFI_DEVICE_H_
