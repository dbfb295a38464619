#include "lint/lint_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/display_path.h"

namespace abicheck {

std::optional<KindText> lint_rule_text(const std::vector<LintRule>& rules, std::string_view id) {
  auto rule = std::ranges::find(rules, id, &LintRule::id);
  if (rule == rules.end()) return std::nullopt;
  return KindText{.meaning = std::string(rule->summary), .remedy = std::string(rule->remedy)};
}

Judgement judge_lint(const LintReport& report, const std::filesystem::path& display_base) {
  Judgement judgement;
  for (const auto& d : report.diagnostics) {
    std::string file = display_path(d.where.file, display_base);
    std::string where = file;
    if (d.where.line > 0) where += fmt::format(":{}:{}", d.where.line, std::max(d.where.column, 1));
    judgement.findings.push_back(
        {.stage = "lint",
         .kind = d.rule,
         .severity = d.severity == LintSeverity::Error ? FindingSeverity::Error : FindingSeverity::Warning,
         .where = where,
         .message = d.message,
         .file = file,
         .line = d.where.line,
         .column = d.where.column,
         .consequence = d.consequence,
         .notes = d.notes});
  }
  for (const auto& problem : report.suppression_problems)
    judgement.findings.push_back(suppression_finding(problem, "lint"));
  judgement.explain_kinds("lint", [&](std::string_view id) { return lint_rule_text(report.rules, id); });
  auto errors = std::ranges::count(report.diagnostics, LintSeverity::Error, &LintDiagnostic::severity);
  judgement.lines.push_back(
      fmt::format("lint: {} diagnostics, {} errors{}{}", report.diagnostics.size(), errors,
                  report.suppressed.empty() ? "" : fmt::format(", {} suppressed", report.suppressed.size()),
                  report.suppression_problems.empty()
                      ? ""
                      : fmt::format(", {} suppressions to fix", report.suppression_problems.size())));
  return judgement;
}

}  // namespace abicheck
