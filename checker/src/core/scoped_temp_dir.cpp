#include "core/scoped_temp_dir.h"

#include <fmt/format.h>
#include <stdlib.h>

#include <cerrno>
#include <cstring>

#include "core/tool_error.h"

namespace abicheck {

ScopedTempDir::ScopedTempDir(std::string_view prefix) {
  std::string pattern = (std::filesystem::temp_directory_path() / fmt::format("{}-XXXXXX", prefix)).string();
  if (!mkdtemp(pattern.data())) {
    throw ToolError(fmt::format("{}: cannot create a temporary directory: {}", pattern, std::strerror(errno)));
  }
  path_ = pattern;
}

ScopedTempDir::~ScopedTempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace abicheck
