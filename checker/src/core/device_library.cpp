#include "core/device_library.h"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <regex>

namespace abicheck {
namespace {

struct DeviceFamily {
  std::string_view name;
  DeviceToolkit toolkit;
  bool tracks_toolkit_major;
};

// The runtime libraries of CUDA and ROCm that extensions link and torch wheels ship or depend on.
// Which ones track the toolkit's major: read off the sonames of CUDA 12 and 13 (libcudart.so.12/13,
// libcublas.so.12/13, libnvrtc.so.12/13) and ROCm 6 (libamdhip64.so.6); cuFFT, cuSPARSE and cuSOLVER
// renumber on their own, and cuDNN, NCCL and cuSPARSELt are separate products.
constexpr std::array kDeviceFamilies = {
    DeviceFamily{"cudart", DeviceToolkit::Cuda, true},        DeviceFamily{"cublas", DeviceToolkit::Cuda, true},
    DeviceFamily{"cublasLt", DeviceToolkit::Cuda, true},      DeviceFamily{"nvrtc", DeviceToolkit::Cuda, true},
    DeviceFamily{"nvJitLink", DeviceToolkit::Cuda, true},     DeviceFamily{"nvjpeg", DeviceToolkit::Cuda, true},
    DeviceFamily{"cudnn", DeviceToolkit::Cuda, false},        DeviceFamily{"cufft", DeviceToolkit::Cuda, false},
    DeviceFamily{"cufftw", DeviceToolkit::Cuda, false},       DeviceFamily{"curand", DeviceToolkit::Cuda, false},
    DeviceFamily{"cusparse", DeviceToolkit::Cuda, false},     DeviceFamily{"cusparseLt", DeviceToolkit::Cuda, false},
    DeviceFamily{"cusolver", DeviceToolkit::Cuda, false},     DeviceFamily{"cusolverMg", DeviceToolkit::Cuda, false},
    DeviceFamily{"nccl", DeviceToolkit::Cuda, false},         DeviceFamily{"cupti", DeviceToolkit::Cuda, false},
    DeviceFamily{"nvToolsExt", DeviceToolkit::Cuda, false},   DeviceFamily{"cufile", DeviceToolkit::Cuda, false},
    DeviceFamily{"nvshmem_host", DeviceToolkit::Cuda, false}, DeviceFamily{"amdhip64", DeviceToolkit::Rocm, true},
    DeviceFamily{"rocblas", DeviceToolkit::Rocm, false},      DeviceFamily{"hipblas", DeviceToolkit::Rocm, false},
    DeviceFamily{"hipblaslt", DeviceToolkit::Rocm, false},    DeviceFamily{"MIOpen", DeviceToolkit::Rocm, false},
    DeviceFamily{"rccl", DeviceToolkit::Rocm, false},         DeviceFamily{"roctx64", DeviceToolkit::Rocm, false},
    DeviceFamily{"hipsparse", DeviceToolkit::Rocm, false},    DeviceFamily{"hipfft", DeviceToolkit::Rocm, false},
    DeviceFamily{"rocfft", DeviceToolkit::Rocm, false},       DeviceFamily{"hiprand", DeviceToolkit::Rocm, false},
    DeviceFamily{"rocrand", DeviceToolkit::Rocm, false},      DeviceFamily{"hipsolver", DeviceToolkit::Rocm, false},
    DeviceFamily{"rocsolver", DeviceToolkit::Rocm, false},    DeviceFamily{"hsa-runtime64", DeviceToolkit::Rocm, false},
};

const DeviceFamily* find_family(std::string_view name) {
  for (const auto& family : kDeviceFamilies) {
    if (family.name == name) return &family;
  }
  // cuDNN 9 is split into libcudnn_graph, libcudnn_ops, … that version together with libcudnn.
  if (name.starts_with("cudnn_")) return find_family("cudnn");
  return nullptr;
}

std::optional<int> leading_number(std::string_view text) {
  int value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data()) return std::nullopt;
  return value;
}

}  // namespace

std::string_view to_string(DeviceToolkit toolkit) { return toolkit == DeviceToolkit::Cuda ? "CUDA" : "ROCm"; }

std::optional<DeviceLibrary> parse_device_library(std::string_view soname) {
  // lib<family>[.<8 hex digits>].so[.<major>[.<more>]]
  static const std::regex kSoname(R"(lib([A-Za-z0-9_+-]+)(\.[0-9a-f]{8})?\.so(?:\.([0-9]+)(?:\.[0-9.]*)?)?)");
  std::cmatch match;
  if (!std::regex_match(soname.data(), soname.data() + soname.size(), match, kSoname)) return std::nullopt;
  const DeviceFamily* family = find_family(match.str(1));
  if (family == nullptr) return std::nullopt;
  DeviceLibrary library{.soname = std::string(soname),
                        .family = std::string(family->name),
                        .toolkit = family->toolkit,
                        .tracks_toolkit_major = family->tracks_toolkit_major,
                        .bundled_copy = match[2].matched};
  if (match[3].matched) library.major = leading_number(match.str(3));
  return library;
}

std::string DeviceToolkitVersion::to_string() const {
  return minor ? fmt::format("{} {}.{}", abicheck::to_string(toolkit), major, *minor)
               : fmt::format("{} {}", abicheck::to_string(toolkit), major);
}

std::optional<DeviceToolkitVersion> parse_toolkit_version(DeviceToolkit toolkit, std::string_view text) {
  static const std::regex kVersion(R"(\s*([0-9]+)(?:\.([0-9]+))?[0-9.]*\s*)");
  std::cmatch match;
  if (!std::regex_match(text.data(), text.data() + text.size(), match, kVersion)) return std::nullopt;
  DeviceToolkitVersion version{.toolkit = toolkit, .major = *leading_number(match.str(1))};
  if (match[2].matched) version.minor = leading_number(match.str(2));
  return version;
}

std::optional<DeviceToolkitVersion> toolkit_of_local_version(std::string_view version) {
  // cuNNN: the last digit is the minor (cu128 = 12.8, cu130 = 13.0); rocmX.Y as written.
  static const std::regex kLabel(R"(\+(?:cu([0-9]{2,3})|rocm([0-9]+(?:\.[0-9]+)*))(?:[^0-9.].*)?$)");
  std::cmatch match;
  if (!std::regex_search(version.data(), version.data() + version.size(), match, kLabel)) return std::nullopt;
  if (match[1].matched) {
    int digits = *leading_number(match.str(1));
    return DeviceToolkitVersion{.toolkit = DeviceToolkit::Cuda, .major = digits / 10, .minor = digits % 10};
  }
  return parse_toolkit_version(DeviceToolkit::Rocm, match.str(2));
}

}  // namespace abicheck
