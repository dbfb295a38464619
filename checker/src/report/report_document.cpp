#include "report/report_document.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/file_text.h"
#include "core/tool_error.h"
#include "report/release_order.h"

namespace abicheck {
namespace {

using json = nlohmann::json;

json finding_json(const Finding& finding) {
  json item = {{"stage", finding.stage},
               {"kind", finding.kind},
               {"severity", to_string(finding.severity)},
               {"where", finding.where},
               {"message", finding.message}};
  if (!finding.file.empty()) {
    item["file"] = finding.file;
    item["line"] = finding.line;
    item["column"] = finding.column;
  }
  if (finding.consequence != Consequence::Unstated) item["consequence"] = to_string(finding.consequence);
  if (!finding.notes.empty()) item["notes"] = finding.notes;
  return item;
}

Consequence consequence_named(std::string_view name) {
  for (Consequence c : {Consequence::DoesNotCompile, Consequence::DoesNotLoad, Consequence::FailsAtCallTime}) {
    if (to_string(c) == name) return c;
  }
  return Consequence::Unstated;
}

// The error findings by what they say happens to an extension: every consequence, "unstated" too.
json consequence_counts(const std::vector<Finding>& findings) {
  json counts = json::object();
  for (Consequence c :
       {Consequence::DoesNotCompile, Consequence::DoesNotLoad, Consequence::FailsAtCallTime, Consequence::Unstated}) {
    counts[std::string(to_string(c))] = std::ranges::count_if(
        findings, [c](const Finding& f) { return f.severity == FindingSeverity::Error && f.consequence == c; });
  }
  return counts;
}

Finding finding_from_json(const json& item) {
  Finding finding{
      .stage = item.value("stage", ""),
      .kind = item.value("kind", ""),
      .severity = item.value("severity", "error") == "warning" ? FindingSeverity::Warning : FindingSeverity::Error,
      .where = item.value("where", ""),
      .message = item.value("message", ""),
      .file = item.value("file", ""),
      .line = item.value("line", 0),
      .column = item.value("column", 0),
      .consequence = consequence_named(item.value("consequence", "")),
      .notes = item.value("notes", std::vector<std::string>{})};
  return finding;
}

}  // namespace

json new_report_document(std::string_view command, std::string_view title, const Judgement& judgement) {
  json findings = json::array();
  for (const auto& finding : judgement.findings) findings.push_back(finding_json(finding));
  json kinds = json::array();
  for (const auto& kind : judgement.kinds) {
    kinds.push_back(
        {{"stage", kind.stage}, {"kind", kind.kind}, {"meaning", kind.text.meaning}, {"remedy", kind.text.remedy}});
  }
  return {{"schema_version", kReportSchemaVersion},
          {"command", command},
          {"title", title},
          {"verdict",
           {{"exit_code", static_cast<int>(judgement.exit_code())},
            {"lines", judgement.lines},
            {"findings", findings},
            {"consequences", consequence_counts(judgement.findings)},
            {"kinds", kinds}}}};
}

std::string message_with_notes(const json& finding) {
  std::string text = finding.value("message", "");
  if (auto notes = finding.find("notes"); notes != finding.end() && notes->is_array()) {
    for (const auto& note : *notes) text += "; note: " + note.get<std::string>();
  }
  return text;
}

std::string consequence_line(const json& verdict) {
  if (verdict.value("exit_code", 0) == 0 || !verdict.contains("consequences")) return "";
  const json& counts = verdict["consequences"];
  return fmt::format("errors by consequence: {} do not compile, {} do not load, {} fail at call time, {} state none",
                     counts.value("does-not-compile", 0), counts.value("does-not-load", 0),
                     counts.value("fails-at-call-time", 0), counts.value("unstated", 0));
}

Judgement judgement_of(const json& document) {
  Judgement judgement;
  const json& verdict = document.at("verdict");
  for (const auto& line : verdict.at("lines")) judgement.lines.push_back(line.get<std::string>());
  for (const auto& item : verdict.at("findings")) judgement.findings.push_back(finding_from_json(item));
  for (const auto& item : verdict.at("kinds")) {
    judgement.kinds.push_back({.stage = item.at("stage"),
                               .kind = item.at("kind"),
                               .text = {.meaning = item.at("meaning"), .remedy = item.at("remedy")}});
  }
  return judgement;
}

json read_report_document(const std::filesystem::path& path) {
  json document;
  try {
    document = json::parse(read_file_text(path));
  } catch (const json::parse_error& error) {
    throw ToolError(fmt::format("{}: not valid JSON (byte {})", path.string(), error.byte));
  }
  if (!document.is_object() || !document.contains("schema_version")) {
    throw ToolError(fmt::format(
        "{}: not a torch-abi-check report (no schema_version; write it with a command's --json)", path.string()));
  }
  const json& version = document["schema_version"];
  if (!version.is_number_integer() || version.get<int>() != kReportSchemaVersion) {
    throw ToolError(fmt::format("{}: schema_version {} is not the one this torch-abi-check reads ({})", path.string(),
                                version.dump(), kReportSchemaVersion));
  }
  try {
    judgement_of(document);
  } catch (const json::exception&) {
    throw ToolError(fmt::format("{}: its verdict is malformed (see docs/schemas/report.schema.json)", path.string()));
  }
  return document;
}

json merge_report_documents(const std::vector<json>& documents, const std::vector<std::string>& sources,
                            std::string_view title) {
  Judgement merged;
  json sections = json::object();
  for (std::size_t i = 0; i < documents.size(); ++i) {
    const json& document = documents[i];
    merged.add(judgement_of(document));
    for (std::string_view name : kReportSections) {
      std::string key(name);
      if (!document.contains(key)) continue;
      if (key == "diffs") {
        for (const auto& diff : document[key]) sections[key].push_back(diff);
        continue;
      }
      if (sections.contains(key)) {
        throw ToolError(fmt::format("{}: holds a {} section, and an earlier input has one too; report them apart",
                                    sources[i], key));
      }
      sections[key] = document[key];
    }
  }
  if (sections.contains("diffs")) {
    json& diffs = sections["diffs"];
    std::stable_sort(diffs.begin(), diffs.end(), [](const json& a, const json& b) {
      if (a.value("old", "") != b.value("old", "")) return release_text_less(a.value("old", ""), b.value("old", ""));
      return release_text_less(a.value("new", ""), b.value("new", ""));
    });
  }
  json document = new_report_document("report", title, merged);
  for (auto& [key, value] : sections.items()) document[key] = std::move(value);
  return document;
}

}  // namespace abicheck
