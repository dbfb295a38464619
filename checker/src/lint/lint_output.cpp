#include "lint/lint_output.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace abicheck {
namespace {

// A relative path as a URI reference: unreserved characters and '/' as they are, the rest %XX.
std::string path_to_uri(const std::string& path) {
  std::string uri;
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') {
      uri += static_cast<char>(c);
    } else {
      uri += fmt::format("%{:02X}", c);
    }
  }
  return uri;
}

std::string sarif_uri(const std::filesystem::path& file, const std::filesystem::path& display_base) {
  std::string shown = display_path(file, display_base);
  if (std::filesystem::path(shown).is_absolute()) return "file://" + path_to_uri(shown);
  return path_to_uri(shown);
}

}  // namespace

ExitCode lint_exit_code(const LintReport& report) {
  bool has_error = std::ranges::any_of(report.diagnostics,
                                       [](const LintDiagnostic& d) { return d.severity == LintSeverity::Error; });
  return has_error ? ExitCode::Findings : ExitCode::Clean;
}

std::string display_path(const std::filesystem::path& file, const std::filesystem::path& display_base) {
  if (display_base.empty() || file.is_relative()) return file.generic_string();
  auto relative = file.lexically_relative(display_base);
  if (relative.empty() || *relative.begin() == "..") return file.generic_string();
  return relative.generic_string();
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

std::string render_lint_json(const LintReport& report, const std::filesystem::path& display_base) {
  nlohmann::ordered_json diagnostics = nlohmann::ordered_json::array();
  for (const auto& d : report.diagnostics) {
    diagnostics.push_back({{"rule", d.rule},
                           {"severity", to_string(d.severity)},
                           {"file", display_path(d.where.file, display_base)},
                           {"line", d.where.line},
                           {"column", d.where.column},
                           {"message", d.message}});
  }
  nlohmann::ordered_json document = {{"diagnostics", diagnostics}};
  return document.dump(2) + "\n";
}

std::string render_lint_sarif(const LintReport& report, const std::filesystem::path& display_base) {
  auto level = [](LintSeverity severity) { return severity == LintSeverity::Error ? "error" : "warning"; };
  nlohmann::ordered_json rules = nlohmann::ordered_json::array();
  for (const auto& rule : report.rules) {
    rules.push_back({{"id", rule.id},
                     {"name", rule.name},
                     {"shortDescription", {{"text", rule.summary}}},
                     {"help", {{"text", fmt::format("See docs/lint-rules.md, section {}.", rule.id)}}},
                     {"defaultConfiguration", {{"level", level(rule.severity)}}}});
  }
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const auto& d : report.diagnostics) {
    nlohmann::ordered_json physical = {{"artifactLocation", {{"uri", sarif_uri(d.where.file, display_base)}}}};
    if (d.where.line > 0) {
      physical["region"] = {{"startLine", d.where.line}, {"startColumn", std::max(d.where.column, 1)}};
    }
    nlohmann::ordered_json result = {{"ruleId", d.rule}};
    auto rule = std::ranges::find_if(report.rules, [&](const LintRule& r) { return r.id == d.rule; });
    if (rule != report.rules.end()) result["ruleIndex"] = rule - report.rules.begin();
    result["level"] = level(d.severity);
    result["message"] = {{"text", d.message}};
    result["locations"] = nlohmann::ordered_json::array({{{"physicalLocation", physical}}});
    results.push_back(std::move(result));
  }
  nlohmann::ordered_json driver = {{"name", "torch-abi-check"},
                                   {"version", TORCH_ABI_CHECK_VERSION},
                                   {"rules", rules}};
  nlohmann::ordered_json document = {
      {"$schema", "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", nlohmann::ordered_json::array({{{"tool", {{"driver", driver}}}, {"results", results}}})}};
  return document.dump(2) + "\n";
}

}  // namespace abicheck
