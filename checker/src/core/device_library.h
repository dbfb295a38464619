#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace abicheck {

// The GPU toolkit a device library belongs to.
enum class DeviceToolkit { Cuda, Rocm };

std::string_view to_string(DeviceToolkit toolkit);  // "CUDA", "ROCm"

// A device runtime library named by its soname: what a binary NEEDs, and what a torch release ships
// or depends on. The store and the audit both read sonames this one way, so "libcudart.so.12" can
// only ever mean one thing to both sides of a comparison.
struct DeviceLibrary {
  std::string soname;  // as written: "libcudart.so.12", "libcudart.e8e8b82a.so.12" (auditwheel's copy)
  std::string family;  // the library without version and hash: "cudart", "cublasLt", "amdhip64"
  DeviceToolkit toolkit = DeviceToolkit::Cuda;
  std::optional<int> major;  // the soname's first version number; none for an unversioned soname
  // Its soname major is the toolkit's own major (libcudart.so.12 is CUDA 12, libamdhip64.so.6 is
  // ROCm 6); cuDNN 9 or NCCL 2 version on their own and say nothing about the toolkit.
  bool tracks_toolkit_major = false;
  // Renamed with a hash by auditwheel: the wheel carries its own copy, so no torch has to provide it.
  bool bundled_copy = false;

  auto operator<=>(const DeviceLibrary&) const = default;
};

// The device library a soname or library file name stands for, or nothing for any other library
// (libc, libtorch, libc10_cuda, a vendored codec). The libcuda driver is not a runtime a wheel
// ships: it comes with the machine's driver, so it is left out too.
std::optional<DeviceLibrary> parse_device_library(std::string_view soname);

// A toolkit version: "12.8" from version.py, "+cu128" in a local version, 1208 as CUDART_VERSION.
struct DeviceToolkitVersion {
  DeviceToolkit toolkit = DeviceToolkit::Cuda;
  int major = 0;
  std::optional<int> minor;

  std::string to_string() const;  // "CUDA 12.8", "ROCm 6"
  auto operator<=>(const DeviceToolkitVersion&) const = default;
};

// "12.8" or "13" as version.py writes it; nothing when the text is not a version.
std::optional<DeviceToolkitVersion> parse_toolkit_version(DeviceToolkit toolkit, std::string_view text);

// The toolkit of a local version label: "+cu128" is CUDA 12.8, "+cu130" 13.0, "+rocm6.4" ROCm 6.4
// (the label of a torch-family version such as "0.29.2+cu132"). Nothing for "+cpu" or no label.
std::optional<DeviceToolkitVersion> toolkit_of_local_version(std::string_view version);

}  // namespace abicheck
