#include "audit/shim_catalog.h"

#include <fmt/format.h>

#include "audit/embedded_shim_index.h"
#include "baseline/platform_exports.h"
#include "baseline/release_baseline.h"
#include "core/tool_error.h"

namespace abicheck {

namespace fs = std::filesystem;

ShimCatalog ShimCatalog::load_directory(const fs::path& directory) {
  ReleaseHistory history = ReleaseHistory::open(directory);
  std::optional<ShimCatalog> catalog = from_embedded_index(history);
  if (!catalog) {
    catalog.emplace();
    for (const auto& inventory : history.inventories()) catalog->add(inventory);
  }
  if (catalog->empty()) {
    throw ToolError(
        fmt::format("{}: no shim inventory (<release>/inventory.json) to date shim symbols with", directory.string()));
  }
  catalog->load_exports(history);
  return std::move(*catalog);
}

// About 50 kB of JSON per release (Linux's list, and macOS's own): read whole, each file once.
void ShimCatalog::load_exports(const ReleaseHistory& history) {
  std::map<fs::path, std::shared_ptr<const NameSet>> read;
  for (const TorchVersion& release : history.releases()) {
    for (std::string_view platform : kPlatforms) {
      std::optional<fs::path> file = history.exports_file(release, platform);
      if (!file) continue;
      auto& names = read[*file];
      if (!names) {
        auto listed = std::make_shared<NameSet>();
        for (const auto& [library, exported] : load_exports_file(*file).by_library) {
          listed->insert(exported.begin(), exported.end());
        }
        names = std::move(listed);
      }
      if (names->empty()) continue;  // a baseline of a bare header tree lists no library
      exports_[std::string(platform)][release.minor_release()] = names;
    }
  }
}

std::vector<TorchVersion> ShimCatalog::releases_not_exporting(std::string_view platform, std::string_view name,
                                                              TorchVersion from) const {
  std::vector<TorchVersion> missing;
  auto lists = exports_.find(platform);
  if (lists == exports_.end()) return missing;
  for (const auto& [release, names] : lists->second) {
    if (release >= from && !names->contains(name)) missing.push_back(release);
  }
  return missing;
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
