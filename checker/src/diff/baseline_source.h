#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "baseline/release_baseline.h"

namespace abicheck {

// A diff operand: a baseline directory (one holding inventory.json); a release version, read from
// the committed shim_decls/<release>/ when there is one, else built from the store; or a torch
// package dir / header tree (a release candidate), built on the spot.
ReleaseBaseline obtain_baseline(const std::string& spec, const std::filesystem::path& store_root);

// The committed baselines under `directory` (shim_decls/), oldest release first.
std::vector<std::filesystem::path> committed_baselines(const std::filesystem::path& directory);

}  // namespace abicheck
