#pragma once

// The shim functions of every shim_decls/<release>/inventory.json as the build saw them, compiled
// into the tool by generate_shim_index.py so that an audit starts without parsing the inventories.

#include <cstddef>
#include <cstdint>
#include <filesystem>

#include "baseline/release_history.h"

namespace abicheck {

struct EmbeddedInventory {
  const char* directory;  // "2.12": the release directory under shim_decls/
  const char* release;    // the inventory's "release"
  std::uintmax_t size;    // bytes of inventory.json when the index was built
};

struct EmbeddedShim {
  std::size_t inventory;  // index into kEmbeddedInventories
  const char* name;
  const char* backend;  // "" or "USE_CUDA"
};

extern const char* const kEmbeddedShimDirectory;  // the shim_decls/ directory it was built from
extern const EmbeddedInventory kEmbeddedInventories[];
extern const std::size_t kEmbeddedInventoryCount;
extern const EmbeddedShim kEmbeddedShims[];
extern const std::size_t kEmbeddedShimCount;

// Whether the index describes `history`: its directory is the one the index was built from, with the
// same releases and inventory sizes (a stat each; no file is read).
bool embedded_shim_index_describes(const ReleaseHistory& history);

}  // namespace abicheck
