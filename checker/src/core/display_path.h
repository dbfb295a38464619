#pragma once

#include <filesystem>
#include <string>

namespace abicheck {

// Paths are shown relative to display_base when the file lies under it, else absolute, so that
// text output is clickable and reports of one tree are byte-identical wherever the tree is.
std::string display_path(const std::filesystem::path& file, const std::filesystem::path& display_base);

}  // namespace abicheck
