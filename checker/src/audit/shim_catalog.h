#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "baseline/release_history.h"
#include "core/torch_version.h"
#include "inventory/shim_inventory.h"

namespace abicheck {

// Which torch release introduced a shim function, and on which backend only (if any).
struct ShimOrigin {
  TorchVersion introduced;
  std::string backend;  // "" or "USE_CUDA"
};

// Every shim function of every committed baseline: the audit's source of truth for "is this
// import part of the stable ABI, and since when". A shim's release is the oldest baseline that
// declares it.
class ShimCatalog {
 public:
  // Reads <dir>/<release>/inventory.json for every release directory. Throws ToolError when the
  // directory holds no inventory (the audit cannot date a shim without one). The directory the
  // tool was built from is taken from the compiled-in index (embedded_shim_index.h) while its
  // release directories and inventory sizes are still those the build saw.
  static ShimCatalog load_directory(const std::filesystem::path& directory);

  void add(const ShimInventory& inventory);
  const ShimOrigin* find(std::string_view name) const;
  // The releases from `from` on whose torch for `platform` ("linux", "macos", "windows") does not
  // export `name`, among the releases whose baselines list their exports (ReleaseHistory::exports_file):
  // such a release cannot load an object that imports it.
  std::vector<TorchVersion> releases_not_exporting(std::string_view platform, std::string_view name,
                                                   TorchVersion from) const;
  const std::set<TorchVersion>& releases() const { return releases_; }
  bool empty() const { return shims_.empty(); }

 private:
  static std::optional<ShimCatalog> from_embedded_index(const ReleaseHistory& history);
  void add_function(TorchVersion release, std::string_view name, std::string_view backend);
  void load_exports(const ReleaseHistory& history);

  using NameSet = std::set<std::string, std::less<>>;
  std::map<std::string, ShimOrigin, std::less<>> shims_;
  std::set<TorchVersion> releases_;
  // platform -> release -> exported shim names (platforms share a list where their torch exports the same)
  std::map<std::string, std::map<TorchVersion, std::shared_ptr<const NameSet>>, std::less<>> exports_;
};

}  // namespace abicheck
