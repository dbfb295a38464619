#include "check/project_build.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "core/atomic_file.h"
#include "core/process.h"
#include "core/project_paths.h"
#include "matrix/content_hash.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

// Changing how projects are built must invalidate every cached build.
constexpr std::string_view kBuildRecipe = "check-project-build/v1";
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
  hash.add(kBuildRecipe).add(build_kind_name(request.kind));
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

std::vector<BuildStep> cmake_steps(const ProjectBuildRequest& request, const fs::path& output) {
  const std::string python = request.release.python.string();
  std::vector<std::string> configure = {"cmake", "-S", request.project.string(), "-B", output.string(),
                                        "-DCMAKE_BUILD_TYPE=Release",
                                        "-DCMAKE_PREFIX_PATH=" + (request.release.torch_dir / "share" / "cmake").string(),
                                        "-DPython_EXECUTABLE=" + python, "-DPython3_EXECUTABLE=" + python,
                                        "-DPYTHON_EXECUTABLE=" + python};
  if (request.target_to_pass) {
    configure.push_back("-DCMAKE_CXX_FLAGS=-DTORCH_TARGET_VERSION=" + request.target_to_pass->to_abi_hex());
  }
  return {{configure, {}, output.parent_path()}, {{"cmake", "--build", output.string()}, {}, output.parent_path()}};
}

// The store's venvs have no setuptools: the host's Python 3 (the same minor as the venvs) runs
// setup.py, and imports B's torch from B's site-packages.
std::vector<BuildStep> setuptools_steps(const ProjectBuildRequest& request, const fs::path& output) {
  std::map<std::string, std::string> env = {{"PYTHONPATH", request.release.torch_dir.parent_path().string()},
                                            {"PYTHONDONTWRITEBYTECODE", "1"},
                                            {"MAX_JOBS", "1"}};
  if (request.target_to_pass) env["CPPFLAGS"] = "-DTORCH_TARGET_VERSION=" + request.target_to_pass->to_abi_hex();
  return {{{host_python(), "setup.py", "build_ext", "--build-lib", (output / "lib").string(), "--build-temp",
            (output / "temp").string()},
           env,
           request.project}};
}

bool read_cached(const fs::path& directory, ProjectBuild& build) {
  std::ifstream stream(directory / "build.json");
  if (!stream) return false;
  auto saved = nlohmann::json::parse(stream, nullptr, false);
  if (saved.is_discarded()) return false;
  build.cached = true;
  build.built = saved.value("built", false);
  build.detail = saved.value("detail", "");
  build.first_error = saved.value("first_error", "");
  build.seconds = saved.value("seconds", 0.0);
  for (const auto& library : saved.value("libraries", std::vector<std::string>{})) build.libraries.push_back(directory / library);
  std::ifstream log(directory / "build.log");
  build.log.assign(std::istreambuf_iterator<char>(log), std::istreambuf_iterator<char>());
  return true;
}

}  // namespace

ProjectBuild build_project(const ProjectBuildRequest& request) {
  ProjectBuild build;
  build.release = request.release.version;
  const fs::path directory = request.work_dir / "builds" / build_key(request);
  const fs::path output = directory / (request.kind == ProjectBuildKind::CMake ? "cmake" : "setuptools");
  build.directory = request.kind == ProjectBuildKind::CMake ? output : output / "lib";
  if (!request.fresh && read_cached(directory, build)) return build;

  // A directory without build.json is what an interrupted run left: start again.
  fs::remove_all(directory);
  fs::create_directories(directory);
  auto steps = request.kind == ProjectBuildKind::CMake ? cmake_steps(request, output) : setuptools_steps(request, output);

  bool cacheable = true;
  build.built = true;
  build.detail = "built";
  for (const auto& step : steps) {
    ProcessResult result = run_process({.argv = step.argv,
                                        .extra_env = step.env,
                                        .working_dir = step.working_dir,
                                        .timeout = std::chrono::seconds(request.step_timeout_s),
                                        .memory_limit_bytes = kBuildMemoryBytes});
    build.log += shell_line(step.argv) + "\n" + result.output;
    build.seconds += result.duration.count();
    if (!result.succeeded()) {
      build.built = false;
      build.detail = result.describe();
      cacheable = !result.timed_out && !result.term_signal;
      break;
    }
  }
  build.first_error = build.built ? "" : first_error_line(build.log);
  if (build.built) {
    build.libraries = shared_objects_under(build.directory);
    if (build.libraries.empty()) {
      build.built = false;
      build.detail = "the build finished but produced no shared object";
    }
  }

  write_file_atomically(directory / "build.log", build.log);
  if (cacheable) {
    std::vector<std::string> libraries;
    for (const auto& library : build.libraries) libraries.push_back(fs::relative(library, directory).string());
    nlohmann::json saved = {{"built", build.built}, {"detail", build.detail}, {"first_error", build.first_error},
                            {"seconds", build.seconds}, {"libraries", libraries}};
    write_file_atomically(directory / "build.json", saved.dump(1) + "\n");
  }
  return build;
}

}  // namespace abicheck
