#include "diff/baseline_diff.h"

#include <fmt/format.h>

#include <algorithm>

#include "diff/abigail_compare.h"
#include "diff/behaviour_compare.h"
#include "diff/inventory_compare.h"
#include "diff/operator_compare.h"

namespace abicheck {

namespace {

// Each error of the new headers that the old ones did not have, once per place in the headers,
// with every configuration it shows in ("the headers of 2.16 do not compile at target 2.9, target
// 2.10: torch/csrc/stable/tensor.h:42: ...").
std::vector<AbiChange> compare_compile_failures(const ShimInventory& old_inventory, const ShimInventory& new_inventory,
                                                const std::string& new_origin, std::set<std::string> known) {
  known.merge(old_inventory.compile_error_identities());
  std::vector<AbiChange> changes;
  for (const auto& error : new_compile_errors(new_inventory, known)) {
    changes.push_back(
        {error.header, ChangeKind::HeadersDoNotCompile,
         fmt::format("the headers of {} do not compile at {}: {}", new_origin, error.configurations(), error.error),
         ""});
  }
  return changes;
}

}  // namespace

HistoryFacts history_facts(const ReleaseHistory& history, TorchVersion new_release) {
  return {history.shipped_compile_errors(new_release.minor_release()), first_shipped_releases(history.inventories())};
}

AbiDiff diff_baselines(const ReleaseBaseline& old_baseline, const ReleaseBaseline& new_baseline,
                       SuppressionFile* suppressions, const std::string& old_origin, const std::string& new_origin,
                       const HistoryFacts& history) {
  AbiDiff diff{old_baseline.inventory.release, new_baseline.inventory.release, {}, {}};
  diff.changes = compare_inventories(old_baseline, new_baseline, history.first_shipped);
  std::vector<AbiChange> failures =
      compare_compile_failures(old_baseline.inventory, new_baseline.inventory, new_origin, history.shipped_errors);
  diff.changes.insert(diff.changes.end(), failures.begin(), failures.end());
  // A side whose headers do not compile without a target has no ABI model: its failures above are
  // the finding, and the inventories are still compared.
  if (!old_baseline.abixml.empty() && !new_baseline.abixml.empty()) {
    std::vector<AbiChange> signatures =
        compare_abi_models(old_baseline.abixml, new_baseline.abixml, old_origin, new_origin);
    // One account of a changed signature: libabigail's names the parameter that changed.
    std::erase_if(diff.changes, [&](const AbiChange& change) {
      return change.kind == ChangeKind::SignatureChanged &&
             std::ranges::any_of(signatures, [&](const AbiChange& s) { return s.name == change.name; });
    });
    diff.changes.insert(diff.changes.end(), signatures.begin(), signatures.end());
  }
  if (old_baseline.operators && new_baseline.operators) {
    std::vector<AbiChange> operators = compare_operator_schemas(*old_baseline.operators, *new_baseline.operators);
    diff.changes.insert(diff.changes.end(), operators.begin(), operators.end());
  }
  if (old_baseline.behaviour && new_baseline.behaviour) {
    std::vector<AbiChange> conversions = compare_behaviour(*old_baseline.behaviour, *new_baseline.behaviour);
    diff.changes.insert(diff.changes.end(), conversions.begin(), conversions.end());
  }
  if (suppressions) {
    apply_suppressions(*suppressions, diff.changes);
    diff.suppression_problems = suppressions->problems();
  }
  std::ranges::sort(diff.changes, [](const AbiChange& a, const AbiChange& b) {
    return std::tie(a.name, a.kind, a.detail) < std::tie(b.name, b.kind, b.detail);
  });
  return diff;
}

}  // namespace abicheck
