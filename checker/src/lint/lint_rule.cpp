#include "lint/lint_rule.h"

#include <algorithm>

namespace abicheck {

std::string_view to_string(LintSeverity severity) { return severity == LintSeverity::Error ? "error" : "warning"; }

void DiagnosticSink::report(const LintRule& rule, SourcePosition where, std::string message, Consequence consequence) {
  diagnostics_.push_back({std::move(where), std::string(rule.id), rule.severity, std::move(message), consequence});
}

std::vector<LintDiagnostic> DiagnosticSink::take_sorted() {
  std::vector<LintDiagnostic> sorted = std::move(diagnostics_);
  diagnostics_.clear();
  std::ranges::sort(sorted);
  auto duplicates = std::ranges::unique(sorted);
  sorted.erase(duplicates.begin(), duplicates.end());
  return sorted;
}

}  // namespace abicheck
