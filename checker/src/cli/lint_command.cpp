#include <chrono>
#include <fmt/format.h>
#include <iostream>

#include "cli/command.h"
#include "core/atomic_file.h"
#include "core/project_paths.h"
#include "inventory/inventory_collector.h"
#include "lint/extension/extension_parser.h"
#include "lint/headers/header_rules.h"
#include "lint/extension/extension_rules.h"
#include "lint/extension/extension_sources.h"
#include "lint/lint_output.h"
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
};

ReleaseStore open_store(const CommonOptions& common) {
  return ReleaseStore(common.store_root.empty() ? ReleaseStore::default_root() : common.store_root);
}

fs::path baselines_dir(const LintOptions& options) {
  return options.baselines.empty() ? project_root() / "shim_decls" : options.baselines;
}

// Releases the rules may call known: those with a committed baseline and those in the store.
std::vector<TorchVersion> known_releases(const ReleaseStore& store, const fs::path& baselines) {
  std::vector<TorchVersion> known;
  for (const auto& release : store.releases()) known.push_back(release.version.minor_release());
  std::error_code error;
  if (fs::is_directory(baselines, error)) {
    for (const auto& entry : fs::directory_iterator(baselines, error)) {
      if (auto version = TorchVersion::try_parse(entry.path().filename().string())) known.push_back(*version);
    }
  }
  std::ranges::sort(known);
  known.erase(std::ranges::unique(known).begin(), known.end());
  return known;
}

void write_reports(const LintReport& report, const LintOptions& options, double seconds, std::size_t units) {
  fs::path base = fs::current_path();
  std::cout << render_lint_text(report, base);
  if (options.json_path) write_file_atomically(*options.json_path, render_lint_json(report, base));
  if (options.sarif_path) write_file_atomically(*options.sarif_path, render_lint_sarif(report, base));
  std::size_t errors = std::ranges::count(report.diagnostics, LintSeverity::Error, &LintDiagnostic::severity);
  std::cerr << fmt::format("lint: {} error(s), {} warning(s){}, {:.1f} s\n", errors, report.diagnostics.size() - errors,
                           units ? fmt::format(" in {} translation unit(s)", units) : "", seconds);
}

ExitCode lint_extension(const CommonOptions& common, const LintOptions& options) {
  auto started = std::chrono::steady_clock::now();
  ReleaseStore store = open_store(common);
  StoredRelease build = options.torch.empty() ? [&] {
    auto releases = store.releases();
    if (releases.empty()) throw ToolError(fmt::format("{}: no torch release installed (run: torch-abi-check store install)", store.root().string()));
    return releases.back();
  }()
                                              : store.require(options.torch);
  ExtensionSources sources = find_extension_sources(options.path);
  if (!options.root.empty()) sources.root = fs::absolute(options.root).lexically_normal();
  if (options.target) {
    TorchVersion target = TorchVersion::parse(*options.target);
    for (auto& unit : sources.units) {
      if (!unit.command_line_targets.empty()) continue;
      unit.arguments.push_back("-DTORCH_TARGET_VERSION=" + target.to_abi_hex());
      unit.command_line_targets.push_back(
          {{unit.source, 0, 0}, TargetDefinition::Origin::Option, target.to_abi_hex(), target.abi_value()});
    }
  }
  ParseEnvironment environment{build.include_dir,
                               build.cuda_major ? find_cuda_include_dirs(store.root(), *build.cuda_major)
                                                : std::vector<fs::path>{},
                               sources.root};
  ExtensionFacts facts = collect_extension_facts(sources, environment);

  fs::path inventory_path = baselines_dir(options) / build.version.to_string() / "inventory.json";
  std::optional<ShimInventory> inventory;
  if (fs::exists(inventory_path)) {
    inventory = load_inventory(inventory_path);
  } else {
    std::cerr << fmt::format("lint: note: {} does not exist; E003 (API newer than the target) is not checked\n",
                             inventory_path.string());
  }
  ExtensionLintContext context{build.version.minor_release(), known_releases(store, baselines_dir(options)),
                               inventory ? &*inventory : nullptr};
  LintReport report;
  for (const auto& rule : extension_rules()) report.rules.push_back(rule.rule);
  report.diagnostics = run_extension_rules(facts, context);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  write_reports(report, options, seconds, facts.units.size());
  return lint_exit_code(report);
}

// A store release ("2.12"), a torch package dir (…/site-packages/torch) or an include dir.
fs::path header_tree(const ReleaseStore& store, const std::string& torch) {
  if (TorchVersion::try_parse(torch) && !fs::exists(torch)) return store.require(torch).include_dir;
  if (fs::is_directory(fs::path(torch) / "include" / "torch" / "csrc" / "stable")) return fs::path(torch) / "include";
  if (fs::is_directory(fs::path(torch) / "torch" / "csrc" / "stable")) return torch;
  throw ToolError(fmt::format("{}: neither a store release nor a tree with torch/csrc/stable", torch));
}

ExitCode lint_headers(const CommonOptions& common, const LintOptions& options) {
  auto started = std::chrono::steady_clock::now();
  ReleaseStore store = open_store(common);
  HeaderLintInput input;
  input.include_dir = fs::absolute(header_tree(store, options.torch)).lexically_normal();
  input.candidate = options.inventory.empty() ? collect_inventory(input.include_dir) : load_inventory(options.inventory);
  fs::path baselines = baselines_dir(options);
  for (const auto& release : known_releases(store, baselines)) {
    fs::path file = baselines / release.to_string() / "inventory.json";
    if (release < input.candidate.release.minor_release() && fs::exists(file)) input.earlier.push_back(load_inventory(file));
  }
  if (input.earlier.empty()) {
    std::cerr << fmt::format("lint: note: no baseline older than {} in {}; nothing to compare with\n",
                             input.candidate.release.to_string(), baselines.string());
  }
  LintReport report;
  for (const auto& rule : header_rules()) report.rules.push_back(rule.rule);
  report.diagnostics = run_header_rules(input);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  write_reports(report, options, seconds, 0);
  return lint_exit_code(report);
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
    action = [&common, options] { return lint_extension(common, *options); };
  });

  auto* headers = lint->add_subcommand("headers", "lint torch's stable headers against the earlier baselines (H001-H006)");
  headers->add_option("--torch", options->torch, "a store release (2.12), a torch package dir or an include dir")
      ->required();
  headers->add_option("--inventory", options->inventory,
                      "lint this inventory (as `inventory --json` wrote it from the same headers) instead of "
                      "collecting it again")
      ->check(CLI::ExistingFile);
  add_report_options(headers, *options);
  headers->callback([&action, &common, options] {
    action = [&common, options] { return lint_headers(common, *options); };
  });
}

}  // namespace abicheck
