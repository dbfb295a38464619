#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "matrix/matrix_judgement.h"
#include "matrix/matrix_spec.h"
#include "report/matrix_render.h"
#include "report/report_document.h"

namespace abicheck {
namespace {

struct MatrixCommandOptions {
  MatrixRunFlags run;
  ReportOutputs outputs;
};

ExitCode run_matrix_command(const CommonOptions& common, const MatrixCommandOptions& options) {
  std::filesystem::path spec_path = spec_or_default(options.run);
  MatrixSpec spec = load_matrix_spec(spec_path);
  MatrixResult result = run_matrix(spec, open_store(common), matrix_options_from(options.run));

  nlohmann::json document = new_report_document(
      "matrix", fmt::format("torch-abi-check matrix: {}", spec_path.filename().string()), judge_matrix(result));
  document["matrix"] = matrix_section(result);
  return finish_command(document, options.outputs, render_matrix_grid(document["matrix"]) + render_matrix_cost(result));
}

}  // namespace

void add_matrix_command(CLI::App& app, const CommonOptions& common, CommandAction& action) {
  auto options = std::make_shared<MatrixCommandOptions>();
  auto* matrix = app.add_subcommand(
      "matrix", "build the reference kernels at every (build, target) and run them under every runtime release");
  // The spec was a positional argument before --spec; it is still accepted there.
  matrix->add_option("spec", options->run.spec, "matrix spec (same as --spec)")->check(CLI::ExistingFile);
  add_matrix_run_options(matrix, options->run);
  add_output_options(matrix, options->outputs);
  matrix->callback(
      [&action, &common, options] { action = [&common, options] { return run_matrix_command(common, *options); }; });
}

}  // namespace abicheck
