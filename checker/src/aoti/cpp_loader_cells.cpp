#include "aoti/cpp_loader_cells.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/build_cache.h"
#include "core/content_hash.h"
#include "core/file_text.h"
#include "core/process.h"
#include "core/project_paths.h"
#include "matrix/kernel_build.h"

namespace abicheck {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Changing how the runner is built must invalidate every cached runner: the key hashes this file's own
// content too (TORCH_ABI_CHECK_RECIPE, from checker_builder_recipe).
constexpr std::string_view kRunnerRecipe = "aoti-cpp-runner/g++-c++20-O1/v1";
constexpr std::string_view kRunnerName = "aoti_cpp_runner";

fs::path runner_source() { return project_root() / "matrix" / "aoti_cpp_runner.cpp"; }

}  // namespace

std::string cpp_runner_key(const StoredRelease& release) {
  return ContentHash()
      .add(kRunnerRecipe)
      .add(TORCH_ABI_CHECK_RECIPE)
      .add(host_compiler())
      .add(release_cache_identity(release))
      .add_file(runner_source(), project_root())
      .hex();
}

CppRunner build_cpp_runner(const StoredRelease& release, const fs::path& cache_dir, bool fresh) {
  const std::string compiler = host_compiler();
  CppRunner runner;
  runner.key = cpp_runner_key(release);
  const BuildCache cache(cache_dir / "cpp-runners");
  CachedBuild entry = cache.build(runner.key, fresh, [&](const fs::path& directory) {
    // 2.15's ATen headers refuse C++17; -O1 is enough for a runner that only calls into libtorch.
    const std::vector<std::string> argv = {compiler,
                                           "-std=c++20",
                                           "-O1",
                                           "-D_GLIBCXX_USE_CXX11_ABI=1",
                                           "-I" + release.include_dir.string(),
                                           "-I" + (release.include_dir / "torch" / "csrc" / "api" / "include").string(),
                                           runner_source().string(),
                                           "-o",
                                           std::string(kRunnerName),
                                           "-L" + release.lib_dir.string(),
                                           "-ltorch",
                                           "-ltorch_cpu",
                                           "-lc10",
                                           "-ldl",
                                           "-Wl,-rpath," + release.lib_dir.string()};
    ProcessResult compiled = run_process({.argv = argv, .working_dir = directory, .timeout = std::chrono::minutes(10)});
    BuildOutcome outcome;
    outcome.log = compiled.output;
    outcome.manifest.seconds = compiled.duration.count();
    outcome.manifest.built = compiled.succeeded();
    outcome.manifest.detail = compiled.succeeded() ? "built" : compiled.describe();
    if (!compiled.succeeded()) outcome.manifest.first_error = compiled.compiler_error();
    if (compiled.succeeded()) outcome.manifest.outputs = {std::string(kRunnerName)};
    outcome.cacheable = !compiled.timed_out && !compiled.term_signal;
    return outcome;
  });
  runner.cached = entry.cached;
  if (entry.manifest.built) {
    runner.binary = entry.directory / kRunnerName;
  } else {
    runner.problem = fmt::format("the C++ loader's runner did not build against torch {} ({}): {}",
                                 release.version.to_full_string(), entry.manifest.detail, entry.manifest.first_error);
  }
  return runner;
}

json run_cpp_cell(const CppRunner& runner, const StoredRelease& release, const CppCellInput& cell,
                  const fs::path& work_dir, std::chrono::seconds timeout) {
  fs::create_directories(work_dir);
  const fs::path written = work_dir / "result.json";
  fs::remove(written);
  std::vector<std::string> argv = {runner.binary.string(), cell.package.string(),
                                   cell.cpp_io.empty() ? std::string("-") : cell.cpp_io.string(), written.string()};
  if (!cell.extension.empty()) argv.push_back(cell.extension.string());
  ProcessResult run = run_process({.argv = argv,
                                   .extra_env = {{"LD_LIBRARY_PATH", release.lib_dir.string()}},
                                   .working_dir = work_dir,
                                   .timeout = timeout});
  if (run.succeeded() && fs::exists(written)) {
    json result = json::parse(read_file_text(written));
    result["torch"] = release.version.to_full_string();
    return result;
  }
  return {{"loader", "cpp"},
          {"stage", run.timed_out ? "timeout" : "crash"},
          {"error", fmt::format("the C++ runner ended ({}): {}", run.describe(), run.tail(2))},
          {"seconds", run.duration.count()}};
}

}  // namespace abicheck
