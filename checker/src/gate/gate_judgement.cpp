#include "gate/gate_judgement.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "diff/diff_judgement.h"
#include "matrix/matrix_judgement.h"

namespace abicheck {

Judgement judge_release_gate(const ReleaseGateResult& result) {
  Judgement judgement;
  std::vector<std::string> failing;
  auto add_stage = [&](const char* stage, const Judgement& part) {
    if (part.has_findings()) failing.emplace_back(stage);
    judgement.add(part);
  };
  add_stage("diff", judge_diff(result.diff));
  add_stage("lint", judge_lint(result.lint.report, result.candidate.release.include_dir));
  add_stage("matrix", judge_matrix(result.matrix));
  judgement.lines.push_back(fmt::format(
      "release gate: torch {} against {}: {}", result.candidate.release.version.to_full_string(),
      result.last.to_string(), failing.empty() ? "passes" : fmt::format("fails ({})", fmt::join(failing, ", "))));
  return judgement;
}

}  // namespace abicheck
