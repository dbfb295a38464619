#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "core/finding.h"
#include "core/suppression_file.h"
#include "lint/lint_rule.h"

namespace abicheck {

// What one lint run found, with the rules that ran (SARIF lists them even when they found nothing).
struct LintReport {
  std::vector<LintRule> rules;
  std::vector<LintDiagnostic> diagnostics;  // sorted (DiagnosticSink::take_sorted); not the suppressed ones
  // Diagnostics a --suppressions entry accepted, with its reason, and that file's stale and expired
  // entries (lint_suppressions.h).
  std::vector<std::pair<LintDiagnostic, std::string>> suppressed;
  std::vector<SuppressionProblem> suppression_problems;
};

// The lint's verdict: every diagnostic is a finding of its rule's severity, so error diagnostics
// fail the run and warnings alone leave it clean. Paths are shown relative to display_base.
Judgement judge_lint(const LintReport& report, const std::filesystem::path& display_base);

// What the rule `id` among `rules` finds and how to fix it: the explanation of its findings' kind.
std::optional<KindText> lint_rule_text(const std::vector<LintRule>& rules, std::string_view id);

}  // namespace abicheck
