#include "lint/lint_runs.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>

#include "baseline/release_baseline.h"
#include "baseline/release_history.h"
#include "core/tool_error.h"
#include "inventory/inventory_collector.h"
#include "lint/extension/extension_parser.h"
#include "lint/extension/extension_rules.h"
#include "lint/extension/extension_sources.h"
#include "lint/headers/header_lint_input.h"
#include "lint/headers/header_rules.h"
#include "lint/headers/inventory_stamp.h"
#include "store/release_build_setup.h"

namespace abicheck {

namespace fs = std::filesystem;

std::vector<TorchVersion> known_releases(const ReleaseStore& store, const fs::path& baselines) {
  std::vector<TorchVersion> known;
  for (const auto& release : store.releases()) known.push_back(release.version.minor_release());
  const ReleaseHistory history = ReleaseHistory::open(baselines);
  known.insert(known.end(), history.releases().begin(), history.releases().end());
  std::ranges::sort(known);
  known.erase(std::ranges::unique(known).begin(), known.end());
  return known;
}

SourceDiscovery source_discovery(const ReleaseStore& store, const ResolvedRelease& build) {
  SourceDiscovery discovery;
  if (build.installed) {
    discovery.torch = build.installed;
  } else if (!store.releases().empty()) {
    discovery.torch = store.releases().back();
  }
  return discovery;
}

LintRun lint_extension(const ReleaseStore& store, const ResolvedRelease& build, const ExtensionLintRequest& request) {
  LintRun run;
  const TorchVersion build_version = release_version(build);
  ExtensionSources sources =
      request.sources ? *request.sources : find_extension_sources(request.path, source_discovery(store, build));
  run.notes.push_back(sources.units_note);
  if (!request.root.empty()) {
    sources.root = fs::absolute(request.root).lexically_normal();
    // A root that holds none of the sources would lint nothing and pass.
    bool any_under_root = std::ranges::any_of(sources.units, [&](const UnitToParse& unit) {
      std::string relative = fs::absolute(unit.source).lexically_normal().lexically_relative(sources.root).string();
      return !relative.empty() && !relative.starts_with("..");
    });
    if (!any_under_root) {
      throw ToolError(fmt::format("--root {}: none of the project's {} source(s) lies under it", request.root.string(),
                                  sources.units.size()));
    }
  }
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
  std::vector<fs::path> cuda_include_dirs;
  if (build.installed && build.installed->cuda_major) {
    cuda_include_dirs = find_cuda_include_dirs(store.root(), *build.installed->cuda_major);
  }
  ParseEnvironment environment{build.include_dir, std::move(cuda_include_dirs), sources.root,
                               cpp_extension_standard(build.include_dir)};
  ExtensionFacts facts = collect_extension_facts(sources, environment);

  ReleaseHistory history = ReleaseHistory::open(request.baselines);
  std::optional<ShimInventory> inventory;
  std::map<TorchVersion, OperatorSchemas> operator_schemas = history.operator_schemas();
  if (auto committed = history.find(build_version.minor_release())) {
    inventory = load_inventory(*committed / kInventoryFile);
  } else if (build.origin != ReleaseOrigin::HeaderTree) {
    // A real torch whose baseline is not committed yet (a release out today, a nightly): what the
    // baseline would hold is computed from it, so that E003, E010 and E011 still judge its builds.
    auto started = std::chrono::steady_clock::now();
    inventory = collect_inventory(build.include_dir, {.untargeted_errors_as_notes = true});
    std::optional<fs::path> python;
    if (build.installed) python = build.installed->python;
    if (auto schemas = release_operator_schemas(python, build.lib_dir)) {
      operator_schemas[build_version.minor_release()] = std::move(*schemas);
    }
    run.notes.push_back(fmt::format("{}: no baseline of {}; its inventory{} computed from {} in {:.1f} s",
                                    history.directory().string(), build_version.minor_release().to_string(),
                                    python ? " and operator schemas" : "", build.root.string(),
                                    std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()));
  } else {
    run.notes.push_back(fmt::format(
        "{}: no baseline of {}; E003 (API newer than the target) and E010 (API no release declares) are not checked",
        history.directory().string(), build_version.minor_release().to_string()));
  }
  ExtensionLintContext context{build_version.minor_release(), known_releases(store, request.baselines),
                               inventory ? &*inventory : nullptr};
  // Without B's baseline, "no release declares it" cannot be told from "B declares it" (E003's case).
  if (inventory) {
    std::vector<ShimInventory> inventories = history.inventories();
    if (!history.has(build_version.minor_release())) {
      inventories.push_back(*inventory);
      std::ranges::sort(inventories, {}, [](const ShimInventory& each) { return each.release.minor_release(); });
    }
    context.released_names = first_declaring_releases_by_name(inventories);
  }
  context.operator_schemas = std::move(operator_schemas);
  for (const auto& rule : extension_rules()) run.report.rules.push_back(rule.rule);
  run.report.diagnostics = run_extension_rules(facts, context);
  run.translation_units = facts.units.size();
  return run;
}

namespace {

// The candidate's inventory: the one given, else the committed baseline when its stamp says it
// was collected from these headers, else collected now (the slow path: ~20 libclang parses).
ShimInventory candidate_inventory(const ResolvedRelease& candidate, const fs::path& include_dir,
                                  const HeaderLintRequest& request, LintRun& run) {
  if (request.inventory) return *request.inventory;
  auto started = std::chrono::steady_clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(); };
  fs::path baseline_dir =
      ReleaseHistory::open(request.baselines).baseline_dir(release_version(candidate).minor_release());
  if (!request.stamp_baseline) {
    if (auto stamped = stamped_inventory(baseline_dir, include_dir)) {
      run.notes.push_back(fmt::format("inventory: {} reused (its stamp matches these headers; checked in {:.1f} s)",
                                      (baseline_dir / "inventory.json").string(), seconds()));
      return std::move(*stamped);
    }
  }
  // Headers that do not compile without a target are judged by the rules (H003, H005), not refused.
  ShimInventory collected = collect_inventory(include_dir, {.untargeted_errors_as_notes = true});
  run.notes.push_back(fmt::format("inventory: collected from the headers in {:.1f} s", seconds()));
  for (const auto& note : collected.notes) {
    if (note.starts_with("does not compile")) run.notes.push_back("inventory: " + note);
  }
  if (request.stamp_baseline) {
    run.notes.push_back(stamp_inventory(baseline_dir, include_dir, collected)
                            ? fmt::format("inventory: stamped {} for these headers", baseline_dir.string())
                            : fmt::format("inventory: not stamped: {}/inventory.json is missing or differs from "
                                          "what these headers give",
                                          baseline_dir.string()));
  }
  return collected;
}

}  // namespace

