#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace abicheck {

// Paths are shown relative to display_base when the file lies under it, else absolute, so that
// text output is clickable and reports of one tree are byte-identical wherever the tree is.
std::string display_path(const std::filesystem::path& file, const std::filesystem::path& display_base);

// A name as one line of a terminal or log shows it: bytes that are not UTF-8, and control characters,
// as \xNN. A file's name is bytes on Linux; the user must still see which file an error means.
std::string printable_name(std::string_view name);

}  // namespace abicheck
