#include <fmt/format.h>

#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "audit/allowlist.h"
#include "audit/binary_audit.h"
#include "audit/shim_catalog.h"
#include "cli/command.h"
#include "core/atomic_file.h"
#include "core/project_paths.h"
#include "report/audit_json.h"
#include "report/junit.h"

namespace abicheck {
namespace {

struct AuditCommandOptions {
  std::vector<std::filesystem::path> inputs;
  std::optional<std::string> target;
  std::optional<std::filesystem::path> allowlist;
  std::optional<std::filesystem::path> shim_decls;
  std::optional<std::string> json_path;
  std::optional<std::string> junit_path;
  bool verbose = false;
};

std::string report_junit(const AuditReport& report, const std::optional<std::filesystem::path>& allowlist_path) {
  std::vector<JUnitCase> cases;
  for (const auto& object : report.binaries) {
    JUnitCase test{"audit", object.path};
    if (object.verdict != AuditVerdict::Stable) {
      test.outcome = JUnitCase::Outcome::Failed;
      test.message = fmt::format("{}: {}", to_string(object.verdict), fmt::join(object.reasons, "; "));
      for (const auto& symbol : object.unstable) test.output += symbol.demangled + "\n";
    }
    cases.push_back(std::move(test));
  }
  for (const auto& failure : report.failures) {
    cases.push_back({"audit", failure.path, JUnitCase::Outcome::Error, failure.problem});
  }
  for (const auto& entry : report.stale_allowlist_entries) {
    cases.push_back({"audit.allowlist", fmt::format("{}:{}", allowlist_path ? allowlist_path->string() : "", entry.line),
                     JUnitCase::Outcome::Failed, fmt::format("stale entry '{}' matches nothing", entry.pattern)});
  }
  return render_junit("torch-abi-check audit", cases);
}

std::string describe_declared(const std::optional<DeclaredTarget>& target) {
  return target ? fmt::format("{} ({})", target->version.to_string(), target->source) : "none";
}

void print_text(const AuditReport& report, bool verbose) {
  for (const auto& object : report.binaries) {
    fmt::print("{}: {}\n", object.path, to_string(object.verdict));
    fmt::print("  min torch {} (to load: {}), declared target {}\n",
               object.min_torch ? object.min_torch->to_string() : "-",
               object.min_torch_to_load ? object.min_torch_to_load->to_string() : "-", describe_declared(object.declared_target));
    std::map<std::optional<TorchVersion>, int> shims_by_release;
    std::vector<std::string> dynamic;
    for (const auto& shim : object.shims) {
      std::string release = shim.introduced ? shim.introduced->to_string() : "unknown";
      if (shim.dynamic_lookup) dynamic.push_back(fmt::format("{} ({})", shim.name, release));
      else ++shims_by_release[shim.introduced];
    }
    std::vector<std::string> release_counts;
    for (const auto& [release, count] : shims_by_release) {
      release_counts.push_back(fmt::format("{}: {}", release ? release->to_string() : "unknown", count));
    }
    fmt::print("  stable shims imported: {}{}\n", object.shims.size() - dynamic.size(),
               release_counts.empty() ? "" : fmt::format(" ({})", fmt::join(release_counts, ", ")));
    if (!dynamic.empty()) fmt::print("  shims looked up by name (dlsym): {}\n", fmt::join(dynamic, ", "));
    for (const auto& reason : object.reasons) fmt::print("  why: {}\n", reason);
    std::map<std::string, std::vector<std::string>> unstable_by_namespace;
    for (const auto& symbol : object.unstable) unstable_by_namespace[symbol.group].push_back(symbol.demangled);
    for (const auto& [space, names] : unstable_by_namespace) {
      fmt::print("  unstable {} ({}):\n", space, names.size());
      std::size_t shown = verbose ? names.size() : std::min<std::size_t>(names.size(), 5);
      for (std::size_t i = 0; i < shown; ++i) fmt::print("    {}\n", names[i]);
      if (shown < names.size()) fmt::print("    ... {} more (--verbose lists all)\n", names.size() - shown);
    }
    if (!object.allowed.empty()) fmt::print("  allowlisted unstable symbols: {}\n", object.allowed.size());
    if (verbose) {
      fmt::print("  needed: {}\n", fmt::join(object.needed, ", "));
      for (const auto& symbol : object.imports) {
        fmt::print("    {:<15} {}{}\n", to_string(symbol.category), symbol.demangled,
                   symbol.introduced ? fmt::format(" (since {})", symbol.introduced->to_string()) : "");
      }
    }
  }
  for (const auto& wheel : report.wheels) {
    fmt::print("wheel {}: {} ({} objects), min torch {}, declared target {}{}\n", wheel.path, to_string(wheel.verdict),
               wheel.object_count, wheel.min_torch ? wheel.min_torch->to_string() : "-",
               describe_declared(wheel.declared_target), wheel.abi3 ? ", abi3" : "");
  }
  for (const auto& entry : report.stale_allowlist_entries) {
    fmt::print("stale allowlist entry (line {}): '{}' matches nothing; remove it\n", entry.line, entry.pattern);
  }
  std::map<AuditVerdict, int> counts;
  for (const auto& object : report.binaries) ++counts[object.verdict];
  fmt::print("audited {} object{}: {} stable, {} unstable, {} needing a newer torch than declared; {} could not be audited\n",
             report.binaries.size(), report.binaries.size() == 1 ? "" : "s", counts[AuditVerdict::Stable],
             counts[AuditVerdict::Unstable], counts[AuditVerdict::NeedsNewerTorch], report.failures.size());
}

ExitCode run_audit(const AuditCommandOptions& options) {
  ShimCatalog catalog = ShimCatalog::load_directory(options.shim_decls.value_or(project_root() / "shim_decls"));
  std::optional<Allowlist> allowlist;
  if (options.allowlist) allowlist = Allowlist::load(*options.allowlist);
  AuditOptions audit_options;
  if (options.target) audit_options.target = TorchVersion::parse(*options.target).minor_release();
  if (allowlist) audit_options.allowlist = &*allowlist;

  AuditReport report = audit_paths(options.inputs, catalog, audit_options);
  for (const auto& failure : report.failures) {
    std::cerr << fmt::format("torch-abi-check: error: {}: {}\n", failure.path, failure.problem);
  }
  if (report.binaries.empty()) return ExitCode::ToolError;

  if (options.json_path) write_file_atomically(*options.json_path, audit_to_json(report).dump(2) + "\n");
  if (options.junit_path) write_file_atomically(*options.junit_path, report_junit(report, options.allowlist));
  if (options.json_path != "-" && options.junit_path != "-") print_text(report, options.verbose);
  return report.has_findings() ? ExitCode::Findings : ExitCode::Clean;
}

}  // namespace

void add_audit_command(CLI::App& app, const CommonOptions&, CommandAction& action) {
  auto options = std::make_shared<AuditCommandOptions>();
  auto* audit = app.add_subcommand(
      "audit", "classify the imports of extension binaries (shared objects, wheels, directories, installed packages)");
  audit->add_option("paths", options->inputs, "shared objects, .whl files, directories or installed package directories")
      ->required();
  audit->add_option("--target", options->target,
                    "the oldest torch the binaries must load on (overrides markers and Requires-Dist)");
  audit->add_option("--allowlist", options->allowlist, "TOML file of accepted unstable symbols and objects");
  audit->add_option("--shim-decls", options->shim_decls, "directory of <release>/inventory.json (default: shim_decls/)");
  audit->add_option("--json", options->json_path, "write the JSON report to FILE (- for standard output)");
  audit->add_option("--junit", options->junit_path, "write a JUnit XML report to FILE");
  audit->add_flag("-v,--verbose", options->verbose, "list every import with its category");
  audit->callback([&action, options] { action = [options] { return run_audit(*options); }; });
}

}  // namespace abicheck
