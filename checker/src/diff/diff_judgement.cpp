#include "diff/diff_judgement.h"

#include <fmt/format.h>

namespace abicheck {

Judgement judge_diff(const AbiDiff& diff) {
  Judgement judgement;
  for (const auto& change : diff.changes) {
    if (change.verdict() != Verdict::Breaking || !change.suppressed_because.empty()) continue;
    judgement.findings.push_back(
        {.stage = "diff",
         .kind = std::string(to_string(change.kind)),
         .where = fmt::format("{} ({} -> {})", change.name, diff.old_release.to_string(), diff.new_release.to_string()),
         .message = change.detail});
  }
  judgement.lines.push_back(fmt::format("diff {} -> {}: {} changes, {} breaking", diff.old_release.to_string(),
                                        diff.new_release.to_string(), diff.changes.size(), judgement.findings.size()));
  return judgement;
}

}  // namespace abicheck
