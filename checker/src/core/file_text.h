#pragma once

#include <filesystem>
#include <string>

namespace abicheck {

// The whole file as bytes; throws ToolError naming the file when it cannot be read.
std::string read_file_text(const std::filesystem::path& file);

}  // namespace abicheck
