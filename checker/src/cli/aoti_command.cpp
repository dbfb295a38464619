#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "aoti/aoti_judgement.h"
#include "aoti/aoti_run.h"
#include "audit/pt2_package.h"
#include "audit/shim_catalog.h"
#include "cli/command.h"
#include "report/aoti_render.h"
#include "report/report_document.h"

namespace abicheck {
namespace {

struct AotiCommandOptions {
  std::vector<std::filesystem::path> packages;
  CellRunFlags run;
  std::filesystem::path baselines;
  ReportOutputs outputs;
  bool no_cpp_loader = false;
};

ExitCode run_aoti_command(const CommonOptions& common, const AotiCommandOptions& options) {
  for (const auto& package : options.packages) require_loadable_pt2(package);  // bad input before the store
  std::vector<StoredRelease> releases = chosen_releases(open_store(common), options.run.releases);
  ShimCatalog catalog = ShimCatalog::load_directory(baselines_or_default(options.baselines));
  AotiOptions aoti{.cache_dir = options.run.cache_dir.empty() ? default_aoti_cache_dir() : options.run.cache_dir,
                   .fresh = options.run.fresh,
                   .jobs = jobs_or_cores(options.run.jobs),
                   .releases = releases,
                   .packages = options.packages,
                   .cpp_loader = !options.no_cpp_loader,
                   .progress = progress_line("aoti")};
  AotiResult result = run_aoti(catalog, aoti);
  std::string title =
      options.packages.empty() ? "torch-abi-check aoti: reference models" : "torch-abi-check aoti: packages given";
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
  as_operand(aoti->add_option("packages", options->packages, ".pt2 packages to load (default: the reference models)"),
             Operand::File);
  add_cell_run_options(aoti, options->run,
                       "compiled packages and cell results (default: $XDG_CACHE_HOME/torch-abi-check/aoti)",
                       "compile and run every cell again");
  add_no_cpp_loader_flag(aoti, options->no_cpp_loader);
  add_baselines_option(aoti, options->baselines);
  add_output_options(aoti, options->outputs);
  aoti->callback(
      [&action, &common, options] { action = [&common, options] { return run_aoti_command(common, *options); }; });
}

}  // namespace abicheck
