#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "lint/extension/compile_commands.h"
#include "store/release_store.h"

namespace abicheck {

// How an extension project is built: the lint reads what that build compiles, and `check` runs it.
enum class ProjectBuildKind { CMake, Setuptools };
std::string build_kind_name(ProjectBuildKind kind);

// The build a project's files describe: the build backend of pyproject.toml when it wraps CMake
// (scikit-build-core, py-build-cmake) or setuptools and the file it needs is there, else setup.py
// (what pip builds a project without a build backend with, even beside a CMakeLists.txt: the
// torch-geometric packages), then CMakeLists.txt; nullopt when there is none. Throws ToolError naming pyproject.toml
// when it is not valid TOML.
std::optional<ProjectBuildKind> find_project_build_kind(const std::filesystem::path& project);

// The translation units the build compiles, as its own tooling reports them against a stored torch
// release, or why it could not say.
struct BuildDescriptionUnits {
  std::vector<UnitToParse> units;
  std::string description;  // "CMake's compile commands", "the extensions of setup.py"
  std::string problem;      // why the tooling could not say (empty when it did)
};

// CMake configured (not built) with CMAKE_EXPORT_COMPILE_COMMANDS in a scratch directory, with
// find_package(Torch) finding `torch`: the compile commands it writes.
BuildDescriptionUnits cmake_units(const std::filesystem::path& project, const StoredRelease& torch);

// setup.py run with setuptools' setup() replaced by a recorder (setup_py_extensions.py beside this
// file), with `torch` importable: the sources, include dirs, macros and compile arguments of each
// Extension it passes, as the build would hand them to the compiler.
BuildDescriptionUnits setup_py_units(const std::filesystem::path& project, const StoredRelease& torch);

}  // namespace abicheck
