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
  std::string shard;  // empty: the whole matrix
  ReportOutputs outputs;
};

ExitCode run_matrix_command(const CommonOptions& common, const MatrixCommandOptions& options) {
  std::filesystem::path spec_path = spec_or_default(options.run);
  MatrixOptions matrix_options = matrix_options_from(options.run);
  if (!options.shard.empty()) matrix_options.shard = MatrixShard::parse(options.shard);
  MatrixSpec spec = load_matrix_spec(spec_path);
  MatrixResult result = run_matrix(spec, open_store(common), matrix_options);

  std::string title = fmt::format("torch-abi-check matrix: {}", spec_path.filename().string());
  if (matrix_options.sample_builds) title += ", sampled builds";
  if (matrix_options.shard) title += fmt::format(", shard {}", matrix_options.shard->to_string());
  nlohmann::json document = new_report_document("matrix", title, judge_matrix(result));
  document["matrix"] = matrix_section(result);
  return finish_command(document, options.outputs, render_matrix_grid(document["matrix"]) + render_matrix_cost(result));
}

}  // namespace

void add_matrix_command(CLI::App& app, const CommonOptions& common, CommandAction& action) {
  auto options = std::make_shared<MatrixCommandOptions>();
  auto* matrix = app.add_subcommand(
      "matrix", "build the reference kernels at every (build, target) and run them under every runtime release");
  // The spec was a positional argument before --spec; it is still accepted there.
  auto* spec = as_operand(matrix->add_option("spec", options->run.spec, "matrix spec (same as --spec)"), Operand::File);
  add_matrix_run_options(matrix, options->run);
  spec->excludes("--spec");
  matrix->add_option("--shard", options->shard,
                     "run slice K of N (K/N): builds dealt round-robin, each with its cells; a run over the "
                     "shards' caches copied into one gives the whole report from the cache");
  add_output_options(matrix, options->outputs);
  matrix->callback(
      [&action, &common, options] { action = [&common, options] { return run_matrix_command(common, *options); }; });
}

}  // namespace abicheck
