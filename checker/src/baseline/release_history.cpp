#include "baseline/release_history.h"

#include <algorithm>

#include "baseline/platform_exports.h"
#include "baseline/release_baseline.h"
#include "core/project_paths.h"
#include "inventory/declaration_name.h"
#include "inventory/inventory_collector.h"

namespace abicheck {

namespace fs = std::filesystem;

ReleaseHistory ReleaseHistory::open(const fs::path& directory) {
  ReleaseHistory history;
  history.directory_ = directory;
  std::error_code error;
  if (fs::is_directory(directory, error)) {
    for (const auto& entry : fs::directory_iterator(directory, error)) {
      auto release = TorchVersion::try_parse(entry.path().filename().string());
      if (release && fs::is_regular_file(entry.path() / kInventoryFile, error)) history.releases_.push_back(*release);
    }
  }
  std::ranges::sort(history.releases_);
  return history;
}

bool ReleaseHistory::has(TorchVersion release) const { return std::ranges::binary_search(releases_, release); }

fs::path ReleaseHistory::baseline_dir(TorchVersion release) const { return directory_ / release.to_string(); }

std::vector<fs::path> ReleaseHistory::baseline_dirs() const {
  std::vector<fs::path> directories;
  for (const auto& release : releases_) directories.push_back(baseline_dir(release));
  return directories;
}

std::optional<fs::path> ReleaseHistory::find(TorchVersion release) const {
  if (!has(release)) return std::nullopt;
  return baseline_dir(release);
}

std::set<std::string> ReleaseHistory::shipped_compile_errors(TorchVersion release) const {
  std::optional<fs::path> committed = find(release);
  if (!committed) return {};
  return load_inventory(*committed / kInventoryFile).compile_error_identities();
}

std::vector<ShimInventory> ReleaseHistory::inventories_before(TorchVersion release) const {
  std::vector<ShimInventory> inventories;
  for (const auto& earlier : releases_) {
    if (earlier < release) inventories.push_back(load_inventory(baseline_dir(earlier) / kInventoryFile));
  }
  return inventories;
}

fs::path project_baselines_dir() { return project_root() / "shim_decls"; }

std::vector<ShimInventory> ReleaseHistory::inventories() const {
  std::vector<ShimInventory> inventories;
  for (const auto& release : releases_) inventories.push_back(load_inventory(baseline_dir(release) / kInventoryFile));
  return inventories;
}

std::map<TorchVersion, OperatorSchemas> ReleaseHistory::operator_schemas() const {
  std::map<TorchVersion, OperatorSchemas> schemas;
  for (const auto& release : releases_) {
    std::filesystem::path file = baseline_dir(release) / kOperatorsFile;
    if (std::filesystem::exists(file)) schemas.emplace(release, load_operator_schemas(file));
  }
  return schemas;
}

std::optional<fs::path> ReleaseHistory::exports_file(TorchVersion release, std::string_view platform) const {
  if (!has(release)) return std::nullopt;
  std::error_code error;
  for (const fs::path& file :
       {baseline_dir(release) / platform_exports_file(platform), baseline_dir(release) / kExportsFile}) {
    if (fs::is_regular_file(file, error)) return file;
  }
  return std::nullopt;
}

std::map<DeclarationKey, TorchVersion> first_shipped_releases(const std::vector<ShimInventory>& oldest_first) {
  std::map<DeclarationKey, TorchVersion> first;
  for (const auto& inventory : oldest_first) {
    for (const auto& declaration : inventory.declarations) {
      if (is_targeted(declaration)) first.try_emplace(key_of(declaration), inventory.release.minor_release());
    }
  }
  return first;
}

std::map<std::pair<std::string, DeclarationKind>, TorchVersion> first_declaring_releases_by_name(
    const std::vector<ShimInventory>& oldest_first) {
  std::map<std::pair<std::string, DeclarationKind>, TorchVersion> first;
  for (const auto& inventory : oldest_first) {
    for (const auto& declaration : inventory.declarations) {
      first.try_emplace({declaration_name(declaration.name).qualified(), declaration.kind},
                        inventory.release.minor_release());
    }
  }
  return first;
}

}  // namespace abicheck
