#include "lint/lint_runs.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/tool_error.h"
#include "inventory/inventory_collector.h"
#include "lint/extension/extension_parser.h"
#include "lint/extension/extension_rules.h"
#include "lint/extension/extension_sources.h"
#include "lint/headers/header_rules.h"

namespace abicheck {

namespace fs = std::filesystem;

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

LintRun lint_extension(const ReleaseStore& store, const StoredRelease& build, const ExtensionLintRequest& request) {
  LintRun run;
  ExtensionSources sources = find_extension_sources(request.path);
  if (!request.root.empty()) sources.root = fs::absolute(request.root).lexically_normal();
  if (request.target) {
    for (auto& unit : sources.units) {
      if (!unit.command_line_targets.empty()) continue;
      unit.arguments.push_back("-DTORCH_TARGET_VERSION=" + request.target->to_abi_hex());
      unit.command_line_targets.push_back({{unit.source, 0, 0},
                                           TargetDefinition::Origin::Option,
                                           request.target->to_abi_hex(),
                                           request.target->abi_value()});
    }
  }
  ParseEnvironment environment{build.include_dir,
                               build.cuda_major ? find_cuda_include_dirs(store.root(), *build.cuda_major)
                                                : std::vector<fs::path>{},
                               sources.root};
  ExtensionFacts facts = collect_extension_facts(sources, environment);

  fs::path inventory_path = request.baselines / build.version.to_string() / "inventory.json";
  std::optional<ShimInventory> inventory;
  if (fs::exists(inventory_path)) {
    inventory = load_inventory(inventory_path);
  } else {
    run.notes.push_back(
        fmt::format("{} does not exist; E003 (API newer than the target) is not checked", inventory_path.string()));
  }
  ExtensionLintContext context{build.version.minor_release(), known_releases(store, request.baselines),
                               inventory ? &*inventory : nullptr};
  for (const auto& rule : extension_rules()) run.report.rules.push_back(rule.rule);
  run.report.diagnostics = run_extension_rules(facts, context);
  run.translation_units = facts.units.size();
  return run;
}

namespace {

fs::path header_tree(const ReleaseStore& store, const std::string& torch) {
  if (TorchVersion::try_parse(torch) && !fs::exists(torch)) return store.require(torch).include_dir;
  if (fs::is_directory(fs::path(torch) / "include" / "torch" / "csrc" / "stable")) return fs::path(torch) / "include";
  if (fs::is_directory(fs::path(torch) / "torch" / "csrc" / "stable")) return torch;
  throw ToolError(fmt::format("{}: neither a store release nor a tree with torch/csrc/stable", torch));
}

}  // namespace

LintRun lint_headers(const ReleaseStore& store, const HeaderLintRequest& request) {
  LintRun run;
  HeaderLintInput input;
  input.include_dir = fs::absolute(header_tree(store, request.torch)).lexically_normal();
  input.candidate =
      request.inventory.empty() ? collect_inventory(input.include_dir) : load_inventory(request.inventory);
  for (const auto& release : known_releases(store, request.baselines)) {
    fs::path file = request.baselines / release.to_string() / "inventory.json";
    if (release < input.candidate.release.minor_release() && fs::exists(file)) input.earlier.push_back(load_inventory(file));
  }
  if (input.earlier.empty()) {
    run.notes.push_back(fmt::format("no baseline older than {} in {}; nothing to compare with",
                                    input.candidate.release.to_string(), request.baselines.string()));
  }
  for (const auto& rule : header_rules()) run.report.rules.push_back(rule.rule);
  run.report.diagnostics = run_header_rules(input);
  return run;
}

}  // namespace abicheck
