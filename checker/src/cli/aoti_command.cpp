#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "aoti/aoti_judgement.h"
#include "aoti/aoti_run.h"
#include "audit/shim_catalog.h"
#include "cli/command.h"
#include "report/aoti_render.h"
#include "report/report_document.h"

namespace abicheck {
namespace {

struct AotiCommandOptions {
  std::vector<std::filesystem::path> packages;
  std::filesystem::path cache_dir;
  std::vector<std::string> releases;
  std::filesystem::path baselines;
  unsigned jobs = 0;
  bool fresh = false;
  ReportOutputs outputs;
};

ExitCode run_aoti_command(const CommonOptions& common, const AotiCommandOptions& options) {
  ReleaseStore store = open_store(common);
  std::vector<StoredRelease> releases;
  for (const auto& name : options.releases) releases.push_back(store.require(name));
  if (options.releases.empty()) {
    releases = store.releases();
    if (releases.empty()) store.require_newest();  // the ToolError that says how to install one
  }
  std::ranges::sort(releases, {}, &StoredRelease::version);
  ShimCatalog catalog = ShimCatalog::load_directory(baselines_or_default(options.baselines));
  ProgressLine progress = progress_line("aoti");
  int done = 0;
  const int total = static_cast<int>(releases.size()) * (options.packages.empty() ? 2 : 1);
  AotiOptions aoti{.cache_dir = options.cache_dir.empty() ? default_aoti_cache_dir() : options.cache_dir,
                   .fresh = options.fresh,
                   .jobs = jobs_or_cores(options.jobs),
                   .releases = releases,
                   .packages = options.packages,
                   .progress = [&progress, &done, total](const std::string& line) { progress(++done, total, line); }};
  AotiResult result = run_aoti(catalog, aoti);
  std::string title = options.packages.empty() ? "torch-abi-check aoti: reference models"
                                               : "torch-abi-check aoti: packages given";
  nlohmann::json document = new_report_document("aoti", title, judge_aoti(result));
  document["aoti"] = aoti_section(result);
  return finish_command(document, options.outputs, render_aoti_text(document["aoti"]));
}

}  // namespace

void add_aoti_command(CLI::App& app, const CommonOptions& common, CommandAction& action) {
  auto options = std::make_shared<AotiCommandOptions>();
  auto* aoti = app.add_subcommand(
      "aoti",
      "AOTInductor packages: compile the reference models at every stored release and load each under every later "
      "one (or load the .pt2 packages given under every stored release), compared with eager");
  aoti->add_option("packages", options->packages, ".pt2 packages to load (default: the reference models)");
  aoti->add_option("--torch", options->releases, "stored releases to use (default: every stored release)");
  aoti->add_option("--cache-dir", options->cache_dir,
                   "compiled packages and cell results (default: $XDG_CACHE_HOME/torch-abi-check/aoti)");
  aoti->add_option("-j,--jobs", options->jobs, "releases compiled or run at once (default: number of CPUs)");
  aoti->add_flag("--fresh", options->fresh, "compile and run every cell again");
  add_baselines_option(aoti, options->baselines);
  add_output_options(aoti, options->outputs);
  aoti->callback(
      [&action, &common, options] { action = [&common, options] { return run_aoti_command(common, *options); }; });
}

}  // namespace abicheck
