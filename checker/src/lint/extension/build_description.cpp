#include "lint/extension/build_description.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>

#include "core/file_text.h"
#include "core/process.h"
#include "core/project_paths.h"
#include "core/scoped_temp_dir.h"
#include "core/tool_error.h"
#include "store/release_build_setup.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

// Configuring runs the project's CMake code and torch's; reading setup.py imports torch. Either
// finishes in seconds; the limits only stop one that hangs.
constexpr std::chrono::seconds kConfigureTimeout{300};
constexpr std::chrono::seconds kSetupPyTimeout{120};

std::optional<std::string> build_backend(const fs::path& pyproject) {
  if (!fs::is_regular_file(pyproject)) return std::nullopt;
  try {
    toml::table document = toml::parse(read_file_text(pyproject), pyproject.string());
    return document["build-system"]["build-backend"].value<std::string>();
  } catch (const toml::parse_error& error) {
    throw ToolError(fmt::format("{}: line {}: {}", pyproject.string(), error.source().begin.line, error.description()));
  }
}

bool wraps_cmake(const std::string& backend) {
  return backend.starts_with("scikit_build_core") || backend.starts_with("py_build_cmake");
}

// The last non-empty line of a tool's output: where CMake and Python put the reason they stopped.
std::string last_line(const ProcessResult& result) {
  std::string tail = result.tail(1);
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r')) tail.pop_back();
  return tail.empty() ? result.describe() : fmt::format("{} ({})", tail, result.describe());
}

// The compiler command setuptools would run for one source of an extension: its include dirs, its
// macros, then its extra arguments (nvcc's for CUDA sources).
std::vector<std::string> setuptools_command(const nlohmann::json& extension, const fs::path& source) {
  std::vector<std::string> words = {"c++"};
  for (const auto& directory : extension.at("include_dirs")) words.push_back("-I" + directory.get<std::string>());
  for (const auto& define : extension.at("defines")) words.push_back("-D" + define.get<std::string>());
  for (const auto& undefine : extension.at("undefines")) words.push_back("-U" + undefine.get<std::string>());
  const auto& extra = source.extension() == ".cu" ? extension.at("nvcc_arguments") : extension.at("cxx_arguments");
  for (const auto& argument : extra) words.push_back(argument.get<std::string>());
  return words;
}

}  // namespace

std::string build_kind_name(ProjectBuildKind kind) { return kind == ProjectBuildKind::CMake ? "cmake" : "setuptools"; }

std::optional<ProjectBuildKind> find_project_build_kind(const fs::path& project) {
  const bool has_cmake = fs::is_regular_file(project / "CMakeLists.txt");
  const bool has_setup_py = fs::is_regular_file(project / "setup.py");
  if (auto backend = build_backend(project / "pyproject.toml")) {
    if (wraps_cmake(*backend) && has_cmake) return ProjectBuildKind::CMake;
    if (backend->starts_with("setuptools") && has_setup_py) return ProjectBuildKind::Setuptools;
  }
  if (has_setup_py) return ProjectBuildKind::Setuptools;
  if (has_cmake) return ProjectBuildKind::CMake;
  return std::nullopt;
}

BuildDescriptionUnits cmake_units(const fs::path& project, const StoredRelease& torch) {
  BuildDescriptionUnits found;
  found.description =
      fmt::format("the compile commands CMake exports (configured against torch {})", torch.version.to_string());
  ScopedTempDir scratch("torch-abi-check-cmake");
  std::vector<std::string> configure = cmake_configure_command(project, scratch.path() / "build", torch);
  configure.push_back("-DCMAKE_EXPORT_COMPILE_COMMANDS=ON");
  ProcessResult result = run_process({.argv = configure, .working_dir = scratch.path(), .timeout = kConfigureTimeout});
  const fs::path database = scratch.path() / "build" / "compile_commands.json";
  if (!result.succeeded()) {
    found.problem = fmt::format("cmake could not configure the project: {}", last_line(result));
  } else if (!fs::is_regular_file(database)) {
    found.problem = "cmake wrote no compile_commands.json (a generator without compile commands?)";
  } else {
    found.units = read_compile_commands(database);
  }
  return found;
}

BuildDescriptionUnits setup_py_units(const fs::path& project, const StoredRelease& torch) {
  BuildDescriptionUnits found;
  found.description = fmt::format("the extensions setup.py declares (read with torch {})", torch.version.to_string());
  ScopedTempDir scratch("torch-abi-check-setup-py");
  const fs::path output = scratch.path() / "extensions.json";
  const fs::path helper = project_root() / "checker" / "src" / "lint" / "extension" / "setup_py_extensions.py";
  SetupPyRunner runner;
  try {
    runner = setup_py_runner(torch, project);
  } catch (const ToolError& error) {
    found.problem = error.what();
    return found;
  }
  ProcessResult result =
      run_process({.argv = {runner.python.string(), helper.string(), project.string(), output.string()},
                   .extra_env = runner.env,
                   .working_dir = project,
                   .timeout = kSetupPyTimeout});
  if (!result.succeeded()) {
    found.problem = fmt::format("setup.py could not be read: {}", last_line(result));
    return found;
  }
  const nlohmann::json document = nlohmann::json::parse(read_file_text(output));
  for (const auto& extension : document.at("extensions")) {
    for (const auto& source_text : extension.at("sources")) {
      fs::path source = source_text.get<std::string>();
      if (!is_translation_unit(source)) continue;
      found.units.push_back(unit_from_compiler_command(source, setuptools_command(extension, source), project));
    }
  }
  std::ranges::sort(found.units, {}, &UnitToParse::source);
  return found;
}

}  // namespace abicheck
