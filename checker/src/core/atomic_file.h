#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace abicheck {

// Writes a report or baseline file so that a reader sees the old file or the whole new one, never
// a partial one: the content goes to a temporary file beside it, which is then renamed over it.
// "-" writes to standard output.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

// The text of `written` (what a child process wrote, a cell's result), also kept whole at `keep` (a
// cache entry; its folder is made); nullopt when nothing was written.
std::optional<std::string> read_and_keep(const std::filesystem::path& written, const std::filesystem::path& keep);

}  // namespace abicheck
