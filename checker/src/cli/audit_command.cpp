#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "audit/allowlist.h"
#include "audit/audit_judgement.h"
#include "audit/binary_audit.h"
#include "audit/shim_catalog.h"
#include "baseline/release_history.h"
#include "cli/command.h"
#include "core/display_path.h"
#include "report/audit_render.h"
#include "report/report_document.h"

namespace abicheck {
namespace {

struct AuditCommandOptions {
  std::vector<std::filesystem::path> inputs;
  std::optional<std::string> target;
  std::optional<std::filesystem::path> allowlist;
  std::filesystem::path baselines;
  ReportOutputs outputs;
  bool verbose = false;
};

ExitCode run_audit(const AuditCommandOptions& options, const CommonOptions& common) {
  ShimCatalog catalog = ShimCatalog::load_directory(baselines_or_default(options.baselines));
  OperatorHistory operators = ReleaseHistory::open(baselines_or_default(options.baselines)).operator_schemas();
  std::optional<Allowlist> allowlist;
  if (options.allowlist) allowlist = Allowlist::load(*options.allowlist, suppression_today());
  AuditOptions audit_options;
  if (options.target) audit_options.target = TorchVersion::parse(*options.target).minor_release();
  if (allowlist) audit_options.allowlist = &*allowlist;
  audit_options.operators = &operators;
  // Whether each binary loads into each stored release; an empty or missing store just skips this.
  audit_options.releases = open_store(common).releases();

  AuditReport report = audit_paths(options.inputs, catalog, audit_options);
  for (const auto& failure : report.failures) {
    std::cerr << fmt::format("torch-abi-check: error: {}: {}\n", printable_name(failure.path), failure.problem);
  }
  if (report.binaries.empty() && report.pt2_packages.empty()) return ExitCode::ToolError;

  nlohmann::json document = new_report_document("audit", "torch-abi-check audit", judge_audit(report));
  document["audit"] = audit_section(report);
  return finish_command(document, options.outputs, render_audit_text(report, options.verbose));
}

}  // namespace

void add_audit_command(CLI::App& app, const CommonOptions& common, CommandAction& action) {
  auto options = std::make_shared<AuditCommandOptions>();
  auto* audit = app.add_subcommand("audit",
                                   "classify the imports of extension binaries (shared objects, wheels, .pt2 packages, "
                                   "directories, installed packages)");
  audit
      ->add_option(
          "paths", options->inputs,
          "shared objects, .whl files, AOTInductor .pt2 packages, directories or installed package directories")
      ->required()
      // Not checked while parsing: the audit reads every path it can and names each it cannot.
      ->type_name("PATH");
  as_operand(audit->add_option("--target", options->target,
                               "the oldest torch the binaries must load on (overrides markers and Requires-Dist)"),
             Operand::Version);
  as_operand(audit->add_option("--allowlist", options->allowlist,
                               "TOML file of accepted unstable symbols and objects, each with a reason and an optional "
                               "expiry (docs/suppressions.md)"),
             Operand::File);
  add_baselines_option(audit, options->baselines);
  add_output_options(audit, options->outputs);
  audit->add_flag("-v,--verbose", options->verbose, "list every import with its category");
  audit->callback([&action, &common, options] { action = [&common, options] { return run_audit(*options, common); }; });
}

}  // namespace abicheck
