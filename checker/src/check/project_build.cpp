#include "check/project_build.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "core/build_cache.h"
#include "core/content_hash.h"
#include "core/process.h"
#include "core/project_paths.h"
#include "core/tool_error.h"
#include "store/release_build_setup.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

// Changing how projects are built, or what their cache entries hold, must invalidate every cached build:
// the key hashes this file's own content too (TORCH_ABI_CHECK_RECIPE, from checker_builder_recipe).
constexpr std::string_view kBuildRecipe = "check-project-build/v3";
constexpr std::size_t kBuildMemoryBytes = std::size_t{8192} << 20;

// Version control data, virtual environments and the author's own build outputs do not change what
// a fresh build makes, and hashing them (a whole .git) would cost more than the build.
bool is_outside_the_build_inputs(const fs::path& directory) {
  std::string name = directory.filename().string();
  return name.starts_with(".") || name.starts_with("build") || name == "__pycache__" || name == "dist" ||
         name == "venv" || name.ends_with(".egg-info");
}

std::vector<fs::path> project_files(const fs::path& project) {
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(project); it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_directory() && is_outside_the_build_inputs(it->path())) {
      it.disable_recursion_pending();
    } else if (it->is_regular_file()) {
      files.push_back(it->path());
    }
  }
  std::ranges::sort(files);
  return files;
}

std::string build_key(const ProjectBuildRequest& request) {
  ContentHash hash;
  hash.add(kBuildRecipe).add(TORCH_ABI_CHECK_RECIPE).add(build_kind_name(request.kind));
  hash.add(request.release.version.to_full_string()).add(request.release.python.string());
  hash.add(request.target_to_pass ? request.target_to_pass->to_abi_hex() : "project-defined");
  hash.add(host_python());
  for (const auto& file : project_files(request.project)) hash.add_file(file, request.project);
  return hash.hex();
}

bool is_shared_object(const fs::path& path) {
  std::string name = path.filename().string();
  return path.extension() == ".so" || name.find(".so.") != std::string::npos;
}

std::vector<fs::path> shared_objects_under(const fs::path& directory) {
  std::vector<fs::path> found;
  std::error_code error;
  if (!fs::is_directory(directory, error)) return found;
  for (auto it = fs::recursive_directory_iterator(directory, error); it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_directory() && it->path().filename() == "CMakeFiles") {
      it.disable_recursion_pending();
    } else if (it->is_regular_file() && !it->is_symlink() && is_shared_object(it->path())) {
      found.push_back(it->path());
    }
  }
  std::ranges::sort(found);
  return found;
}

std::string first_error_line(const std::string& log) {
  std::size_t start = 0;
  while (start < log.size()) {
    std::size_t end = log.find('\n', start);
    if (end == std::string::npos) end = log.size();
    std::string_view line(log.data() + start, end - start);
    if (line.find("error:") != std::string_view::npos || line.find("Error:") != std::string_view::npos) {
      return std::string(line);
    }
    start = end + 1;
  }
  return {};
}

std::string shell_line(const std::vector<std::string>& argv) {
  std::string line = "$";
  for (const auto& word : argv) line += " " + word;
  return line;
}

struct BuildStep {
  std::vector<std::string> argv;
  std::map<std::string, std::string> env;
  fs::path working_dir;
};

// Where the build system writes: <entry>/cmake (the CMake build tree) or <entry>/setuptools.
fs::path build_output(const ProjectBuildRequest& request, const fs::path& entry) {
  return entry / (request.kind == ProjectBuildKind::CMake ? "cmake" : "setuptools");
}

// Where the built files are: the CMake build tree, or setuptools' build-lib.
fs::path built_files_dir(const ProjectBuildRequest& request, const fs::path& entry) {
  fs::path output = build_output(request, entry);
  return request.kind == ProjectBuildKind::CMake ? output : output / "lib";
}