LintRun lint_headers(const ReleaseStore& store, const HeaderLintRequest& request) {
  LintRun run;
  ResolvedRelease release = store.resolve(request.torch);
  fs::path include_dir = fs::absolute(release.include_dir).lexically_normal();
  ShimInventory candidate = candidate_inventory(release, include_dir, request, run);
  auto started = std::chrono::steady_clock::now();
  auto store_headers = [&store](TorchVersion earlier) -> std::optional<fs::path> {
    if (auto stored = store.find(earlier.to_string())) return stored->include_dir;
    return std::nullopt;
  };
  HeaderLintInput input = gather_header_lint_input(include_dir, std::move(candidate), request.baselines, store_headers);
  run.notes.push_back(
      fmt::format("headers: {} uses of shims by the wrappers (all targets), {} declarations moved in; "
                  "found in {:.1f} s",
                  input.wrapper_uses.size(), input.moved_in.size(),
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()));
  if (input.earlier.empty()) {
    run.notes.push_back(fmt::format("no baseline older than {} in {}; nothing to compare with",
                                    input.candidate.release.to_string(), request.baselines.string()));
  }
  for (const auto& rule : header_rules()) run.report.rules.push_back(rule.rule);
  run.report.diagnostics = run_header_rules(input);
  return run;
}

}  // namespace abicheck
