#include "store/device_runtime.h"

#include <algorithm>
#include <regex>

#include "core/file_text.h"

namespace fs = std::filesystem;

namespace abicheck {
namespace {

void add_device_libraries_in(const fs::path& directory, std::vector<DeviceLibrary>& found) {
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(directory, error)) {
    if (auto library = parse_device_library(entry.path().filename().string())) found.push_back(std::move(*library));
  }
}

// torch/version.py: `hip: Optional[str] = '6.4.43482-0f2d60242'` (None for other builds).
std::optional<DeviceToolkitVersion> hip_version(const fs::path& torch_dir) {
  std::error_code error;
  if (!fs::is_regular_file(torch_dir / "version.py", error)) return std::nullopt;
  std::string text = read_file_text(torch_dir / "version.py");
  std::smatch match;
  if (!std::regex_search(text, match, std::regex(R"re(\nhip\s*(?::[^=\n]*)?=\s*['"]([^'"]+)['"])re"))) {
    return std::nullopt;
  }
  return parse_toolkit_version(DeviceToolkit::Rocm, match.str(1).substr(0, match.str(1).find_first_of("-+")));
}

}  // namespace

std::string DeviceRuntime::describe() const { return toolkit ? toolkit->to_string() : "CPU"; }

std::vector<const DeviceLibrary*> DeviceRuntime::of_family(std::string_view family) const {
  std::vector<const DeviceLibrary*> matching;
  for (const auto& library : libraries) {
    if (library.family == family) matching.push_back(&library);
  }
  return matching;
}

DeviceRuntime read_device_runtime(const fs::path& torch_dir, const std::string& cuda_version) {
  DeviceRuntime runtime;
  if (!cuda_version.empty()) runtime.toolkit = parse_toolkit_version(DeviceToolkit::Cuda, cuda_version);
  if (!runtime.toolkit) runtime.toolkit = hip_version(torch_dir);
  add_device_libraries_in(torch_dir / "lib", runtime.libraries);
  // The NVIDIA wheels put their libraries in nvidia/<package>/lib/: cuda_runtime, cudnn, … for CUDA 12,
  // one cu13/ for the CUDA 13 toolkit. Only those folders are listed, never the headers beside them.
  std::error_code error;
  for (const auto& package : fs::directory_iterator(torch_dir.parent_path() / "nvidia", error)) {
    add_device_libraries_in(package.path() / "lib", runtime.libraries);
  }
  std::ranges::sort(runtime.libraries, {}, &DeviceLibrary::soname);
  auto [first, last] = std::ranges::unique(runtime.libraries, {}, &DeviceLibrary::soname);
  runtime.libraries.erase(first, last);
  return runtime;
}

}  // namespace abicheck
