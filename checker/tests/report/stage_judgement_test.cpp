// Each stage judges its own result: which things are findings, and the summary line it writes.
#include <gtest/gtest.h>

#include "audit/audit_judgement.h"
#include "diff/diff_judgement.h"
#include "lint/lint_report.h"
#include "matrix/matrix_judgement.h"

namespace abicheck {
namespace {

TEST(StageJudgement, MatrixFindsUnexpectedCellsOnly) {
  MatrixResult result;
  for (CellOutcome outcome :
       {CellOutcome::Pass, CellOutcome::ExpectedFail, CellOutcome::NotRun, CellOutcome::Timeout}) {
    result.cells.push_back({.suite = "abiref",
                            .build = {2, 9, 0},
                            .target = {2, 9, 0},
                            .runtime = {2, 10, 0},
                            .outcome = outcome,
                            .reason = "why"});
  }
  Judgement judgement = judge_matrix(result);
  ASSERT_EQ(judgement.findings.size(), 1u);
  EXPECT_EQ(judgement.findings[0].kind, "timeout");
  EXPECT_EQ(judgement.findings[0].where, "abiref cpu B2.9 T2.9 R2.10");
  EXPECT_EQ(judgement.lines, std::vector<std::string>{"matrix: 4 cells, 1 unexpected, 1 not run"});
}

TEST(StageJudgement, DiffFindsBreakingChangesNoSuppressionAccepted) {
  AbiDiff diff{.old_release = {2, 10, 0}, .new_release = {2, 11, 0}};
  diff.changes = {{.name = "a", .kind = ChangeKind::Added},
                  {.name = "b", .kind = ChangeKind::EnumValueChanged},
                  {.name = "c", .kind = ChangeKind::FunctionRemoved, .detail = "gone"},
                  {.name = "d", .kind = ChangeKind::SignatureChanged, .suppressed_because = "never shipped"}};
  Judgement judgement = judge_diff(diff);
  ASSERT_EQ(judgement.findings.size(), 1u);
  EXPECT_EQ(judgement.findings[0].kind, "function-removed");
  EXPECT_EQ(judgement.findings[0].where, "c (2.10 -> 2.11)");
  EXPECT_EQ(judgement.lines, std::vector<std::string>{"diff 2.10 -> 2.11: 4 changes, 1 breaking"});
}

TEST(StageJudgement, LintErrorsFailAndWarningsDoNot) {
  LintReport report;
  report.diagnostics = {
      {.where = {"/p/src/a.cpp", 4, 2}, .rule = "E007", .severity = LintSeverity::Warning},
      {.where = {"/p/src/b.cpp", 9, 1}, .rule = "E002", .severity = LintSeverity::Error, .message = "m"}};
  Judgement judgement = judge_lint(report, "/p");
  ASSERT_EQ(judgement.findings.size(), 2u);
  EXPECT_EQ(judgement.findings[1].where, "src/b.cpp:9:1");
  EXPECT_EQ(judgement.findings[1].file, "src/b.cpp");
  EXPECT_EQ(judgement.exit_code(), ExitCode::Findings);
  report.diagnostics.pop_back();
  EXPECT_EQ(judge_lint(report, "/p").exit_code(), ExitCode::Clean);
}

TEST(StageJudgement, AuditFindsUnstableBinariesFailuresAndAllowlistEntriesToFix) {
  AuditReport report;
  report.binaries = {{.path = "ok.so"},
                     {.path = "bad.so", .verdict = AuditVerdict::Unstable, .reasons = {"imports c10"}}};
  report.failures = {{.path = "broken.so", .problem = "not an ELF file"}};
  report.suppression_problems = {{.file = "allow.toml", .line = 4, .entry = "[[symbol]] name = \"_ZN3c10*\""}};
  Judgement judgement = judge_audit(report);
  ASSERT_EQ(judgement.findings.size(), 3u);
  EXPECT_EQ(judgement.findings[0].where, "bad.so");
  EXPECT_EQ(judgement.findings[1].kind, "not-audited");
  EXPECT_EQ(judgement.findings[2].kind, "stale-suppression");
  EXPECT_EQ(judgement.findings[2].where, "allow.toml:4");
  EXPECT_EQ(judgement.lines,
            std::vector<std::string>{"audit: 2 binaries, 1 not stable, 1 not audited, 1 allowlist entry to fix"});

  AuditReport clean;
  clean.binaries = {{.path = "ok.so"}};
  EXPECT_EQ(judge_audit(clean).exit_code(), ExitCode::Clean);
}

// Every kind a stage can judge a finding into is explained by that stage, so the report can head
// each group of findings with what it means and what to do.
TEST(StageJudgement, EveryBreakingChangeKindIsExplained) {
  for (ChangeKind kind : all_change_kinds()) {
    if (verdict_of(kind) != Verdict::Breaking) continue;
    AbiDiff diff{.old_release = {2, 10, 0}, .new_release = {2, 11, 0}};
    diff.changes = {{.name = "x", .kind = kind}};
    Judgement judgement = judge_diff(diff);
    ASSERT_EQ(judgement.kinds.size(), 1u) << to_string(kind);
    EXPECT_EQ(judgement.kinds[0].kind, to_string(kind));
    EXPECT_FALSE(judgement.kinds[0].text.meaning.empty()) << to_string(kind);
    EXPECT_FALSE(judgement.kinds[0].text.remedy.empty()) << to_string(kind);
  }
}

TEST(StageJudgement, EveryMatrixOutcomeThatIsAFindingIsExplained) {
  MatrixResult result;
  for (CellOutcome outcome : {CellOutcome::UnexpectedFail, CellOutcome::UnexpectedPass, CellOutcome::Crash,
                              CellOutcome::Timeout, CellOutcome::Pass}) {
    result.cells.push_back(
        {.suite = "abiref", .build = {2, 9, 0}, .target = {2, 9, 0}, .runtime = {2, 10, 0}, .outcome = outcome});
  }
  Judgement judgement = judge_matrix(result);
  EXPECT_EQ(judgement.findings.size(), 4u);
  EXPECT_EQ(judgement.kinds.size(), 4u);
  for (const auto& finding : judgement.findings) EXPECT_NE(judgement.kind_of(finding), nullptr) << finding.kind;
}

TEST(StageJudgement, AuditKindsAndSuppressionProblemsAreExplainedOncePerKind) {
  AuditReport report;
  report.binaries = {{.path = "a.so", .verdict = AuditVerdict::Unstable, .reasons = {"imports c10"}},
                     {.path = "b.so", .verdict = AuditVerdict::Unstable, .reasons = {"imports at::"}},
                     {.path = "c.so", .verdict = AuditVerdict::NeedsNewerTorch, .reasons = {"torch_foo is 2.12"}}};
  report.failures = {{.path = "broken.so", .problem = "not an ELF file"}};
  report.suppression_problems = {{.file = "allow.toml", .line = 4, .entry = "[[symbol]] name = \"x\""}};
  Judgement judgement = judge_audit(report);
  ASSERT_EQ(judgement.findings.size(), 5u);
  ASSERT_EQ(judgement.kinds.size(), 4u);  // unstable once for two findings
  for (const auto& finding : judgement.findings) {
    const FindingKind* kind = judgement.kind_of(finding);
    ASSERT_NE(kind, nullptr) << finding.kind;
    EXPECT_FALSE(kind->text.remedy.empty());
  }
  EXPECT_EQ(judgement.kind_of(judgement.findings.back())->text.remedy, "Delete the entry from the suppression file.");
}

TEST(StageJudgement, ComposedJudgementsKeepOneExplanationPerKind) {
  LintReport report;
  report.rules = {
      {.id = "E002", .name = "unstable-header", .severity = LintSeverity::Error, .summary = "s", .remedy = "r"}};
  report.diagnostics = {{.where = {"/p/a.cpp", 1, 1}, .rule = "E002"}, {.where = {"/p/b.cpp", 1, 1}, .rule = "E002"}};
  Judgement composed = judge_lint(report, "/p");
  composed.add(judge_lint(report, "/p"));
  EXPECT_EQ(composed.findings.size(), 4u);
  ASSERT_EQ(composed.kinds.size(), 1u);
  EXPECT_EQ(composed.kinds[0].text.meaning, "s");
  EXPECT_EQ(composed.kinds[0].text.remedy, "r");
}

}  // namespace
}  // namespace abicheck
