#include "report/sarif.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "report/report_document.h"

namespace abicheck {
namespace {

using ordered = nlohmann::ordered_json;

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

std::string sarif_uri(const std::string& file) {
  if (std::filesystem::path(file).is_absolute()) return "file://" + path_to_uri(file);
  return path_to_uri(file);
}

std::string sarif_level(const std::string& severity) { return severity == "warning" ? "warning" : "error"; }

}  // namespace

std::string render_report_sarif(const nlohmann::json& document) {
  ordered rules = ordered::array();
  std::vector<std::string> rule_ids;
  auto add_rule = [&](const std::string& id, const std::string& name, const std::string& severity,
                      const std::string& summary) {
    rule_ids.push_back(id);
    rules.push_back({{"id", id},
                     {"name", name},
                     {"shortDescription", {{"text", summary}}},
                     {"help", {{"text", fmt::format("See docs/lint-rules.md, section {}.", id)}}},
                     {"defaultConfiguration", {{"level", sarif_level(severity)}}}});
  };
  if (document.contains("lint")) {
    for (const auto& rule : document["lint"].value("rules", nlohmann::json::array())) {
      add_rule(rule.value("id", ""), rule.value("name", ""), rule.value("severity", "error"),
               rule.value("summary", ""));
    }
  }
  ordered results = ordered::array();
  for (const auto& finding : document.at("verdict").at("findings")) {
    std::string file = finding.value("file", "");
    if (file.empty()) continue;
    std::string kind = finding.value("kind", "");
    auto known = std::ranges::find(rule_ids, kind);
    if (known == rule_ids.end()) {
      add_rule(kind, kind, finding.value("severity", "error"), fmt::format("{} finding", finding.value("stage", "")));
      known = rule_ids.end() - 1;
    }
    ordered physical = {{"artifactLocation", {{"uri", sarif_uri(file)}}}};
    int line = finding.value("line", 0);
    if (line > 0) physical["region"] = {{"startLine", line}, {"startColumn", std::max(finding.value("column", 0), 1)}};
    results.push_back({{"ruleId", kind},
                       {"ruleIndex", known - rule_ids.begin()},
                       {"level", sarif_level(finding.value("severity", "error"))},
                       {"message", {{"text", message_with_notes(finding)}}},
                       {"locations", ordered::array({{{"physicalLocation", physical}}})}});
  }
  ordered driver = {{"name", "torch-abi-check"}, {"version", TORCH_ABI_CHECK_VERSION}, {"rules", rules}};
  ordered sarif = {
      {"$schema", "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", ordered::array({{{"tool", {{"driver", driver}}}, {"results", results}}})}};
  return sarif.dump(2) + "\n";
}

}  // namespace abicheck
