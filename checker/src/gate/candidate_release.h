#pragma once

#include <string>

#include "store/release_store.h"

namespace abicheck {

// A torch release candidate as the matrix and the diff see it: a StoredRelease, whether it came
// from the store or from a torch package directory of any environment where it is installed.
struct ReleaseCandidate {
  StoredRelease release;
  bool from_store = false;
};

// `spec` is resolved by the store (ReleaseStore::resolve): a torch package directory with its
// environment's python, or a version; a version missing from the store is installed into it first
// (matrix/torch_store.py, which needs the network).
ReleaseCandidate resolve_candidate(const std::string& spec, const ReleaseStore& store);

}  // namespace abicheck
