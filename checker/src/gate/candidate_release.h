#pragma once

#include <filesystem>
#include <string>

#include "store/release_store.h"

namespace abicheck {

// A torch release candidate as the matrix and the diff see it: a StoredRelease, whether it came
// from the store or from a torch package directory of any environment where it is installed.
struct ReleaseCandidate {
  StoredRelease release;
  bool from_store = false;
};

// Describes an installed torch package directory (`<env>/lib/pythonX.Y/site-packages/torch`):
// version and CUDA from its version.py, the python of its environment (`<env>/bin/python3`), its
// include and lib dirs. ToolError naming the directory when it is not one or has no python.
StoredRelease release_from_torch_dir(const std::filesystem::path& torch_dir);

// `spec` is a path (a torch package directory) or a version; a version missing from the store is
// installed into it first (matrix/torch_store.py, which needs the network).
ReleaseCandidate resolve_candidate(const std::string& spec, const ReleaseStore& store);

}  // namespace abicheck
