#include "report/gate_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "matrix/matrix_report.h"
#include "report/diff_json.h"
#include "report/html_report.h"

namespace abicheck {
namespace {

std::vector<std::string> stages_with_findings(const ReleaseGateResult& result) {
  std::vector<std::string> stages;
  if (result.diff.has_breaking()) stages.push_back("diff");
  if (lint_exit_code(result.lint.report) == ExitCode::Findings) stages.push_back("lint");
  if (result.matrix.has_findings()) stages.push_back("matrix");
  return stages;
}

}  // namespace

std::string release_gate_verdict(const ReleaseGateResult& result) {
  auto stages = stages_with_findings(result);
  return fmt::format("release gate: torch {} against {}: {}", result.candidate.release.version.to_full_string(),
                     result.last.to_string(), stages.empty() ? "passes" : fmt::format("fails ({})", fmt::join(stages, ", ")));
}

nlohmann::json release_gate_document(const ReleaseGateResult& result) {
  const StoredRelease& candidate = result.candidate.release;
  nlohmann::json document = {
      {"title", fmt::format("torch {} release gate", candidate.version.to_full_string())},
      {"gate", {{"candidate", candidate.version.to_full_string()},
                {"torch_dir", candidate.torch_dir.string()},
                {"from_store", result.candidate.from_store},
                {"last", result.last.to_string()}}},
      {"verdict", {{"lines", {release_gate_verdict(result)}}}}};
  add_to_report(document, nlohmann::json::parse(diff_to_json(result.diff).dump()), "diff");
  add_to_report(document, nlohmann::json::parse(render_lint_json(result.lint.report, candidate.include_dir)), "lint");
  add_to_report(document, nlohmann::json::parse(render_matrix_json(result.matrix)), "matrix");
  return document;
}

std::vector<JUnitCase> release_gate_junit_cases(const ReleaseGateResult& result) {
  std::vector<JUnitCase> cases;
  for (const auto& change : result.diff.changes) {
    if (change.verdict() != Verdict::Breaking || !change.suppressed_because.empty()) continue;
    cases.push_back({"release-gate.diff", fmt::format("{} ({})", change.name, to_string(change.kind)),
                     JUnitCase::Outcome::Failed, change.detail});
  }
  if (cases.empty()) cases.push_back({"release-gate.diff", "no breaking change"});
  std::size_t before_lint = cases.size();
  for (const auto& diagnostic : result.lint.report.diagnostics) {
    if (diagnostic.severity != LintSeverity::Error) continue;
    cases.push_back({"release-gate.lint",
                     fmt::format("[{}] {}:{}", diagnostic.rule,
                                 display_path(diagnostic.where.file, result.candidate.release.include_dir), diagnostic.where.line),
                     JUnitCase::Outcome::Failed, diagnostic.message});
  }
  if (cases.size() == before_lint) cases.push_back({"release-gate.lint", "no error diagnostic"});
  auto matrix_cases = matrix_junit_cases(result.matrix);
  cases.insert(cases.end(), matrix_cases.begin(), matrix_cases.end());
  return cases;
}

}  // namespace abicheck
