#include "inventory/stable_header_tree.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "core/tool_error.h"

namespace abicheck {
namespace {

// Headers of the stable trees that only compile on another platform, with why.
constexpr std::array<std::string_view, 3> kPlatformSpecificHeaders{
    "torch/headeronly/cpu/",                  // vectorisation per instruction set: NEON does not build on x86
    "torch/headeronly/cuda/",                 // 2.14+: device code (Atomic.h), compiles only with nvcc
    "torch/headeronly/util/win32-headers.h",  // 2.14+: includes <windows.h>
};

constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kBackendHeaders{{
    {"torch/csrc/inductor/aoti_torch/generated/c_shim_cuda.h", "USE_CUDA"},
    {"torch/csrc/inductor/aoti_torch/generated/c_shim_mps.h", "USE_MPS"},
    {"torch/csrc/inductor/aoti_torch/generated/c_shim_xpu.h", "USE_XPU"},
    {"torch/csrc/inductor/aoti_torch/c/shim_mps.h", "USE_MPS"},
    {"torch/csrc/inductor/aoti_torch/c/shim_xpu.h", "USE_XPU"},
}};

}  // namespace

void require_stable_headers(const std::filesystem::path& include_dir) {
  if (!std::filesystem::is_regular_file(include_dir / kShimHeader)) {
    throw ToolError(fmt::format("{}: no stable ABI headers ({} is missing; torch {} or newer is needed)",
                                include_dir.string(), kShimHeader, kOldestStableRelease.to_string()));
  }
}

bool is_stable_header(std::string_view relative) {
  return std::ranges::any_of(kStableHeaderTrees, [&](std::string_view tree) { return relative.starts_with(tree); });
}

std::vector<std::string> list_stable_headers(const std::filesystem::path& include_dir) {
  std::vector<std::string> headers;
  for (std::string_view tree : kStableHeaderTrees) {
    std::filesystem::path root = include_dir / tree;
    if (!std::filesystem::is_directory(root)) continue;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
      if (!entry.is_regular_file() || entry.path().extension() != ".h") continue;
      std::string relative = entry.path().lexically_relative(include_dir).generic_string();
      if (std::ranges::any_of(kPlatformSpecificHeaders,
                              [&](std::string_view skip) { return relative.starts_with(skip); })) {
        continue;
      }
      headers.push_back(std::move(relative));
    }
  }
  std::ranges::sort(headers);
  return headers;
}

std::string umbrella_source(const std::vector<std::string>& headers) {
  std::string source;
  for (const auto& header : headers) source += "#include <" + header + ">\n";
  return source;
}

std::string_view backend_of_header(std::string_view relative) {
  for (const auto& [header, backend] : kBackendHeaders) {
    if (header == relative) return backend;
  }
  return {};
}

}  // namespace abicheck
