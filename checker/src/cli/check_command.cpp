#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "audit/pt2_package.h"
#include "check/extension_check.h"
#include "check/package_check.h"
#include "cli/command.h"
#include "core/log_progress.h"
#include "report/check_render.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

struct CheckCommandOptions {
  fs::path project;
  std::optional<fs::path> config;
  std::optional<fs::path> work_dir;
  fs::path baselines;
  bool fresh = false;
  ReportOutputs outputs;
};

std::function<void(const std::string&)> check_progress() {
  if (isatty(STDERR_FILENO)) return [](const std::string& line) { std::cerr << "check: " << line << "\n"; };
  // A log: every step's line, and from the first (the lint's, or the package's audit) a heartbeat while a
  // build, smoke run or load takes long. Nothing before it, so that bad input stays one error line.
  // The count is shared: run_check copies the request, and with it this function.
  auto log = std::make_shared<LogProgress>("check", stderr, std::chrono::milliseconds(0));
  auto steps = std::make_shared<int>(0);
  return [log, steps](const std::string& line) { log->update(++*steps, 0, line); };
}

// `check MODEL.pt2`: the package's audit and its loads under every stored release from its minimum on.
ExitCode run_package_check_command(const CommonOptions& common, const CheckCommandOptions& options) {
  if (options.config) {
    throw ToolError(
        fmt::format("{}: --config is a project's settings; a .pt2 package takes none", options.config->string()));
  }
  require_loadable_pt2(options.project);  // bad input before the store is opened
  PackageCheckRequest request{.package = options.project,
                              .work_dir = options.work_dir.value_or(default_check_work_dir(options.project)),
                              .baselines = baselines_or_default(options.baselines),
                              .fresh = options.fresh,
                              .jobs = jobs_or_cores(0),
                              .progress = check_progress()};
  PackageCheckResult result = run_package_check(open_store(common), request);
  nlohmann::json document = package_check_document(result);
  return finish_command(document, options.outputs, render_package_check_text(document));
}

ExitCode run_check_command(const CommonOptions& common, const CheckCommandOptions& options) {
  if (is_package_check_input(options.project)) return run_package_check_command(common, options);
  ReleaseStore store = open_store(common);
  CheckRequest request{.project = options.project,
                       .config_file = options.config,
                       .work_dir = options.work_dir.value_or(default_check_work_dir(options.project)),
                       .baselines = baselines_or_default(options.baselines),
                       .fresh = options.fresh};
  request.progress = check_progress();
  CheckResult result = run_check(store, request);
  return finish_command(check_document(result), options.outputs, render_check_text(result));
}

}  // namespace

void add_check_command(CLI::App& app, const CommonOptions& common, CommandAction& action) {
  auto options = std::make_shared<CheckCommandOptions>();
  auto* check = app.add_subcommand(
      "check",
      "lint, build, audit and smoke-test an extension project under every torch from its target to the newest (or "
      "audit an AOTInductor .pt2 package and load it under every stored torch from its minimum on)");
  as_operand(
      check->add_option("dir", options->project,
                        "the project directory (CMakeLists.txt, setup.py or compile_commands.json), or a .pt2 package"),
      Operand::FileOrDirectory)
      ->required();
  as_operand(check->add_option(
                 "--config", options->config,
                 "a TOML file with the settings of [tool.torch-abi-check] (default: the project's pyproject.toml)"),
             Operand::File);
  as_operand(check->add_option("--work-dir", options->work_dir,
                               "where builds and smoke runs go, outside the project (default: "
                               "~/.cache/torch-abi-check/check/<hash>)"),
             Operand::WorkDirectory);
  add_baselines_option(check, options->baselines);
  check->add_flag("--fresh", options->fresh, "rebuild even when a cached build matches");
  add_output_options(check, options->outputs);
  check->callback(
      [&action, &common, options] { action = [&common, options] { return run_check_command(common, *options); }; });
}

}  // namespace abicheck
