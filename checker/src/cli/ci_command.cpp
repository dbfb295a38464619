#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "job/main_job.h"
#include "report/aoti_render.h"
#include "report/canary_render.h"
#include "report/main_job_report.h"
#include "report/report_document.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

struct CiOptions {
  MatrixRunFlags run;
  fs::path baselines;
  fs::path out = "reports";
  std::string lint_torch;
  CanaryRunFlags canary;
  AotiRunFlags aoti;
  ReportOutputs outputs;
};

ExitCode run_ci_command(const CommonOptions& common, const CiOptions& options) {
  auto started = std::chrono::steady_clock::now();
  MainJobRequest request{.spec = load_matrix_spec(spec_or_default(options.run)),
                         .matrix = matrix_options_from(options.run),
                         .baselines = baselines_or_default(options.baselines),
                         .lint_torch = options.lint_torch};
  request.canary = canary_spec_from(options.canary);
  request.announce = [](const std::string& line) { fmt::print(stderr, "ci: {}\n", line); };
  request.canary_options = canary_options_from(options.run);
  ReleaseStore store = open_store(common);
  request.aoti = !options.aoti.skip;
  request.aoti_options = aoti_options_from(options.run, options.aoti, store);
  // By default the main job compiles the reference models at the oldest and the newest stored
  // release only (each package still loaded under every release from its own on): a compile costs
  // a minute of CPU, and the whole triangle would be most of a new machine's main job. `aoti` runs
  // the whole triangle; `--aoti-torch` names the releases.
  if (options.aoti.builds.empty()) {
    auto releases = store.releases();
    if (!releases.empty()) request.aoti_options.build_releases = {releases.front()};
    if (releases.size() > 1) request.aoti_options.build_releases.push_back(releases.back());
  }
  MainJobResult result = run_main_job(store, request);
  nlohmann::json document = main_job_document(result);

  // The report always goes to --out; the output flags add other formats or places.
  ReportOutputs outputs = options.outputs;
  fs::create_directories(options.out);
  if (!outputs.html) outputs.html = (options.out / "report.html").string();
  if (!outputs.json) outputs.json = (options.out / "report.json").string();

  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::string first =
      result.diffs.empty() ? result.lint_release.version.to_string() : result.diffs.front().old_release.to_string();
  // The canary's and the aoti suite's grids, then the summary: the summary stays the last screen.
  std::string text = document.contains("canary") ? render_canary_grid(document["canary"]) + "\n" : std::string();
  if (document.contains("aoti")) text += render_aoti_text(document["aoti"]) + "\n";
  text += fmt::format("== torch-abi-check main job: {} ... {}, {:.0f} s ==\n", first,
                      result.lint_release.version.to_string(), seconds);
  for (const auto& line : document["verdict"]["lines"]) text += line.get<std::string>() + "\n";
  bool clean = judgement_of(document).exit_code() == ExitCode::Clean;
  text += clean ? "verdict: no finding\n" : "verdict: findings (see the report)\n";
  text += fmt::format("report: {}\n        {}\n", *outputs.html, *outputs.json);
  return finish_command(document, outputs, text);
}

}  // namespace

void add_ci_command(CLI::App& app, const CommonOptions& common, CommandAction& action) {
  auto options = std::make_shared<CiOptions>();
  auto* ci = app.add_subcommand("ci",
                                "the main job: the matrix, the diff of every consecutive pair of baselines (and of "
                                "newer stored releases), the newest release's header "
                                "lint, the canary of published wheels and the AOTInductor suite, in one report");
  add_matrix_run_options(ci, options->run);
  add_baselines_option(ci, options->baselines);
  as_operand(ci->add_option("--out", options->out, "where report.html and report.json go (default: reports/)"),
             Operand::WorkDirectory);
  as_operand(ci->add_option("--lint-torch", options->lint_torch,
                            "the store release whose headers are linted (default: the newest)"),
             Operand::Release);
  add_canary_run_options(ci, options->canary);
  add_aoti_run_options(ci, options->aoti,
                       "stored releases that compile the AOTInductor reference models (repeatable; default: the "
                       "oldest and the newest); each package is loaded under every stored release from its own on");
  add_output_options(ci, options->outputs);
  ci->callback(
      [&action, &common, options] { action = [&common, options] { return run_ci_command(common, *options); }; });
}

}  // namespace abicheck
