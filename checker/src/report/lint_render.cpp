#include "report/lint_render.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/display_path.h"

namespace abicheck {

nlohmann::json lint_section(const LintReport& report, const std::filesystem::path& display_base) {
  nlohmann::json rules = nlohmann::json::array();
  for (const auto& rule : report.rules) {
    rules.push_back(
        {{"id", rule.id}, {"name", rule.name}, {"severity", to_string(rule.severity)}, {"summary", rule.summary}});
  }
  nlohmann::json diagnostics = nlohmann::json::array();
  for (const auto& d : report.diagnostics) {
    diagnostics.push_back({{"rule", d.rule},
                           {"severity", to_string(d.severity)},
                           {"file", display_path(d.where.file, display_base)},
                           {"line", d.where.line},
                           {"column", d.where.column},
                           {"message", d.message}});
  }
  return {{"rules", rules}, {"diagnostics", diagnostics}};
}

std::string render_lint_text(const LintReport& report, const std::filesystem::path& display_base) {
  std::string text;
  for (const auto& d : report.diagnostics) {
    std::string place = display_path(d.where.file, display_base);
    if (d.where.line > 0) place += fmt::format(":{}:{}", d.where.line, std::max(d.where.column, 1));
    text += fmt::format("{}: {}: [{}] {}\n", place, to_string(d.severity), d.rule, d.message);
  }
  return text;
}

}  // namespace abicheck
