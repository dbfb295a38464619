#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "lint/extension/build_description.h"
#include "lint/extension/compile_commands.h"
#include "lint/extension/extension_facts.h"
#include "store/release_store.h"

namespace abicheck {

// Where a project's translation units came from.
enum class UnitsOrigin {
  CompileCommands,   // the compile_commands.json given or found in the project (or its build/)
  BuildDescription,  // the project's build (CMake, setup.py), asked what it compiles
  SourceTree,        // every C++ and CUDA source under the directory: the build could not say
};

// A project's translation units and the facts of its build files: the one answer to "what does
// this project compile, and how", for the lint and for `check`.
struct ExtensionSources {
  std::filesystem::path root;  // the project: the directory given, or the one holding compile_commands.json
  std::vector<UnitToParse> units;
  UnitsOrigin units_origin = UnitsOrigin::SourceTree;
  std::string units_note;  // for the output: where the units came from, and why the source tree when it is that
  std::vector<TargetDefinition> build_file_targets;
  std::vector<TorchRequirement> torch_requirements;
};

// What running the project's build description needs.
struct SourceDiscovery {
  // The release its CMake finds with find_package(Torch) and its setup.py imports; none: the source tree.
  std::optional<StoredRelease> torch;
  std::optional<ProjectBuildKind> build_kind;  // as configured; none: find_project_build_kind
};

// From compile_commands.json when the path is one or the directory holds one (also in build/); else
// what the project's build description compiles (build_description.h), run against discovery.torch;
// else every C++ and CUDA source under the directory, with the target its build files define.
// Throws ToolError on a path that is neither a directory nor a compile_commands.json, or a malformed
// compile_commands.json or pyproject.toml.
ExtensionSources find_extension_sources(const std::filesystem::path& directory_or_database,
                                        const SourceDiscovery& discovery = {});

// The build-file facts alone (also used for the compile_commands.json case).
void read_build_files(const std::filesystem::path& root, ExtensionSources& sources);

}  // namespace abicheck
