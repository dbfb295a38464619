#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/command.h"
#include "core/atomic_file.h"
#include "report/html_report.h"

namespace abicheck {
namespace {

struct ReportOptions {
  std::vector<std::filesystem::path> inputs;
  std::optional<std::string> html_path;
  std::optional<std::string> json_path;
  std::string title;
};

nlohmann::json read_command_output(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ToolError(fmt::format("{}: cannot read", path.string()));
  std::ostringstream content;
  content << in.rdbuf();
  try {
    return nlohmann::json::parse(content.str());
  } catch (const nlohmann::json::parse_error& error) {
    throw ToolError(fmt::format("{}: not valid JSON (byte {})", path.string(), error.byte));
  }
}

ExitCode run_report_command(const ReportOptions& options) {
  nlohmann::json document = nlohmann::json::object();
  if (!options.title.empty()) document["title"] = options.title;
  for (const auto& input : options.inputs) add_to_report(document, read_command_output(input), input.string());

  if (options.html_path) write_file_atomically(*options.html_path, render_html_report(document));
  if (options.json_path) write_file_atomically(*options.json_path, document.dump(2) + "\n");
  ReportVerdict verdict = judge_report(document);
  std::ostream& out = options.html_path == "-" || options.json_path == "-" ? std::cerr : std::cout;
  for (const auto& line : verdict.lines) out << line << "\n";
  return verdict.has_findings ? ExitCode::Findings : ExitCode::Clean;
}

}  // namespace

void add_report_command(CLI::App& app, const CommonOptions&, CommandAction& action) {
  auto options = std::make_shared<ReportOptions>();
  auto* report = app.add_subcommand(
      "report", "combine the --json outputs of matrix, diff, lint and audit into one HTML report");
  report->add_option("inputs", options->inputs, "JSON files written by matrix, diff, lint or audit --json")
      ->required()
      ->check(CLI::ExistingFile);
  report->add_option("--html", options->html_path, "write the self-contained HTML report to FILE (- for standard output)");
  report->add_option("--json", options->json_path, "write the combined report document to FILE");
  report->add_option("--title", options->title, "the report's title");
  report->callback([&action, options] {
    action = [options] { return run_report_command(*options); };
  });
}

}  // namespace abicheck
