#pragma once

#include <compare>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.h"

namespace abicheck {

// Error findings make a lint fail (exit 1); warnings are reported and do not.
enum class LintSeverity { Error, Warning };

std::string_view to_string(LintSeverity severity);

// What a rule is, independent of any finding: shown in --list-rules, SARIF's rule table and
// docs/lint-rules.md (where the section is headed by the id).
struct LintRule {
  std::string_view id;    // "E003"
  std::string_view name;  // "api-newer-than-target"
  LintSeverity severity;
  std::string_view summary;  // one sentence: what the rule finds
  std::string_view remedy;   // one sentence: what to do about a finding
};

// A position in a file; line and column count from 1 (0 when the finding concerns the whole file).
struct SourcePosition {
  std::filesystem::path file;
  int line = 0;
  int column = 0;

  auto operator<=>(const SourcePosition&) const = default;
};

// One finding of one rule.
struct LintDiagnostic {
  SourcePosition where;
  std::string rule;  // the rule's id
  LintSeverity severity = LintSeverity::Error;
  std::string message;
  Consequence consequence = Consequence::Unstated;  // what the message says happens to the extension
  std::vector<std::string> notes;                   // findings of other rules that follow from this one

  auto operator<=>(const LintDiagnostic&) const = default;
};

// Where rules put their findings: the rule gives the id and severity, the check the place and words.
class DiagnosticSink {
 public:
  void report(const LintRule& rule, SourcePosition where, std::string message,
              Consequence consequence = Consequence::Unstated);
  // Sorted by file, line, column, rule; exact duplicates (one header seen by two translation units)
  // are kept once.
  std::vector<LintDiagnostic> take_sorted();

 private:
  std::vector<LintDiagnostic> diagnostics_;
};

}  // namespace abicheck
