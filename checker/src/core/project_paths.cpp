#include "core/project_paths.h"

#include <cstdlib>

namespace abicheck {

std::filesystem::path project_root() {
  if (const char* home = std::getenv("TORCH_ABI_CHECK_HOME"); home != nullptr && *home != '\0') return home;
  return TORCH_ABI_CHECK_SOURCE_DIR;
}

std::string host_python() {
  if (const char* python = std::getenv("TORCH_ABI_CHECK_PYTHON"); python != nullptr && *python != '\0') return python;
  return "python3";
}

std::filesystem::path user_cache_dir() {
  if (const char* cache = std::getenv("XDG_CACHE_HOME"); cache != nullptr && *cache != '\0') {
    return std::filesystem::path(cache) / "torch-abi-check";
  }
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home != nullptr ? home : "/tmp") / ".cache" / "torch-abi-check";
}

}  // namespace abicheck
