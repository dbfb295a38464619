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
         .message = change.detail,
         .consequence = consequence_of(change.kind)});
  }
  std::size_t breaking = judgement.findings.size();
  for (const auto& problem : diff.suppression_problems)
    judgement.findings.push_back(suppression_finding(problem, "diff"));
  judgement.explain_kinds("diff", change_kind_text);
  judgement.lines.push_back(fmt::format(
      "diff {} -> {}: {} changes, {} breaking{}", diff.old_release.to_string(), diff.new_release.to_string(),
      diff.changes.size(), breaking,
      diff.suppression_problems.empty() ? ""
                                        : fmt::format(", {} suppressions to fix", diff.suppression_problems.size())));
  return judgement;
}

}  // namespace abicheck
