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

}  // namespace
}  // namespace abicheck
