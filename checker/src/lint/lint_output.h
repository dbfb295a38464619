#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/tool_error.h"
#include "lint/lint_rule.h"

namespace abicheck {

// What one lint run found, with the rules that ran (SARIF lists them even when they found nothing).
struct LintReport {
  std::vector<LintRule> rules;
  std::vector<LintDiagnostic> diagnostics;  // sorted (DiagnosticSink::take_sorted)
};

// Findings = at least one error-severity diagnostic; warnings alone leave the run clean.
ExitCode lint_exit_code(const LintReport& report);

// Paths are shown relative to display_base when the file lies under it, else absolute, so that
// text output is clickable and reports of one tree are byte-identical wherever the tree is.
std::string display_path(const std::filesystem::path& file, const std::filesystem::path& display_base);

// Compiler-style lines: "file:line:col: error: [E003] message".
std::string render_lint_text(const LintReport& report, const std::filesystem::path& display_base);
// {"diagnostics":[{"rule","severity","file","line","column","message"}]}
std::string render_lint_json(const LintReport& report, const std::filesystem::path& display_base);
// SARIF 2.1.0, one run with the rule table and one result per diagnostic.
std::string render_lint_sarif(const LintReport& report, const std::filesystem::path& display_base);

}  // namespace abicheck
