#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "baseline/operator_schemas.h"
#include "core/torch_version.h"
#include "inventory/declaration_pairing.h"
#include "inventory/shim_inventory.h"

namespace abicheck {

// The release history: the committed baselines, one directory per release (shim_decls/<release>/
// holding at least inventory.json). The one place that lists them, reads their inventories and says
// since which release a declaration shipped; the diff, the lints, the audit, the timeline, the gate
// and the main job all ask it.
class ReleaseHistory {
 public:
  // Every <release>/ under `directory` whose name is a version and that holds an inventory.json.
  // A directory that does not exist is an empty history (a fresh tree has no baselines yet).
  static ReleaseHistory open(const std::filesystem::path& directory);

  const std::filesystem::path& directory() const { return directory_; }
  const std::vector<TorchVersion>& releases() const { return releases_; }  // oldest first
  bool empty() const { return releases_.empty(); }
  bool has(TorchVersion release) const;

  // directory()/<release>: where the baseline of `release` is or would be written.
  std::filesystem::path baseline_dir(TorchVersion release) const;
  std::vector<std::filesystem::path> baseline_dirs() const;  // oldest first
  // The committed baseline of `release`, when there is one.
  std::optional<std::filesystem::path> find(TorchVersion release) const;

  // The identities (compile_error_identity) of the compile errors the committed baseline of
  // `release` records, the errors that release shipped with (a header that refuses a target by
  // design, 2.10's ATen/Config.h); none when it has no committed baseline (read now).
  std::set<std::string> shipped_compile_errors(TorchVersion release) const;
  // Every release's inventory, oldest first (read now; ToolError naming the file when one is malformed).
  std::vector<ShimInventory> inventories() const;
  // The inventories of the releases older than `release`, oldest first (read now; ToolError naming
  // the file when one is malformed).
  std::vector<ShimInventory> inventories_before(TorchVersion release) const;
  // The operator baselines (operators.txt) of the releases that have one, by release (read now;
  // ToolError naming the file when one is malformed).
  std::map<TorchVersion, OperatorSchemas> operator_schemas() const;
  // Where the C shim functions that torch `release` exports on `platform` ("linux", "macos",
  // "windows") are listed: exports.<platform>.json where that platform's torch differs from Linux's
  // (baseline/platform_exports.h), else exports.json. nullopt when the baseline records no exports.
  std::optional<std::filesystem::path> exports_file(TorchVersion release, std::string_view platform) const;

 private:
  std::filesystem::path directory_;
  std::vector<TorchVersion> releases_;
};

// The project's committed baselines: shim_decls/ at the project's root (the default of --baselines).
std::filesystem::path project_baselines_dir();

// Since which release each declaration shipped: the oldest of `oldest_first` that declares it.
// Declarations that only a build without any target sees (kUntargetedOnly) are outside the targeted
// surface and left out.
std::map<DeclarationKey, TorchVersion> first_shipped_releases(const std::vector<ShimInventory>& oldest_first);

// The oldest release of `oldest_first` that declares each name at all (targeted or not, on any
// backend), by its qualified name as a use spells it (DeclarationName::qualified: "torch::stable::to"
// for every overload of the wrapper, "c10::DeviceType::CPU", "aoti_torch_empty_strided") and its kind:
// what a compiler's "no member named 'to' in namespace 'torch::stable'" is looked up by (E010).
std::map<std::pair<std::string, DeclarationKind>, TorchVersion> first_declaring_releases_by_name(
    const std::vector<ShimInventory>& oldest_first);

}  // namespace abicheck
