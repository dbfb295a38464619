#include "audit/embedded_shim_index.h"

namespace abicheck {

namespace fs = std::filesystem;

bool embedded_shim_index_describes(const fs::path& directory) {
  std::error_code error;
  if (kEmbeddedInventoryCount == 0 || fs::weakly_canonical(directory, error) != fs::path(kEmbeddedShimDirectory)) {
    return false;
  }
  std::size_t inventories = 0;
  for (const auto& entry : fs::directory_iterator(directory, error)) {
    if (fs::is_regular_file(entry.path() / "inventory.json", error)) ++inventories;
  }
  if (error || inventories != kEmbeddedInventoryCount) return false;
  for (std::size_t i = 0; i < kEmbeddedInventoryCount; ++i) {
    const auto& inventory = kEmbeddedInventories[i];
    auto size = fs::file_size(directory / inventory.directory / "inventory.json", error);
    if (error || size != inventory.size) return false;
  }
  return true;
}

}  // namespace abicheck
