#pragma once

#include <filesystem>

#include "core/suppression_file.h"
#include "lint/lint_report.h"

namespace abicheck {

// Lint findings accepted on purpose, in the one suppression format (docs/suppressions.md):
//
//   [[finding]]
//   rule = "E003"                       # the rule id
//   file = "src/legacy/*.cpp"           # optional glob: relative to this file's directory, or absolute
//   reason = "ported in the next release"
//   expires = 2026-12-31                # optional
//
// Throws ToolError naming the file and line on bad TOML, a missing rule or reason.
SuppressionFile load_lint_suppressions(const std::filesystem::path& path, CalendarDay today);

// Moves each diagnostic an unexpired entry matches into report.suppressed (with the reason), then
// records the file's stale and expired entries in report.suppression_problems.
void apply_lint_suppressions(SuppressionFile& suppressions, LintReport& report);

}  // namespace abicheck
