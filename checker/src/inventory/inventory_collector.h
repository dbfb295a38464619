#pragma once

#include <filesystem>
#include <optional>

#include "core/torch_version.h"
#include "inventory/shim_inventory.h"
#include "store/release_store.h"

namespace abicheck {

// The backend defines whose presence changes what the stable headers declare (stable/c/shim.h
// declares shims under `#ifdef USE_CUDA` and, from 2.14, `#ifdef USE_MPS`). Each inventory parse is
// done without them and with all of them; one more parse per define tells which one a declaration
// needs. USE_ROCM is not one: it selects HIP code paths that need HIP's own headers.
inline constexpr std::string_view kBackendDefines[] = {"USE_CUDA", "USE_MPS", "USE_XPU"};

// The `backend` of a declaration that only an extension defining no TORCH_TARGET_VERSION sees
// (e.g. declarations under AT_MKLDNN_ENABLED() in shim_cpu.h, whose ATen/Config.h refuses to be
// included under a target).
inline constexpr std::string_view kUntargetedOnly = "!TORCH_TARGET_VERSION";

struct InventoryOptions {
  std::optional<TorchVersion> release;  // none: read from the headers (see read_release_from_headers)
  unsigned jobs = 0;                    // parses run in parallel; 0: the machine's cores, at most 4
  // Headers that do not compile without a target are a ToolError, unless this is set: then the
  // errors become notes and what did parse is collected, for a caller that judges such headers
  // itself (the header lint: a wrapper over a shim hidden by a combined guard is H005's finding).
  bool untargeted_errors_as_notes = false;
};

// The stable surface of the torch whose headers are in include_dir (a store release's include dir
// or any plain header tree, e.g. a source checkout's or a fixture's). libclang parses one generated
// source that includes every stable header, once per target value 2.9 ... the release, with and
// without the backend defines; a declaration's `since` is the lowest target at which it is visible,
// its `backend` the define it needs. Throws ToolError (naming the header and line) when the headers
// do not parse without a target (see untargeted_errors_as_notes), when they are older than 2.9 or
// have no stable ABI headers.
ShimInventory collect_inventory(const std::filesystem::path& include_dir, const InventoryOptions& options = {});

// The release the headers belong to, from TORCH_VERSION_MAJOR/MINOR/PATCH as the headers define
// them (torch/headeronly/version.h from 2.10, torch/csrc/api/include/torch/version.h before).
TorchVersion read_release_from_headers(const std::filesystem::path& include_dir);

// A resolved release's version: the store's or its version.py's, else (a bare header tree) what its
// headers define. ToolError when a header tree has no stable ABI headers.
TorchVersion release_version(const ResolvedRelease& release);

}  // namespace abicheck
