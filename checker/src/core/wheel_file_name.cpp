#include "core/wheel_file_name.h"

#include <vector>

namespace abicheck {

std::optional<WheelFileName> parse_wheel_file_name(std::string_view file_name) {
  if (!file_name.ends_with(".whl")) return std::nullopt;
  std::string_view stem = file_name.substr(0, file_name.size() - 4);
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    std::size_t dash = stem.find('-', start);
    parts.push_back(stem.substr(start, dash == std::string_view::npos ? std::string_view::npos : dash - start));
    if (dash == std::string_view::npos) break;
    start = dash + 1;
  }
  if (parts.size() != 5 && parts.size() != 6) return std::nullopt;
  const std::size_t last = parts.size() - 1;  // an optional build tag sits between version and python
  return WheelFileName{.distribution = std::string(parts[0]),
                       .version = std::string(parts[1]),
                       .python = std::string(parts[last - 2]),
                       .abi = std::string(parts[last - 1]),
                       .platform = std::string(parts[last])};
}

}  // namespace abicheck
