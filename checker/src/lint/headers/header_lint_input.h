#pragma once

#include <filesystem>

#include "lint/headers/header_rules.h"
#include "lint/headers/moved_declarations.h"

namespace abicheck {

// Everything the header rules read about a tree, gathered once: its inventory (given, with its
// compile failures at every configuration, inline bodies included: H007's), the committed baselines
// (baselines/<release>/inventory.json) of the releases older than it, the wrappers' uses of shims at
// each target (libclang, H005), and the declarations that moved into the stable trees (searched in
// the headers of the release before, where headers_of_release has them).
HeaderLintInput gather_header_lint_input(const std::filesystem::path& include_dir, ShimInventory candidate,
                                         const std::filesystem::path& baselines,
                                         const ReleaseHeaderLocator& headers_of_release);

}  // namespace abicheck
