#pragma once

#include <filesystem>
#include <vector>

#include "lint/extension/extension_facts.h"
#include "lint/extension/extension_sources.h"

namespace abicheck {

// Where the build torch's headers are, and what else a translation unit needs to parse.
struct ParseEnvironment {
  std::filesystem::path torch_include_dir;               // the build torch B: <site-packages>/torch/include
  std::vector<std::filesystem::path> cuda_include_dirs;  // CUDA runtime headers for .cu sources; may be empty
  std::filesystem::path project_root;
  std::string cxx_standard = "c++17";  // what cpp_extension gives B's builds that name none
};

// Parses one translation unit with libclang against B's headers, at the target its flags and
// sources define, and returns what the rules need.
TranslationUnitFacts parse_translation_unit(const UnitToParse& unit, const ParseEnvironment& environment);

// Every unit of the project (two at a time), plus the build-file facts and the directives of each
// project file that the units include.
ExtensionFacts collect_extension_facts(const ExtensionSources& sources, const ParseEnvironment& environment);

// CUDA's runtime headers as the NVIDIA wheels of the store install them for one CUDA major
// (<store>/cuda/cu<major>/site/nvidia/**/include), else /usr/local/cuda/include.
std::vector<std::filesystem::path> find_cuda_include_dirs(const std::filesystem::path& store_root, int cuda_major);

}  // namespace abicheck
