#include "audit/shim_catalog.h"

#include <fmt/format.h>

#include "audit/embedded_shim_index.h"
#include "core/tool_error.h"

namespace abicheck {

namespace fs = std::filesystem;

ShimCatalog ShimCatalog::load_directory(const fs::path& directory) {
  ReleaseHistory history = ReleaseHistory::open(directory);
  if (auto embedded = from_embedded_index(history)) return std::move(*embedded);
  ShimCatalog catalog;
  for (const auto& inventory : history.inventories()) catalog.add(inventory);
  if (catalog.empty()) {
    throw ToolError(
        fmt::format("{}: no shim inventory (<release>/inventory.json) to date shim symbols with", directory.string()));
  }
  return catalog;
}

std::optional<ShimCatalog> ShimCatalog::from_embedded_index(const ReleaseHistory& history) {
  if (!embedded_shim_index_describes(history)) return std::nullopt;
  std::vector<TorchVersion> releases;
  for (std::size_t i = 0; i < kEmbeddedInventoryCount; ++i) {
    releases.push_back(TorchVersion::parse(kEmbeddedInventories[i].release).minor_release());
  }
  ShimCatalog catalog;
  catalog.releases_.insert(releases.begin(), releases.end());
  for (std::size_t i = 0; i < kEmbeddedShimCount; ++i) {
    const auto& shim = kEmbeddedShims[i];
    catalog.add_function(releases[shim.inventory], shim.name, shim.backend);
  }
  return catalog;
}

void ShimCatalog::add(const ShimInventory& inventory) {
  TorchVersion release = inventory.release.minor_release();
  releases_.insert(release);
  for (const auto& declaration : inventory.declarations) {
    if (declaration.kind == DeclarationKind::Function) add_function(release, declaration.name, declaration.backend);
  }
}

void ShimCatalog::add_function(TorchVersion release, std::string_view name, std::string_view backend) {
  auto [it, inserted] = shims_.try_emplace(std::string(name), ShimOrigin{release, std::string(backend)});
  if (!inserted && release < it->second.introduced) it->second = {release, std::string(backend)};
}

const ShimOrigin* ShimCatalog::find(std::string_view name) const {
  auto found = shims_.find(name);
  return found == shims_.end() ? nullptr : &found->second;
}

}  // namespace abicheck
