#pragma once

#include <filesystem>
#include <string_view>

namespace abicheck {

// A fresh private directory under $TMPDIR, removed with everything in it when this goes away.
class ScopedTempDir {
 public:
  explicit ScopedTempDir(std::string_view prefix);
  ~ScopedTempDir();
  ScopedTempDir(const ScopedTempDir&) = delete;
  ScopedTempDir& operator=(const ScopedTempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace abicheck
