#include "core/content_hash.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <vector>

#include "core/tool_error.h"

namespace abicheck {

ContentHash& ContentHash::add(std::string_view text) {
  for (unsigned char byte : text) {
    state_ ^= byte;
    state_ *= 0x100000001b3ULL;
  }
  // A separator, so that ("ab","c") and ("a","bc") differ.
  state_ ^= 0xff;
  state_ *= 0x100000001b3ULL;
  return *this;
}

ContentHash& ContentHash::add_file(const std::filesystem::path& file, const std::filesystem::path& base) {
  std::ifstream stream(file, std::ios::binary);
  if (!stream) throw ToolError(fmt::format("{}: cannot read", file.string()));
  std::string bytes((std::istreambuf_iterator<char>(stream)), std::istreambuf_iterator<char>());
  add(std::filesystem::relative(file, base).generic_string());
  return add(bytes);
}

ContentHash& ContentHash::add_tree(const std::filesystem::path& directory) {
  std::vector<std::filesystem::path> files;
  if (!std::filesystem::is_directory(directory)) return add("<no " + directory.generic_string() + ">");
  for (auto it = std::filesystem::recursive_directory_iterator(directory);
       it != std::filesystem::recursive_directory_iterator(); ++it) {
    if (it->path().filename() == "__pycache__") {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && it->path().filename().string().front() != '.') files.push_back(it->path());
  }
  std::ranges::sort(files);
  for (const auto& file : files) add_file(file, directory);
  return *this;
}

std::string ContentHash::hex() const { return fmt::format("{:016x}", state_); }

}  // namespace abicheck
