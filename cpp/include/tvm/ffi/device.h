/*
 * DLDevice helpers: device names ("cpu:0", "cuda:1"), comparison, hashing and
 * printing. The Any conversion of DLDevice lives in type_traits.h, the parsing of
 * device strings in device_string.h.
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
 */
#ifndef TVM_FFI_DEVICE_H_
#define TVM_FFI_DEVICE_H_

#include <tvm/ffi/base.h>
#include <tvm/ffi/device_string.h>
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
