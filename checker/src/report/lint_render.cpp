#include "report/lint_render.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/display_path.h"
#include "report/suppression_render.h"

namespace abicheck {

nlohmann::json lint_section(const LintReport& report, const std::filesystem::path& display_base) {
  nlohmann::json rules = nlohmann::json::array();
  for (const auto& rule : report.rules) {
    rules.push_back(
        {{"id", rule.id}, {"name", rule.name}, {"severity", to_string(rule.severity)}, {"summary", rule.summary}});
  }
  auto diagnostic_json = [&](const LintDiagnostic& d) {
    return nlohmann::json{
        {"rule", d.rule},       {"severity", to_string(d.severity)}, {"file", display_path(d.where.file, display_base)},
        {"line", d.where.line}, {"column", d.where.column},          {"message", d.message}};
  };
  nlohmann::json diagnostics = nlohmann::json::array();
  for (const auto& d : report.diagnostics) diagnostics.push_back(diagnostic_json(d));
  nlohmann::json suppressed = nlohmann::json::array();
  for (const auto& [d, reason] : report.suppressed) {
    nlohmann::json item = diagnostic_json(d);
    item["suppressed"] = reason;
    suppressed.push_back(std::move(item));
  }
  return {{"rules", rules},
          {"diagnostics", diagnostics},
          {"suppressed", suppressed},
          {"suppression_problems", suppression_problems_json(report.suppression_problems)}};
}

std::string render_lint_text(const LintReport& report, const std::filesystem::path& display_base) {
  std::string text;
  for (const auto& d : report.diagnostics) {
    std::string place = display_path(d.where.file, display_base);
    if (d.where.line > 0) place += fmt::format(":{}:{}", d.where.line, std::max(d.where.column, 1));
    text += fmt::format("{}: {}: [{}] {}\n", place, to_string(d.severity), d.rule, d.message);
    for (const auto& note : d.notes) text += fmt::format("{}: note: {}\n", place, note);
  }
  text += render_suppression_problems_text(report.suppression_problems);
  return text;
}

}  // namespace abicheck
