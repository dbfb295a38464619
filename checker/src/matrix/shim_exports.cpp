#include "matrix/shim_exports.h"

#include "baseline/library_exports.h"

namespace abicheck {

ShimExportIndex::ShimExportIndex(std::vector<StoredRelease> releases) : releases_(std::move(releases)) {}

void ShimExportIndex::load() {
  for (const auto& release : releases_) {  // oldest first, so the first insert wins
    for (const auto& [library, names] : read_shim_exports(release.lib_dir).by_library) {
      for (const auto& name : names) first_release_.emplace(name, release.version);
    }
  }
}

std::optional<TorchVersion> ShimExportIndex::first_exporting(const std::string& symbol) {
  std::call_once(loaded_, [this] { load(); });
  auto found = first_release_.find(symbol);
  if (found == first_release_.end()) return std::nullopt;
  return found->second;
}

}  // namespace abicheck
