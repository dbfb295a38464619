#include "diff/baseline_diff.h"

#include <algorithm>

#include "diff/abigail_compare.h"
#include "diff/inventory_compare.h"
#include "diff/operator_compare.h"

namespace abicheck {

AbiDiff diff_baselines(const ReleaseBaseline& old_baseline, const ReleaseBaseline& new_baseline,
                       SuppressionFile* suppressions, const std::string& old_origin, const std::string& new_origin) {
  AbiDiff diff{old_baseline.inventory.release, new_baseline.inventory.release, {}, {}};
  diff.changes = compare_inventories(old_baseline, new_baseline);
  std::vector<AbiChange> signatures =
      compare_abi_models(old_baseline.abixml, new_baseline.abixml, old_origin, new_origin);
  diff.changes.insert(diff.changes.end(), signatures.begin(), signatures.end());
  if (old_baseline.operators && new_baseline.operators) {
    std::vector<AbiChange> operators = compare_operator_schemas(*old_baseline.operators, *new_baseline.operators);
    diff.changes.insert(diff.changes.end(), operators.begin(), operators.end());
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
