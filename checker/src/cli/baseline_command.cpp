#include <fmt/format.h>

#include <chrono>

#include "baseline/release_baseline.h"
#include "baseline/release_history.h"
#include "cli/command.h"
#include "core/project_paths.h"
#include "store/release_store.h"

namespace abicheck {

void add_baseline_command(CLI::App& app, const CommonOptions& common, CommandAction& action) {
  struct Options {
    std::string torch;
    std::filesystem::path out;
    std::optional<std::filesystem::path> lib_dir;
    unsigned jobs = 0;
    bool bench = false;
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand(
      "baseline",
      "write a release's inventory, ABI model, library exports and operator schemas (shim_decls/<release>/)");
  command->add_option("--torch", options->torch, "a release (2.10), a torch package dir, or an include dir of headers")
      ->required();
  command->add_option("--out", options->out, "baseline directory (default: shim_decls/<release> of the project)");
  command->add_option("--lib-dir", options->lib_dir,
                      "where libtorch_cpu.so / libtorch_cuda.so are (default: the release's; none for a header tree)");
  command->add_option("--jobs", options->jobs, "parallel libclang parses (default: cores, at most 4)");
  command->add_flag("--bench", options->bench, "print how long the baseline took");
  command->callback([&action, &common, options] {
    action = [&common, options] {
      auto start = std::chrono::steady_clock::now();
      ResolvedRelease release = ReleaseStore::open(common.store_root).resolve(options->torch);
      BaselineBuild build = build_baseline(release.include_dir, options->lib_dir ? options->lib_dir : release.lib_dir,
                                           {.jobs = options->jobs});
      if (!build.problems.empty()) {
        for (const auto& problem : build.problems) fmt::print("{}: {}\n", problem.name, problem.problem);
        fmt::print("baseline of torch {} not written: {} fidelity problem(s)\n",
                   build.baseline.inventory.release.to_string(), build.problems.size());
        return ExitCode::Findings;
      }
      std::optional<std::filesystem::path> python;
      if (release.installed) python = release.installed->python;
      build.baseline.operators = release_operator_schemas(python, release.lib_dir);
      std::filesystem::path out = options->out.empty()
                                      ? ReleaseHistory::open(project_baselines_dir())
                                            .baseline_dir(build.baseline.inventory.release.minor_release())
                                      : options->out;
      write_baseline(build.baseline, out);
      fmt::print("baseline of torch {} written to {} ({} declarations, {})\n",
                 build.baseline.inventory.release.to_string(), out.string(),
                 build.baseline.inventory.declarations.size(),
                 build.baseline.operators
                     ? fmt::format("{} operator schemas, {} schema adapters", build.baseline.operators->schemas.size(),
                                   build.baseline.operators->adapters.size())
                     : std::string("no operator schemas: the release has no Python"));
      if (options->bench) {
        fmt::print("bench: baseline {} took {:.1f} s\n", build.baseline.inventory.release.to_string(),
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      }
      return ExitCode::Clean;
    };
  });
}

}  // namespace abicheck
