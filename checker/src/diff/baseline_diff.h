#pragma once

#include <set>
#include <string>

#include "baseline/release_baseline.h"
#include "diff/abi_change.h"
#include "diff/suppressions.h"

namespace abicheck {

// The whole comparison of two baselines: the inventories (guards, backends, enums, exports),
// libabigail's comparison of the ABI models (signatures and layouts) and, when both sides have them,
// the operator schemas; suppressions applied (their stale and expired entries in
// AbiDiff::suppression_problems), sorted.
// The origins name the baselines in error messages. `shipped_errors`: the identities of the compile
// errors the new side's release shipped with (ReleaseHistory::shipped_compile_errors), known like the
// old side's: an error a real release has by design is no finding of a diff from an older one.
AbiDiff diff_baselines(const ReleaseBaseline& old_baseline, const ReleaseBaseline& new_baseline,
                       SuppressionFile* suppressions = nullptr, const std::string& old_origin = "OLD",
                       const std::string& new_origin = "NEW", const std::set<std::string>& shipped_errors = {});

}  // namespace abicheck
