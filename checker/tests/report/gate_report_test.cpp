// The release gate's report from plain results: which stages fail, the verdict line, the document's
// sections and the JUnit cases, without running anything.
#include <gtest/gtest.h>

#include "report/gate_report.h"
#include "report/html_report.h"

namespace abicheck {
namespace {

ReleaseGateResult clean_result() {
  ReleaseGateResult result;
  result.candidate.release.version = {2, 16, 0};
  result.candidate.release.torch_dir = "/env/lib/python3.11/site-packages/torch";
  result.candidate.release.include_dir = "/env/lib/python3.11/site-packages/torch/include";
  result.last = {2, 15, 0};
  result.diff.old_release = {2, 15, 0};
  result.diff.new_release = {2, 16, 0};
  result.diff.changes = {{.name = "torch_new_shim", .kind = ChangeKind::Added, .detail = "guarded at 2.16"}};
  result.matrix.cells = {{.suite = "abiref", .build = {2, 9, 0}, .target = {2, 9, 0}, .runtime = {2, 16, 0},
                          .expected = Expectation::Pass, .outcome = CellOutcome::Pass}};
  return result;
}

TEST(GateReport, CleanCandidatePasses) {
  ReleaseGateResult result = clean_result();
  EXPECT_FALSE(result.has_findings());
  EXPECT_EQ(release_gate_verdict(result), "release gate: torch 2.16.0 against 2.15: passes");
  nlohmann::json document = release_gate_document(result);
  EXPECT_EQ(document["gate"]["last"], "2.15");
  EXPECT_EQ(document["diffs"].size(), 1u);
  EXPECT_TRUE(document["lint"]["diagnostics"].empty());
  EXPECT_FALSE(judge_report(document).has_findings);
  auto cases = release_gate_junit_cases(result);
  ASSERT_GE(cases.size(), 3u);
  EXPECT_TRUE(std::ranges::all_of(cases, [](const JUnitCase& c) { return c.outcome == JUnitCase::Outcome::Passed; }));
}

TEST(GateReport, EachStageWithAFindingIsNamed) {
  ReleaseGateResult result = clean_result();
  result.diff.changes.push_back({.name = "aoti_torch_old", .kind = ChangeKind::FunctionRemoved, .detail = "gone"});
  result.lint.report.diagnostics.push_back({.where = {"/env/lib/python3.11/site-packages/torch/include/torch/csrc/stable/c/shim.h", 7, 1},
                                            .rule = "H006", .severity = LintSeverity::Error, .message = "unguarded"});
  result.matrix.cells[0].outcome = CellOutcome::UnexpectedFail;
  EXPECT_TRUE(result.has_findings());
  EXPECT_EQ(release_gate_verdict(result), "release gate: torch 2.16.0 against 2.15: fails (diff, lint, matrix)");

  nlohmann::json document = release_gate_document(result);
  EXPECT_EQ(document["lint"]["diagnostics"][0]["file"], "torch/csrc/stable/c/shim.h") << "relative to the candidate's include dir";
  EXPECT_EQ(judge_report(document).sections_with_findings, (std::vector<std::string>{"matrix", "diff", "lint"}));
  auto cases = release_gate_junit_cases(result);
  auto failed = [&](const std::string& class_name) {
    return std::ranges::count_if(cases, [&](const JUnitCase& c) {
      return c.class_name == class_name && c.outcome == JUnitCase::Outcome::Failed;
    });
  };
  EXPECT_EQ(failed("release-gate.diff"), 1);
  EXPECT_EQ(failed("release-gate.lint"), 1);
}

TEST(GateReport, SuppressedBreakingChangeDoesNotFailTheGate) {
  ReleaseGateResult result = clean_result();
  result.diff.changes.push_back({.name = "torch_from_blob", .kind = ChangeKind::SignatureChanged, .detail = "parameter 2",
                                 .suppressed_because = "never shipped"});
  EXPECT_FALSE(result.has_findings());
  EXPECT_FALSE(judge_report(release_gate_document(result)).has_findings);
}

}  // namespace
}  // namespace abicheck
