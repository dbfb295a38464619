#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "gate/release_gate.h"
#include "report/aoti_render.h"
#include "report/canary_render.h"
#include "report/gate_report.h"
#include "report/matrix_render.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

struct ReleaseGateOptions {
  std::string candidate;
  std::optional<std::string> last;
  MatrixRunFlags run;
  CanaryRunFlags canary;
  AotiRunFlags aoti;
  fs::path baselines;
  ReportOutputs outputs;
};

ExitCode run_release_gate_command(const CommonOptions& common, const ReleaseGateOptions& options) {
  ReleaseGateRequest request;
  request.candidate = options.candidate;
  if (options.last) request.last = TorchVersion::parse(*options.last);
  request.spec = load_matrix_spec(spec_or_default(options.run));
  request.baselines = baselines_or_default(options.baselines);
  request.matrix = matrix_options_from(options.run);
  request.canary = canary_spec_from(options.canary);
  request.canary_options = canary_options_from(options.run);
  ReleaseStore store = open_store(common);
  request.aoti = !options.aoti.skip;
  request.aoti_options = aoti_options_from(options.run, options.aoti, store);
  ReleaseGateResult result = run_release_gate(store, request);

  nlohmann::json document = release_gate_document(result);
  std::string text;
  for (const auto& note : result.lint.notes) text += "lint: note: " + note + "\n";
  text += render_matrix_grid(document["matrix"]);
  if (document.contains("canary")) text += render_canary_grid(document["canary"]);
  if (document.contains("aoti")) text += render_aoti_text(document["aoti"]);
  for (const auto& line : document["verdict"]["lines"]) text += line.get<std::string>() + "\n";
  return finish_command(document, options.outputs, text);
}

}  // namespace

void add_release_gate_command(CLI::App& app, const CommonOptions& common, CommandAction& action) {
  auto options = std::make_shared<ReleaseGateOptions>();
  auto* gate = app.add_subcommand(
      "release-gate",
      "check a torch release candidate: ABI diff against the last release, header lint, old builds run under it");
  as_operand(gate->add_option("--candidate", options->candidate,
                              "a torch package directory (<env>/lib/pythonX.Y/site-packages/torch) or a version (from "
                              "the store; installed when missing)"),
             Operand::Release)
      ->required();
  as_operand(gate->add_option("--last", options->last,
                              "the release it must stay compatible with (default: the newest committed baseline before "
                              "it)"),
             Operand::Release);
  add_matrix_run_options(gate, options->run);
  add_baselines_option(gate, options->baselines);
  add_canary_run_options(gate, options->canary);
  add_aoti_run_options(gate, options->aoti,
                       "stored releases that compile the AOTInductor reference models loaded into the candidate "
                       "(repeatable; default: every stored release before the candidate)");
  add_output_options(gate, options->outputs);
  gate->callback([&action, &common, options] {
    action = [&common, options] { return run_release_gate_command(common, *options); };
  });
}

}  // namespace abicheck
