#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "lint/extension/extension_facts.h"

namespace abicheck {

// One translation unit to parse: its source and the flags of its compile command that matter to a
// front end (-I, -isystem, -iquote, -D, -U, -std, -include), torch's own include dirs removed so
// that the build torch's headers can be put in their place.
struct UnitToParse {
  std::filesystem::path source;
  SourceLanguage language = SourceLanguage::Cxx;
  std::vector<std::string> arguments;
  std::vector<TargetDefinition> command_line_targets;
};

struct ExtensionSources {
  std::filesystem::path root;  // the project: the directory given, or the one holding compile_commands.json
  std::vector<UnitToParse> units;
  std::vector<TargetDefinition> build_file_targets;
  std::vector<TorchRequirement> torch_requirements;
};

// From compile_commands.json when the path is one or the directory holds one (also in build/),
// else every C++ and CUDA source under the directory, with the target its build files define.
// Throws ToolError on a path that is neither, or a malformed compile_commands.json.
ExtensionSources find_extension_sources(const std::filesystem::path& directory_or_database);

// The build-file facts alone (also used for the compile_commands.json case).
void read_build_files(const std::filesystem::path& root, ExtensionSources& sources);

}  // namespace abicheck
