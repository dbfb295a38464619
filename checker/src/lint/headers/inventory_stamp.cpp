#include "lint/headers/inventory_stamp.h"

#include <nlohmann/json.hpp>

#include "core/atomic_file.h"
#include "core/content_hash.h"
#include "core/file_text.h"
#include "inventory/stable_header_tree.h"

namespace abicheck {

namespace fs = std::filesystem;

std::string stable_headers_hash(const fs::path& include_dir) {
  ContentHash hash;
  for (std::string_view tree : kStableHeaderTrees) hash.add(tree).add_tree(include_dir / tree);
  return hash.hex();
}

std::optional<ShimInventory> stamped_inventory(const fs::path& baseline_dir, const fs::path& include_dir) {
  fs::path inventory_file = baseline_dir / "inventory.json";
  fs::path stamp_file = baseline_dir / kInventoryStampFile;
  if (!fs::is_regular_file(inventory_file) || !fs::is_regular_file(stamp_file)) return std::nullopt;
  auto stamp = nlohmann::json::parse(read_file_text(stamp_file), nullptr, false);
  if (!stamp.is_object() || !stamp.contains("inventory") || !stamp.contains("stable_headers")) return std::nullopt;
  if (stamp["inventory"] != ContentHash().add(read_file_text(inventory_file)).hex() ||
      stamp["stable_headers"] != stable_headers_hash(include_dir)) {
    return std::nullopt;
  }
  return load_inventory(inventory_file);
}

bool stamp_inventory(const fs::path& baseline_dir, const fs::path& include_dir, const ShimInventory& collected) {
  fs::path inventory_file = baseline_dir / "inventory.json";
  if (!fs::is_regular_file(inventory_file)) return false;
  std::string committed = read_file_text(inventory_file);
  if (committed != inventory_to_json(collected)) return false;
  nlohmann::ordered_json stamp = {{"inventory", ContentHash().add(committed).hex()},
                                  {"stable_headers", stable_headers_hash(include_dir)}};
  write_file_atomically(baseline_dir / kInventoryStampFile, stamp.dump(1) + "\n");
  return true;
}

}  // namespace abicheck
