#include "audit/embedded_shim_index.h"

#include "baseline/release_baseline.h"

namespace abicheck {

namespace fs = std::filesystem;

bool embedded_shim_index_describes(const ReleaseHistory& history) {
  std::error_code error;
  if (kEmbeddedInventoryCount == 0 ||
      fs::weakly_canonical(history.directory(), error) != fs::path(kEmbeddedShimDirectory) ||
      history.releases().size() != kEmbeddedInventoryCount) {
    return false;
  }
  for (std::size_t i = 0; i < kEmbeddedInventoryCount; ++i) {
    const auto& inventory = kEmbeddedInventories[i];
    auto size = fs::file_size(history.directory() / inventory.directory / kInventoryFile, error);
    if (error || size != inventory.size) return false;
  }
  return true;
}

}  // namespace abicheck
