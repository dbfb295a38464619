#include <fmt/format.h>

#include <chrono>

#include "baseline/platform_exports.h"
#include "baseline/release_baseline.h"
#include "baseline/release_history.h"
#include "cli/command.h"
#include "core/atomic_file.h"
#include "core/project_paths.h"
#include "core/tool_error.h"
#include "store/release_store.h"

namespace abicheck {
namespace {

// exports.<platform>.json beside the release's Linux baseline, only where the platform's torch
// exports other shims than Linux's libtorch_cpu.so; a list that became the same is removed.
ExitCode write_platform_exports(const std::filesystem::path& wheel, std::filesystem::path out) {
  PlatformExports exports = read_platform_wheel_exports(wheel);
  if (out.empty()) out = ReleaseHistory::open(project_baselines_dir()).baseline_dir(exports.release.minor_release());
  std::filesystem::path linux_file = out / kExportsFile;
  if (!std::filesystem::is_regular_file(linux_file)) {
    throw ToolError(
        fmt::format("{}: no Linux exports to compare with; write the release's baseline first "
                    "(torch-abi-check baseline --torch {})",
                    linux_file.string(), exports.release.minor_release().to_string()));
  }
  std::filesystem::path file = out / platform_exports_file(exports.platform);
  std::size_t count = 0;
  for (const auto& [library, names] : exports.exports.by_library) count += names.size();
  if (same_as_linux_cpu(exports.exports, load_exports_file(linux_file))) {
    std::filesystem::remove(file);
    fmt::print("torch {} for {} exports the same {} shims as Linux's libtorch_cpu.so: no {} needed\n",
               exports.release.to_string(), exports.platform, count, file.filename().string());
    return ExitCode::Clean;
  }
  write_file_atomically(file, platform_exports_to_json(exports));
  fmt::print("torch {} for {} exports {} shims, not the same as Linux's: written to {}\n", exports.release.to_string(),
             exports.platform, count, file.string());
  return ExitCode::Clean;
}

}  // namespace

void add_baseline_command(CLI::App& app, const CommonOptions& common, CommandAction& action) {
  struct Options {
    std::string torch;
    std::filesystem::path out;
    std::optional<std::filesystem::path> lib_dir;
    std::optional<std::filesystem::path> platform_wheel;
    unsigned jobs = 0;
    bool bench = false;
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand(
      "baseline",
      "write a release's inventory, ABI model, library exports, operator schemas and conversion behaviour "
      "(shim_decls/<release>/)");
  auto* torch = as_operand(command->add_option("--torch", options->torch,
                                               "a release (2.10), a torch package dir, or an include dir of headers"),
                           Operand::Release);
  auto* platform_wheel = as_operand(
      command->add_option("--platform-wheel", options->platform_wheel,
                          "instead: a published torch wheel for macOS or Windows, whose shim exports are recorded as "
                          "exports.<platform>.json where they differ from Linux's"),
      Operand::File);
  torch->excludes(platform_wheel);
  as_operand(
      command->add_option("--out", options->out, "baseline directory (default: shim_decls/<release> of the project)"),
      Operand::WorkDirectory);
  as_operand(command->add_option(
                 "--lib-dir", options->lib_dir,
                 "where libtorch_cpu.so / libtorch_cuda.so are (default: the release's; none for a header tree); the "
                 "conversions' behaviour is probed on its libtorch_cpu.so"),
             Operand::Directory);
  command->add_option("--jobs", options->jobs, "parallel libclang parses (default: cores, at most 4)");
  command->add_flag("--bench", options->bench, "print how long the baseline took");
  command->callback([&action, &common, options] {
    if (options->torch.empty() && !options->platform_wheel) throw CLI::RequiredError("--torch or --platform-wheel");
    action = [&common, options] {
      if (options->platform_wheel) return write_platform_exports(*options->platform_wheel, options->out);
      auto start = std::chrono::steady_clock::now();
      ResolvedRelease release = ReleaseStore::open(common.store_root).resolve(options->torch);
      // A --lib-dir without torch's libraries would give a baseline that exports nothing, after minutes.
      if (options->lib_dir && !std::filesystem::exists(*options->lib_dir / "libtorch_cpu.so")) {
        throw ToolError(fmt::format("--lib-dir {}: no libtorch_cpu.so in it", options->lib_dir->string()));
      }
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
      // A header tree with --lib-dir (a changed copy of a release's headers) is probed on that libtorch.
      build.baseline.behaviour = release_behaviour(
          release.include_dir, options->lib_dir ? options->lib_dir : release.lib_dir, build.baseline.inventory);
      std::filesystem::path out = options->out.empty()
                                      ? ReleaseHistory::open(project_baselines_dir())
                                            .baseline_dir(build.baseline.inventory.release.minor_release())
                                      : options->out;
      write_baseline(build.baseline, out);
      fmt::print(
          "baseline of torch {} written to {} ({} declarations, {}, {})\n",
          build.baseline.inventory.release.to_string(), out.string(), build.baseline.inventory.declarations.size(),
          build.baseline.operators
              ? fmt::format("{} operator schemas, {} schema adapters", build.baseline.operators->schemas.size(),
                            build.baseline.operators->adapters.size())
              : std::string("no operator schemas: the release has no Python"),
          build.baseline.behaviour ? fmt::format("{} conversions probed", build.baseline.behaviour->conversions.size())
                                   : std::string("no behaviour: the release has no libtorch"));
      if (options->bench) {
        fmt::print("bench: baseline {} took {:.1f} s\n", build.baseline.inventory.release.to_string(),
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      }
      return ExitCode::Clean;
    };
  });
}

}  // namespace abicheck
