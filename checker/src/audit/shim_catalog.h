#pragma once

#include <filesystem>
#include <map>
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
  const std::set<TorchVersion>& releases() const { return releases_; }
  bool empty() const { return shims_.empty(); }

 private:
  static std::optional<ShimCatalog> from_embedded_index(const ReleaseHistory& history);
  void add_function(TorchVersion release, std::string_view name, std::string_view backend);

  std::map<std::string, ShimOrigin, std::less<>> shims_;
  std::set<TorchVersion> releases_;
};

}  // namespace abicheck
