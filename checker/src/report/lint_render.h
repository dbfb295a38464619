#pragma once

#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "lint/lint_report.h"

namespace abicheck {

// The report's "lint" section: {"rules":[{"id","name","severity","summary"}],
// "diagnostics":[{"rule","severity","file","line","column","message"}]}, paths relative to display_base.
nlohmann::json lint_section(const LintReport& report, const std::filesystem::path& display_base);

// Compiler-style lines: "file:line:col: error: [E003] message".
std::string render_lint_text(const LintReport& report, const std::filesystem::path& display_base);

}  // namespace abicheck
