#include "report/report_formats.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <set>

#include "core/atomic_file.h"
#include "report/canary_render.h"
#include "report/html_report.h"
#include "report/junit.h"
#include "report/matrix_render.h"
#include "report/report_document.h"
#include "report/sarif.h"

namespace abicheck {
namespace {

using json = nlohmann::json;

std::string string_field(const json& object, const char* key) { return object.value(key, ""); }

bool is_error(const json& finding) { return string_field(finding, "severity") != "warning"; }

// Findings of the matrix (and of check's smoke runs, which are matrix cells) and of the canary are
// told by the cells.
bool told_by_cells(const json& finding) {
  std::string stage = string_field(finding, "stage");
  return stage == "matrix" || stage == "smoke" || stage == "canary";
}

std::string markdown_cell(const std::string& value) {
  std::string escaped;
  for (char c : value) {
    if (c == '|') escaped += "\\|";
    else if (c == '\n') escaped += ' ';
    else escaped += c;
  }
  return escaped;
}

}  // namespace

bool ReportOutputs::takes_stdout() const {
  for (const auto* path : {&json, &html, &junit, &sarif, &markdown}) {
    if (*path == "-") return true;
  }
  return false;
}

std::string render_report_junit(const json& document) {
  std::string command = string_field(document, "command");
  std::vector<JUnitCase> cases;
  if (document.contains("matrix")) cases = matrix_junit_cases(document["matrix"]);
  if (document.contains("canary")) {
    auto canary = canary_junit_cases(document["canary"]);
    cases.insert(cases.end(), canary.begin(), canary.end());
  }
  std::set<std::string> stages_with_findings;
  for (const auto& finding : document.at("verdict").at("findings")) {
    if (!is_error(finding)) continue;
    stages_with_findings.insert(string_field(finding, "stage"));
    if (told_by_cells(finding)) continue;
    cases.push_back({.class_name = command + "." + string_field(finding, "stage"),
                     .name = string_field(finding, "where"),
                     .outcome = JUnitCase::Outcome::Failed,
                     .message = fmt::format("[{}] {}", string_field(finding, "kind"), message_with_notes(finding))});
  }
  for (const char* stage : {"diff", "lint", "audit"}) {
    std::string section = stage == std::string_view("diff") ? "diffs" : stage;
    if (document.contains(section) && !stages_with_findings.contains(stage)) {
      cases.push_back({.class_name = command + "." + stage, .name = "no finding"});
    }
  }
  return render_junit("torch-abi-check " + command, cases);
}

std::string render_report_markdown(const json& document) {
  const json& verdict = document.at("verdict");
  std::string markdown = fmt::format("# {}\n\n**{}**\n\n", string_field(document, "title"),
                                     verdict.value("exit_code", 0) == 0 ? "No finding" : "Findings");
  for (const auto& line : verdict.at("lines")) markdown += fmt::format("- {}\n", line.get<std::string>());
  if (std::string line = consequence_line(verdict); !line.empty()) markdown += fmt::format("- {}\n", line);
  const json& findings = verdict.at("findings");
  if (!findings.empty()) {
    markdown += "\n## Findings\n\n| stage | kind | severity | where | message |\n|---|---|---|---|---|\n";
    for (const auto& finding : findings) {
      markdown +=
          fmt::format("| {} | {} | {} | `{}` | {} |\n", string_field(finding, "stage"), string_field(finding, "kind"),
                      string_field(finding, "severity"), markdown_cell(string_field(finding, "where")),
                      markdown_cell(message_with_notes(finding)));
    }
  }
  if (document.contains("matrix")) markdown += "\n## Matrix\n\n" + render_matrix_markdown(document["matrix"]);
  if (document.contains("canary")) markdown += "\n## Canary\n\n" + render_canary_markdown(document["canary"]);
  return markdown;
}

void write_report_outputs(const json& document, const ReportOutputs& outputs) {
  // Everything is rendered before anything is written, so a renderer that fails leaves no file behind.
  std::vector<std::pair<std::string, std::string>> files;
  if (outputs.json) files.emplace_back(*outputs.json, document.dump(2) + "\n");
  if (outputs.html) files.emplace_back(*outputs.html, render_html_report(document));
  if (outputs.junit) files.emplace_back(*outputs.junit, render_report_junit(document));
  if (outputs.sarif) files.emplace_back(*outputs.sarif, render_report_sarif(document));
  if (outputs.markdown) files.emplace_back(*outputs.markdown, render_report_markdown(document));
  for (const auto& [path, content] : files) write_file_atomically(path, content);
}

}  // namespace abicheck
