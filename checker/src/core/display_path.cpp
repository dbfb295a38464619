#include "core/display_path.h"

namespace abicheck {

std::string display_path(const std::filesystem::path& file, const std::filesystem::path& display_base) {
  if (display_base.empty() || file.is_relative()) return file.generic_string();
  auto relative = file.lexically_relative(display_base);
  if (relative.empty() || *relative.begin() == "..") return file.generic_string();
  return relative.generic_string();
}

}  // namespace abicheck
