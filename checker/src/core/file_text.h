#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace abicheck {

// The whole file as bytes; throws ToolError naming the file when it cannot be read, or when it is larger
// than any text this tool reads (kMaxTextBytes: a source, a JSON or TOML document), at once rather than
// after reading gigabytes.
inline constexpr std::uintmax_t kMaxTextBytes = std::uintmax_t{1} << 30;
std::string read_file_text(const std::filesystem::path& file);

}  // namespace abicheck