std::vector<BuildStep> cmake_steps(const ProjectBuildRequest& request, const fs::path& output) {
  std::vector<std::string> configure = cmake_configure_command(request.project, output, request.release);
  if (request.target_to_pass) {
    configure.push_back("-DCMAKE_CXX_FLAGS=-DTORCH_TARGET_VERSION=" + request.target_to_pass->to_abi_hex());
  }
  return {{configure, {}, output.parent_path()}, {{"cmake", "--build", output.string()}, {}, output.parent_path()}};
}

// setup.py's build_ext under the Python of the environment pip's build would make (setup_py_runner).
std::vector<BuildStep> setuptools_steps(const ProjectBuildRequest& request, const fs::path& output) {
  SetupPyRunner runner = setup_py_runner(request.release, request.project);
  runner.env["MAX_JOBS"] = "1";
  if (request.target_to_pass) runner.env["CPPFLAGS"] = "-DTORCH_TARGET_VERSION=" + request.target_to_pass->to_abi_hex();
  return {{{runner.python.string(), "setup.py", "build_ext", "--build-lib", (output / "lib").string(), "--build-temp",
            (output / "temp").string()},
           runner.env,
           request.project}};
}

// Runs the steps in `directory` (the cache entry's); a build that timed out or was killed says
// nothing about the project and is not cached.
BuildOutcome run_build_steps(const ProjectBuildRequest& request, const fs::path& directory) {
  const fs::path output = build_output(request, directory);
  BuildOutcome outcome;
  BuildManifest& manifest = outcome.manifest;
  std::vector<BuildStep> steps;
  try {
    steps = request.kind == ProjectBuildKind::CMake ? cmake_steps(request, output) : setuptools_steps(request, output);
  } catch (const ToolError& error) {
    // No environment to build in (the package index unreachable, a build requirement that does not
    // install): nothing is known of the project, so nothing is cached.
    manifest.built = false;
    manifest.detail = error.what();
    manifest.first_error = error.what();
    outcome.cacheable = false;
    return outcome;
  }
  manifest.built = true;
  manifest.detail = "built";
  for (const auto& step : steps) {
    ProcessResult result = run_process({.argv = step.argv,
                                        .extra_env = step.env,
                                        .working_dir = step.working_dir,
                                        .timeout = std::chrono::seconds(request.step_timeout_s),
                                        .memory_limit_bytes = kBuildMemoryBytes});
    outcome.log += shell_line(step.argv) + "\n" + result.output;
    manifest.seconds += result.duration.count();
    if (!result.succeeded()) {
      manifest.built = false;
      manifest.detail = result.describe();
      outcome.cacheable = !result.timed_out && !result.term_signal;
      break;
    }
  }
  manifest.first_error = manifest.built ? "" : first_error_line(outcome.log);
  if (manifest.built) {
    for (const auto& library : shared_objects_under(built_files_dir(request, directory))) {
      manifest.outputs.push_back(fs::relative(library, directory).string());
    }
    if (manifest.outputs.empty()) {
      manifest.built = false;
      manifest.detail = "the build finished but produced no shared object";
    }
  }
  return outcome;
}

}  // namespace

ProjectBuild build_project(const ProjectBuildRequest& request) {
  BuildCache cache(request.work_dir / "builds");
  CachedBuild entry = cache.build(build_key(request), request.fresh, [&request](const fs::path& directory) {
    return run_build_steps(request, directory);
  });
  ProjectBuild build;
  build.release = request.release.version;
  build.built = entry.manifest.built;
  build.cached = entry.cached;
  build.detail = entry.manifest.detail;
  build.first_error = entry.manifest.first_error;
  build.directory = built_files_dir(request, entry.directory);
  for (const auto& library : entry.manifest.outputs) build.libraries.push_back(entry.directory / library);
  build.log = std::move(entry.log);
  build.seconds = entry.manifest.seconds;
  return build;
}

}  // namespace abicheck
