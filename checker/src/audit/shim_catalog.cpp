#include "audit/shim_catalog.h"

#include <fmt/format.h>

#include "core/tool_error.h"

namespace abicheck {

ShimCatalog ShimCatalog::load_directory(const std::filesystem::path& directory) {
  ShimCatalog catalog;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    auto inventory_path = entry.path() / "inventory.json";
    if (entry.is_directory() && std::filesystem::is_regular_file(inventory_path)) {
      catalog.add(load_inventory(inventory_path));
    }
  }
  if (catalog.empty()) {
    throw ToolError(fmt::format("{}: no shim inventory (<release>/inventory.json) to date shim symbols with",
                                directory.string()));
  }
  return catalog;
}

void ShimCatalog::add(const ShimInventory& inventory) {
  TorchVersion release = inventory.release.minor_release();
  releases_.insert(release);
  for (const auto& declaration : inventory.declarations) {
    if (declaration.kind != DeclarationKind::Function) continue;
    auto [it, inserted] = shims_.try_emplace(declaration.name, ShimOrigin{release, declaration.backend});
    if (!inserted && release < it->second.introduced) it->second = {release, declaration.backend};
  }
}

const ShimOrigin* ShimCatalog::find(std::string_view name) const {
  auto found = shims_.find(name);
  return found == shims_.end() ? nullptr : &found->second;
}

}  // namespace abicheck
