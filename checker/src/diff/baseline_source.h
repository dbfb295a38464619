#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "baseline/release_baseline.h"
#include "baseline/release_history.h"

namespace abicheck {

// A diff operand: a baseline directory (one holding inventory.json); a release version, read from
// the committed baseline of `history` when there is one, else built from the store; or a torch
// package dir / header tree (a release candidate), built on the spot.
ReleaseBaseline obtain_baseline(const std::string& spec, const std::filesystem::path& store_root,
                                const ReleaseHistory& history = ReleaseHistory::open(project_baselines_dir()));

}  // namespace abicheck
