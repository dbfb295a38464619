#pragma once

#include <map>
#include <set>
#include <string>

#include "baseline/release_baseline.h"
#include "baseline/release_history.h"
#include "diff/abi_change.h"
#include "diff/suppressions.h"
#include "inventory/declaration_pairing.h"

namespace abicheck {

// What the release history knows that two baselines alone do not (empty for bare header trees).
struct HistoryFacts {
  // The identities of the compile errors the new side's release shipped with (ReleaseHistory::
  // shipped_compile_errors, or a committed baseline's own), known like the old side's: an error a real
  // release has by design is no finding of a diff from an older one.
  std::set<std::string> shipped_errors;
  // The release that first shipped each declaration (first_shipped_releases): a C shim's guard raised no
  // higher than that release is guard-corrected, not guard-changed.
  std::map<DeclarationKey, TorchVersion> first_shipped;
};

// The facts of `history` for a diff whose new side is torch `new_release`.
HistoryFacts history_facts(const ReleaseHistory& history, TorchVersion new_release);

// The whole comparison of two baselines: the inventories (guards, backends, enums, exports),
// libabigail's comparison of the ABI models (signatures and layouts) and, when both sides have them,
// the operator schemas and the conversions' behaviour; suppressions applied (their stale and expired entries in
// AbiDiff::suppression_problems), sorted. The origins name the baselines in error messages.
AbiDiff diff_baselines(const ReleaseBaseline& old_baseline, const ReleaseBaseline& new_baseline,
                       SuppressionFile* suppressions = nullptr, const std::string& old_origin = "OLD",
                       const std::string& new_origin = "NEW", const HistoryFacts& history = {});

}  // namespace abicheck
