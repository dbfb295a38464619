#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "audit/shim_catalog.h"
#include "canary/canary_judgement.h"
#include "canary/canary_run.h"
#include "cli/command.h"
#include "report/canary_render.h"
#include "report/report_document.h"

namespace abicheck {
namespace {

struct CanaryCommandOptions {
  std::filesystem::path spec;
  CellRunFlags run;
  std::filesystem::path baselines;
  std::string shard;  // empty: every package
  ReportOutputs outputs;
};

ExitCode run_canary_command(const CommonOptions& common, const CanaryCommandOptions& options) {
  std::filesystem::path spec_path = options.spec.empty() ? default_canary_spec() : options.spec;
  CanarySpec spec = load_canary_spec(spec_path);
  ShimCatalog catalog = ShimCatalog::load_directory(baselines_or_default(options.baselines));
  CanaryOptions canary{.cache_dir = options.run.cache_dir.empty() ? default_canary_cache_dir() : options.run.cache_dir,
                       .fresh = options.run.fresh,
                       .jobs = jobs_or_cores(options.run.jobs),
                       .releases = chosen_releases(open_store(common), options.run.releases),
                       .progress = progress_line("canary")};
  if (!options.shard.empty()) canary.shard = MatrixShard::parse(options.shard);
  CanaryResult result = run_canary(spec, catalog, canary);
  std::string title = fmt::format("torch-abi-check canary: {}", spec_path.filename().string());
  if (canary.shard) title += fmt::format(", shard {}", canary.shard->to_string());
  nlohmann::json document = new_report_document("canary", title, judge_canary(result));
  document["canary"] = canary_section(result);
  return finish_command(document, options.outputs, render_canary_grid(document["canary"]) + render_canary_cost(result));
}

}  // namespace

void add_canary_command(CLI::App& app, const CommonOptions& common, CommandAction& action) {
  auto options = std::make_shared<CanaryCommandOptions>();
  auto* canary = app.add_subcommand(
      "canary", "load published extension wheels under every stored release and compare with the audit's prediction");
  as_operand(canary->add_option("--spec", options->spec, "canary spec (TOML; default: matrix/canary.toml)"),
             Operand::File);
  add_cell_run_options(canary, options->run,
                       "downloads, unpacked wheels and results (default: $XDG_CACHE_HOME/torch-abi-check/canary)",
                       "run every cell again (downloads are kept)");
  add_baselines_option(canary, options->baselines);
  canary->add_option("--shard", options->shard,
                     "run slice K of N (K/N): the spec's packages dealt round-robin, each under every release; a "
                     "run over the shards' caches copied into one gives the whole grid from the cache");
  add_output_options(canary, options->outputs);
  canary->callback(
      [&action, &common, options] { action = [&common, options] { return run_canary_command(common, *options); }; });
}

}  // namespace abicheck
