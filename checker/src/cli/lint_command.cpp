#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "lint/lint_runs.h"
#include "lint/lint_suppressions.h"
#include "report/lint_render.h"
#include "report/report_document.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

struct LintOptions {
  std::string path;
  std::string torch;
  std::optional<std::string> target;
  fs::path root;
  fs::path baselines;
  ReportOutputs outputs;
  std::optional<fs::path> suppressions;
  fs::path inventory;  // lint headers: an inventory already collected from the headers
  bool stamp_baseline = false;
};

// Read before the lint runs, so that a bad file stops the command before minutes of parsing.
std::optional<SuppressionFile> read_suppressions(const LintOptions& options) {
  if (!options.suppressions) return std::nullopt;
  return load_lint_suppressions(*options.suppressions, suppression_today());
}

ExitCode finish_lint(std::string_view command, LintRun run, std::optional<SuppressionFile> suppressions,
                     const LintOptions& options, std::chrono::steady_clock::time_point started) {
  if (suppressions) apply_lint_suppressions(*suppressions, run.report);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  for (const auto& note : run.notes) std::cerr << "lint: note: " << note << "\n";
  const LintReport& report = run.report;
  fs::path base = fs::current_path();
  nlohmann::json document =
      new_report_document(command, fmt::format("torch-abi-check {}", command), judge_lint(report, base));
  document["lint"] = lint_section(report, base);
  ExitCode exit_code = finish_command(document, options.outputs, render_lint_text(report, base));
  std::size_t errors = std::ranges::count(report.diagnostics, LintSeverity::Error, &LintDiagnostic::severity);
  std::cerr << fmt::format(
      "lint: {} error(s), {} warning(s){}, {:.1f} s\n", errors, report.diagnostics.size() - errors,
      run.translation_units ? fmt::format(" in {} translation unit(s)", run.translation_units) : "", seconds);
  return exit_code;
}

ExitCode run_lint_extension(const CommonOptions& common, const LintOptions& options) {
  auto started = std::chrono::steady_clock::now();
  std::optional<SuppressionFile> suppressions = read_suppressions(options);
  ReleaseStore store = open_store(common);
  ResolvedRelease build = store.resolve(options.torch.empty() ? "newest" : options.torch);
  ExtensionLintRequest request{options.path, std::nullopt, options.root, baselines_or_default(options.baselines)};
  if (options.target) request.target = TorchVersion::parse(*options.target);
  return finish_lint("lint extension", lint_extension(store, build, request), std::move(suppressions), options,
                     started);
}

ExitCode run_lint_headers(const CommonOptions& common, const LintOptions& options) {
  auto started = std::chrono::steady_clock::now();
  std::optional<SuppressionFile> suppressions = read_suppressions(options);
  ReleaseStore store = open_store(common);
  HeaderLintRequest request{options.torch, std::nullopt, baselines_or_default(options.baselines),
                            options.stamp_baseline};
  if (!options.inventory.empty()) request.inventory = load_inventory(options.inventory);
  return finish_lint("lint headers", lint_headers(store, request), std::move(suppressions), options, started);
}

void add_suppressions_option(CLI::App* command, std::optional<fs::path>& path) {
  as_operand(command->add_option("--suppressions", path,
                                 "TOML file of accepted findings ([[finding]] rule, file glob), each with a reason and "
                                 "an optional expiry (docs/suppressions.md)"),
             Operand::File);
}

}  // namespace

void add_lint_command(CLI::App& app, const CommonOptions& common, CommandAction& action) {
  auto options = std::make_shared<LintOptions>();
  auto* lint = app.add_subcommand("lint", "TORCH_TARGET_VERSION lints of extension sources and of torch's headers");
  lint->require_subcommand(1);

  auto* extension = lint->add_subcommand("extension", "lint an extension's sources (rules E001-E012)");
  as_operand(extension->add_option("path", options->path, "the project directory, or its compile_commands.json"),
             Operand::FileOrDirectory)
      ->required();
  as_operand(extension->add_option("--torch", options->torch,
                                   "build torch B: a store release (2.12), a torch package dir or an include dir "
                                   "(default: the newest installed)"),
             Operand::Release);
  as_operand(extension->add_option("--target", options->target,
                                   "the target the build passes when the sources and build files do not say (2.10 or "
                                   "0x…)"),
             Operand::Version);
  as_operand(extension->add_option("--root", options->root,
                                   "the project's root: its files are the ones linted (default: the directory given, "
                                   "or the project of the compile_commands.json)"),
             Operand::Directory);
  add_suppressions_option(extension, options->suppressions);
  add_baselines_option(extension, options->baselines);
  add_output_options(extension, options->outputs);
  extension->callback(
      [&action, &common, options] { action = [&common, options] { return run_lint_extension(common, *options); }; });

  auto* headers =
      lint->add_subcommand("headers", "lint torch's stable headers against the earlier baselines (H001-H007)");
  as_operand(
      headers->add_option("--torch", options->torch, "a store release (2.12), a torch package dir or an include dir"),
      Operand::Release)
      ->required();
  as_operand(headers->add_option("--inventory", options->inventory,
                                 "lint this inventory (as `inventory --json` wrote it from the same headers) instead "
                                 "of collecting it again"),
             Operand::File);
  headers->add_flag("--stamp-baseline", options->stamp_baseline,
                    "collect the inventory, and when it equals the committed <baselines>/<release>/inventory.json, "
                    "record these headers' hash beside it (inventory.source.json) so that later runs reuse it");
  add_suppressions_option(headers, options->suppressions);
  add_baselines_option(headers, options->baselines);
  add_output_options(headers, options->outputs);
  headers->callback(
      [&action, &common, options] { action = [&common, options] { return run_lint_headers(common, *options); }; });
}

}  // namespace abicheck
