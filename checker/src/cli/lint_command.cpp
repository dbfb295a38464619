#include <chrono>
#include <fmt/format.h>
#include <iostream>

#include "cli/command.h"
#include "core/atomic_file.h"
#include "core/project_paths.h"
#include "lint/lint_runs.h"
#include "store/release_store.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

struct LintOptions {
  std::string path;
  std::string torch;
  std::optional<std::string> target;
  fs::path root;
  fs::path baselines;
  std::optional<std::string> json_path;
  std::optional<std::string> sarif_path;
  fs::path inventory;  // lint headers: an inventory already collected from the headers
  bool stamp_baseline = false;
};

ReleaseStore open_store(const CommonOptions& common) {
  return ReleaseStore(common.store_root.empty() ? ReleaseStore::default_root() : common.store_root);
}

fs::path baselines_dir(const LintOptions& options) {
  return options.baselines.empty() ? project_root() / "shim_decls" : options.baselines;
}

ExitCode write_reports(const LintRun& run, const LintOptions& options,
                       std::chrono::steady_clock::time_point started) {
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  for (const auto& note : run.notes) std::cerr << "lint: note: " << note << "\n";
  const LintReport& report = run.report;
  fs::path base = fs::current_path();
  std::cout << render_lint_text(report, base);
  if (options.json_path) write_file_atomically(*options.json_path, render_lint_json(report, base));
  if (options.sarif_path) write_file_atomically(*options.sarif_path, render_lint_sarif(report, base));
  std::size_t errors = std::ranges::count(report.diagnostics, LintSeverity::Error, &LintDiagnostic::severity);
  std::cerr << fmt::format("lint: {} error(s), {} warning(s){}, {:.1f} s\n", errors, report.diagnostics.size() - errors,
                           run.translation_units ? fmt::format(" in {} translation unit(s)", run.translation_units) : "",
                           seconds);
  return lint_exit_code(report);
}

ExitCode run_lint_extension(const CommonOptions& common, const LintOptions& options) {
  auto started = std::chrono::steady_clock::now();
  ReleaseStore store = open_store(common);
  StoredRelease build = options.torch.empty() ? store.require_newest() : store.require(options.torch);
  ExtensionLintRequest request{options.path, std::nullopt, options.root, baselines_dir(options)};
  if (options.target) request.target = TorchVersion::parse(*options.target);
  return write_reports(lint_extension(store, build, request), options, started);
}

ExitCode run_lint_headers(const CommonOptions& common, const LintOptions& options) {
  auto started = std::chrono::steady_clock::now();
  ReleaseStore store = open_store(common);
  HeaderLintRequest request{options.torch, std::nullopt, baselines_dir(options), options.stamp_baseline};
  if (!options.inventory.empty()) request.inventory = load_inventory(options.inventory);
  return write_reports(lint_headers(store, request), options, started);
}

void add_report_options(CLI::App* command, LintOptions& options) {
  command->add_option("--json", options.json_path, "write the diagnostics as JSON to FILE (- for standard output)");
  command->add_option("--sarif", options.sarif_path, "write the diagnostics as SARIF 2.1.0 to FILE");
  command->add_option("--baselines", options.baselines, "committed baselines (default: shim_decls/ of the project)");
}

}  // namespace

void add_lint_command(CLI::App& app, const CommonOptions& common, CommandAction& action) {
  auto options = std::make_shared<LintOptions>();
  auto* lint = app.add_subcommand("lint", "TORCH_TARGET_VERSION lints of extension sources and of torch's headers");
  lint->require_subcommand(1);

  auto* extension = lint->add_subcommand("extension", "lint an extension's sources (rules E001-E008)");
  extension->add_option("path", options->path, "the project directory, or its compile_commands.json")->required();
  extension->add_option("--torch", options->torch, "build torch B from the store (default: the newest installed)");
  extension->add_option("--target", options->target,
                        "the target the build passes when the sources and build files do not say (2.10 or 0x…)");
  extension->add_option("--root", options->root,
                        "the project's root: its files are the ones linted (default: the directory given, or the "
                        "project of the compile_commands.json)")
      ->check(CLI::ExistingDirectory);
  add_report_options(extension, *options);
  extension->callback([&action, &common, options] {
    action = [&common, options] { return run_lint_extension(common, *options); };
  });

  auto* headers = lint->add_subcommand("headers", "lint torch's stable headers against the earlier baselines (H001-H006)");
  headers->add_option("--torch", options->torch, "a store release (2.12), a torch package dir or an include dir")
      ->required();
  headers->add_option("--inventory", options->inventory,
                      "lint this inventory (as `inventory --json` wrote it from the same headers) instead of "
                      "collecting it again")
      ->check(CLI::ExistingFile);
  headers->add_flag("--stamp-baseline", options->stamp_baseline,
                    "collect the inventory, and when it equals the committed <baselines>/<release>/inventory.json, "
                    "record these headers' hash beside it (inventory.source.json) so that later runs reuse it");
  add_report_options(headers, *options);
  headers->callback([&action, &common, options] {
    action = [&common, options] { return run_lint_headers(common, *options); };
  });
}

}  // namespace abicheck
