#pragma once

#include <filesystem>
#include <string_view>
#include <vector>

#include "lint/extension/extension_facts.h"

namespace abicheck {

// The preprocessor directives of a C/C++ source, read lexically: comments removed, continued lines
// joined, conditionals not evaluated. For idioms a front end does not expose (#pragma push_macro)
// and for macro names used in #if lines that may not be active.
std::vector<PreprocessorDirective> scan_preprocessor_directives(std::string_view text);
// Throws ToolError naming the file when it cannot be read.
std::vector<PreprocessorDirective> scan_preprocessor_directives_of(const std::filesystem::path& file);

}  // namespace abicheck
