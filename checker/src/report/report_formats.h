#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

namespace abicheck {

// Every format a command can write, each rendered from the report document (report_document.h),
// so `X --junit f` and `report X.json --junit f` give the same file.
struct ReportOutputs {
  std::optional<std::string> json;
  std::optional<std::string> html;
  std::optional<std::string> junit;
  std::optional<std::string> sarif;
  std::optional<std::string> markdown;

  // Whether one of them goes to standard output ("-"): the command's text then goes to stderr.
  bool takes_stdout() const;
};

// Writes each requested format; each file is replaced whole (never a partial report).
void write_report_outputs(const nlohmann::json& document, const ReportOutputs& outputs);

// JUnit: the matrix's cells and ops, one failing case per other finding, and one passing case per
// section that found nothing.
std::string render_report_junit(const nlohmann::json& document);
// Markdown: the verdict, the findings as a table, and the matrix grids.
std::string render_report_markdown(const nlohmann::json& document);

}  // namespace abicheck
