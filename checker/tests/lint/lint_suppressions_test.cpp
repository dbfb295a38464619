// Lint suppressions: a [[finding]] entry accepts a rule's diagnostics (in the files its glob names,
// relative to the suppression file); accepted diagnostics leave the verdict, stale and expired
// entries join it.
#include "lint/lint_suppressions.h"

#include <gtest/gtest.h>

#include <fstream>

#include "core/scoped_temp_dir.h"

namespace abicheck {
namespace {

constexpr CalendarDay kToday{2026, 6, 1};

TEST(LintSuppressions, AcceptedFindingsLeaveTheVerdictAndEntriesToFixJoinIt) {
  ScopedTempDir work("lint-suppressions");
  auto path = work.path() / "lint-suppressions.toml";
  std::ofstream(path) << R"([[finding]]
rule = "E003"
file = "src/legacy/*"
reason = "the legacy ops are ported in 0.9"

[[finding]]
rule = "E002"
reason = "expired: the port was due in May"
expires = 2026-05-31

[[finding]]
rule = "E005"
reason = "nothing raises E005 here any more"
)";
  LintReport report;
  report.diagnostics = {{.where = {work.path() / "src/legacy/a.cpp", 3, 1}, .rule = "E003", .message = "m"},
                        {.where = {work.path() / "src/new/b.cpp", 4, 1}, .rule = "E003", .message = "m"},
                        {.where = {work.path() / "src/new/b.cpp", 9, 1}, .rule = "E002", .message = "m"}};
  SuppressionFile suppressions = load_lint_suppressions(path, kToday);
  apply_lint_suppressions(suppressions, report);

  ASSERT_EQ(report.suppressed.size(), 1u);
  EXPECT_EQ(report.suppressed[0].first.where.line, 3);
  EXPECT_EQ(report.suppressed[0].second, "the legacy ops are ported in 0.9");
  ASSERT_EQ(report.diagnostics.size(), 2u);  // outside the glob, and under the expired entry

  Judgement judgement = judge_lint(report, work.path());
  std::vector<std::pair<std::string, int>> findings;
  for (const auto& finding : judgement.findings) findings.emplace_back(finding.kind, finding.line);
  EXPECT_EQ(findings, (std::vector<std::pair<std::string, int>>{
                          {"E003", 4}, {"E002", 9}, {"expired-suppression", 6}, {"stale-suppression", 11}}));
  EXPECT_EQ(judgement.lines,
            std::vector<std::string>{"lint: 2 diagnostics, 2 errors, 1 suppressed, 2 suppressions to fix"});
}

}  // namespace
}  // namespace abicheck
