#include "gate/gate_judgement.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "aoti/aoti_judgement.h"
#include "audit/audit_judgement.h"
#include "canary/canary_judgement.h"
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
  // Only the device runtime part of the audit's verdict and the operators that break on the candidate:
  // the matrix's suites include the unstable negative control on purpose, and its cells already judge
  // the torch symbols by loading them.
  Judgement device;
  for (const auto& object : result.audit.binaries) {
    for (auto& finding : release_load_findings(object, object.path)) device.findings.push_back(std::move(finding));
    for (auto& finding : operator_findings(object, object.path, result.candidate.release.version.minor_release())) {
      device.findings.push_back(std::move(finding));
    }
  }
  device.explain_kinds("audit", audit_kind_text);
  add_stage("audit", device);
  if (result.canary) add_stage("canary", judge_canary(*result.canary));
  // A reference package of an earlier release that no longer loads into the candidate, or no longer
  // matches eager there, is the candidate's break.
  if (result.aoti) add_stage("aoti", judge_aoti(*result.aoti));
  judgement.lines.push_back(fmt::format(
      "release gate: torch {} against {}: {}", result.candidate.release.version.to_full_string(),
      result.last.to_string(), failing.empty() ? "passes" : fmt::format("fails ({})", fmt::join(failing, ", "))));
  return judgement;
}

}  // namespace abicheck
