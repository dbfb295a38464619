#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace abicheck {

// A 64-bit FNV-1a digest of text and files, for cache keys (builds by sources, results by tests).
// Not a security measure: the caches belong to the user who runs the tool.
class ContentHash {
 public:
  ContentHash& add(std::string_view text);
  // The file's relative name (to `base`) and its bytes, so renames count as changes.
  ContentHash& add_file(const std::filesystem::path& file, const std::filesystem::path& base);
  // Every regular file under `directory`, in sorted order.
  ContentHash& add_tree(const std::filesystem::path& directory);
  std::string hex() const;
  std::uint64_t value() const { return state_; }

 private:
  std::uint64_t state_ = 0xcbf29ce484222325ULL;
};

}  // namespace abicheck
