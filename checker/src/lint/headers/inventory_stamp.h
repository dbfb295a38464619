#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "inventory/shim_inventory.h"

namespace abicheck {

// Collecting a release's inventory takes libclang ~20 parses; `lint headers` reuses the committed
// baseline instead when a stamp beside it (shim_decls/<release>/inventory.source.json:
// {"inventory": hash of inventory.json, "stable_headers": hash of the stable trees}) says it was
// collected from the very headers being linted. The hashes are 64-bit FNV-1a (matrix/content_hash.h):
// a check against mix-ups, not against tampering. The inventory's own JSON is left as it is.

inline constexpr std::string_view kInventoryStampFile = "inventory.source.json";

// The hash of every file of the four stable trees under include_dir (names and bytes).
std::string stable_headers_hash(const std::filesystem::path& include_dir);

// The inventory of baseline_dir (shim_decls/<release>/), when its stamp matches both it and the
// headers under include_dir; nothing otherwise (no stamp, another tree, a regenerated inventory).
std::optional<ShimInventory> stamped_inventory(const std::filesystem::path& baseline_dir,
                                               const std::filesystem::path& include_dir);

// Writes the stamp of baseline_dir for the headers under include_dir, when the inventory collected
// from them serialises to exactly the committed inventory.json; returns whether it did.
bool stamp_inventory(const std::filesystem::path& baseline_dir, const std::filesystem::path& include_dir,
                     const ShimInventory& collected);

}  // namespace abicheck
