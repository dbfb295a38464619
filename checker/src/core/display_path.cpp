#include "core/display_path.h"

#include <fmt/format.h>

namespace abicheck {

std::string display_path(const std::filesystem::path& file, const std::filesystem::path& display_base) {
  if (display_base.empty() || file.is_relative()) return file.generic_string();
  auto relative = file.lexically_relative(display_base);
  if (relative.empty() || *relative.begin() == "..") return file.generic_string();
  return relative.generic_string();
}

std::string printable_name(std::string_view name) {
  std::string shown;
  for (std::size_t i = 0; i < name.size();) {
    auto byte = static_cast<unsigned char>(name[i]);
    std::size_t length = byte < 0x80           ? 1
                         : (byte >> 5) == 0x6  ? 2
                         : (byte >> 4) == 0xE  ? 3
                         : (byte >> 3) == 0x1E ? 4
                                               : 0;
    bool valid = length != 0 && i + length <= name.size();
    for (std::size_t k = 1; valid && k < length; ++k) valid = (static_cast<unsigned char>(name[i + k]) >> 6) == 0x2;
    if (!valid || byte < 0x20 || byte == 0x7F) {
      shown += fmt::format("\\x{:02X}", byte);
      ++i;
      continue;
    }
    shown.append(name, i, length);
    i += length;
  }
  return shown;
}

}  // namespace abicheck
