#pragma once

#include <filesystem>
#include <string_view>

namespace abicheck {

// Writes a report or baseline file so that a reader sees the old file or the whole new one, never
// a partial one: the content goes to a temporary file beside it, which is then renamed over it.
// "-" writes to standard output.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

}  // namespace abicheck
