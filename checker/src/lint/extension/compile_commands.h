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

// A C++ or CUDA source (.cpp, .cc, .cxx, .c++, .cu): what the lint parses.
bool is_translation_unit(const std::filesystem::path& source);

// The unit a compiler command line (gcc, clang or nvcc; words[0] is the compiler) makes of `source`,
// with relative paths taken against `directory`.
UnitToParse unit_from_compiler_command(const std::filesystem::path& source, const std::vector<std::string>& words,
                                       const std::filesystem::path& directory);

// Every entry of a compilation database, sorted by source. Throws ToolError naming the file when it
// is not valid JSON or not a compilation database.
std::vector<UnitToParse> read_compile_commands(const std::filesystem::path& database);

}  // namespace abicheck
