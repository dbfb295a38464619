#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/device_library.h"

namespace abicheck {

// The device runtime a torch release brings: the toolkit it was built with (torch/version.py's
// `cuda` or `hip`) and the device libraries that come with it, each once by soname. An extension
// that needs another major of one of them does not load into this release (the loader finds no
// such soname), whatever torch symbols it imports.
struct DeviceRuntime {
  std::optional<DeviceToolkitVersion> toolkit;  // none: a CPU build
  std::vector<DeviceLibrary> libraries;         // sorted by soname

  // "CUDA 13.0", "ROCm 6.4", "CPU".
  std::string describe() const;
  // The libraries of one family ("cudart"), usually one.
  std::vector<const DeviceLibrary*> of_family(std::string_view family) const;
};

// Reads the device runtime of an installed torch package. `cuda_version` is the release's own record
// of version.py's `cuda` (its manifest); the HIP version is read from version.py. The libraries are
// the device sonames in torch/lib (what the wheel bundles, as ROCm wheels do) and in the NVIDIA
// wheels beside it in site-packages (what its requirements install: nvidia/<package>/lib/).
DeviceRuntime read_device_runtime(const std::filesystem::path& torch_dir, const std::string& cuda_version);

}  // namespace abicheck
