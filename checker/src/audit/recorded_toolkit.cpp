#include "audit/recorded_toolkit.h"

#include <fmt/format.h>

#include <charconv>
#include <regex>

namespace abicheck {
namespace {

std::string quoted_line(const std::string& line) {
  constexpr std::size_t kMaxShown = 80;
  if (line.size() <= kMaxShown) return line;
  // Formatted: GCC 12 at -O2 warns (-Warray-bounds, wrongly) on substr(...) + "…" and on += "…".
  return fmt::format("{}…", std::string_view(line).substr(0, kMaxShown));
}

// A CUDA version written as a number: CUDART_VERSION (12080 = 12.8) or torch's short form (1208).
std::optional<DeviceToolkitVersion> numeric_cuda_version(const std::string& digits) {
  int value = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || value <= 0) return std::nullopt;
  if (value >= 10000) return DeviceToolkitVersion{DeviceToolkit::Cuda, value / 1000, (value % 1000) / 10};
  return DeviceToolkitVersion{DeviceToolkit::Cuda, value / 100, value % 100};
}

}  // namespace

bool may_record_toolkit(std::string_view entry_name) {
  auto slash = entry_name.find('/');
  if (slash == std::string_view::npos || entry_name.find('/', slash + 1) != std::string_view::npos) return false;
  std::string_view file = entry_name.substr(slash + 1);
  return file == "version.py" || file == "cpp_lib.json";
}

std::optional<RecordedToolkit> toolkit_recorded_in(std::string_view path, std::string_view text) {
  const std::string content(text);
  std::smatch match;
  if (path.ends_with(".json")) {
    static const std::regex kCudaNumber(R"re("cuda"\s*:\s*"?([0-9]+)"?)re");
    static const std::regex kHip(R"re("hip"\s*:\s*"([0-9][^"]*)")re");
    if (std::regex_search(content, match, kCudaNumber)) {
      if (auto version = numeric_cuda_version(match.str(1))) {
        return RecordedToolkit{*version, fmt::format("{}: {}", path, match.str(0))};
      }
    }
    if (std::regex_search(content, match, kHip)) {
      if (auto version = parse_toolkit_version(DeviceToolkit::Rocm, match.str(1))) {
        return RecordedToolkit{*version, fmt::format("{}: {}", path, match.str(0))};
      }
    }
    return std::nullopt;
  }
  // version.py: a literal assignment at the start of a line (torchvision assigns `cuda` from a
  // function call, which is no record).
  static const std::regex kCuda(R"re((?:^|\n)(cuda\s*(?::[^=\n]*)?=\s*['"]([0-9][0-9.]*)['"]))re");
  static const std::regex kHip(R"re((?:^|\n)(hip\s*(?::[^=\n]*)?=\s*['"]([0-9][^'"+-]*)[^'"]*['"]))re");
  static const std::regex kVersion(R"re((?:^|\n)(__version__\s*=\s*['"]([^'"]+)['"]))re");
  if (std::regex_search(content, match, kCuda)) {
    if (auto version = parse_toolkit_version(DeviceToolkit::Cuda, match.str(2))) {
      return RecordedToolkit{*version, fmt::format("{}: {}", path, quoted_line(match.str(1)))};
    }
  }
  if (std::regex_search(content, match, kHip)) {
    if (auto version = parse_toolkit_version(DeviceToolkit::Rocm, match.str(2))) {
      return RecordedToolkit{*version, fmt::format("{}: {}", path, quoted_line(match.str(1)))};
    }
  }
  if (std::regex_search(content, match, kVersion)) {
    if (auto version = toolkit_of_local_version(match.str(2))) {
      return RecordedToolkit{*version, fmt::format("{}: {}", path, quoted_line(match.str(1)))};
    }
  }
  return std::nullopt;
}

std::optional<RecordedToolkit> toolkit_required_by(std::string_view requirement) {
  static const std::regex kNvidiaRuntime(R"(\s*(nvidia-cuda-(?:runtime|nvrtc)-cu([0-9]+))\b.*)");
  std::cmatch match;
  if (!std::regex_match(requirement.data(), requirement.data() + requirement.size(), match, kNvidiaRuntime)) {
    return std::nullopt;
  }
  return RecordedToolkit{DeviceToolkitVersion{DeviceToolkit::Cuda, std::stoi(match.str(2)), std::nullopt},
                         fmt::format("Requires-Dist: {}", match.str(1))};
}

bool refuses_other_cuda_minor(std::string_view source) {
  bool reads_torch_cuda = source.find("torch.version.cuda") != std::string_view::npos ||
                          source.find("from torch.version import cuda") != std::string_view::npos;
  if (!reads_torch_cuda) return false;
  for (std::size_t at = source.find("compiled with different CUDA"); at != std::string_view::npos;
       at = source.find("compiled with different CUDA", at + 1)) {
    if (source.substr(at, 40).find("major") != std::string_view::npos) continue;  // "...CUDA major versions"
    // The nearest `if` above the message is the comparison that raises it.
    std::size_t line_start = source.rfind('\n', at);
    while (line_start != std::string_view::npos && line_start > 0) {
      std::size_t previous = source.rfind('\n', line_start - 1);
      std::size_t begin = previous == std::string_view::npos ? 0 : previous + 1;
      std::string_view line = source.substr(begin, line_start - begin);
      std::size_t indent = line.find_first_not_of(" \t");
      if (indent != std::string_view::npos && line.substr(indent).starts_with("if ")) {
        if (line.find("major") == std::string_view::npos) return true;
        break;
      }
      if (previous == std::string_view::npos) break;
      line_start = previous;
    }
  }
  return false;
}

}  // namespace abicheck
