#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "report/report_document.h"

namespace abicheck {
namespace {

struct ReportOptions {
  std::vector<std::filesystem::path> inputs;
  ReportOutputs outputs;
  std::string title;
};

ExitCode run_report_command(const ReportOptions& options) {
  std::vector<nlohmann::json> documents;
  std::vector<std::string> sources;
  for (const auto& input : options.inputs) {
    documents.push_back(read_report_document(input));
    sources.push_back(input.string());
  }
  // One document is rendered as it is, so `X --json f` and `report f` show the same verdict.
  nlohmann::json document =
      documents.size() == 1 ? documents.front() : merge_report_documents(documents, sources, "torch-abi-check report");
  if (!options.title.empty()) document["title"] = options.title;
  std::string text;
  for (const auto& line : document["verdict"]["lines"]) text += line.get<std::string>() + "\n";
  return finish_command(document, options.outputs, text);
}

}  // namespace

void add_report_command(CLI::App& app, const CommonOptions&, CommandAction& action) {
  auto options = std::make_shared<ReportOptions>();
  auto* report = app.add_subcommand(
      "report", "render the --json output of any command (or several joined) as HTML, JUnit, SARIF, Markdown or JSON");
  as_operand(report->add_option("inputs", options->inputs, "JSON files written by a command's --json"), Operand::File)
      ->required();
  add_output_options(report, options->outputs);
  report->add_option("--title", options->title, "the report's title");
  report->callback([&action, options] { action = [options] { return run_report_command(*options); }; });
}

}  // namespace abicheck
