#include "core/atomic_file.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

#include "core/file_text.h"
#include "core/tool_error.h"

namespace fs = std::filesystem;

namespace abicheck {

void write_file_atomically(const fs::path& path, std::string_view content) {
  if (path == "-") {
    std::cout << content << std::flush;
    return;
  }
  fs::path temporary = path;
  temporary += fmt::format(".tmp{}", getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw ToolError(fmt::format("{}: cannot be written: {}", path.string(), std::strerror(errno)));
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.close();
    if (!out) {
      std::error_code ignored;
      fs::remove(temporary, ignored);
      throw ToolError(fmt::format("{}: cannot be written: {}", path.string(), std::strerror(errno)));
    }
  }
  std::error_code error;
  fs::rename(temporary, path, error);
  if (error) {
    fs::remove(temporary, error);
    throw ToolError(fmt::format("{}: cannot be written: {}", path.string(), error.message()));
  }
}

std::optional<std::string> read_and_keep(const fs::path& written, const fs::path& keep) {
  if (!fs::exists(written)) return std::nullopt;
  std::string text = read_file_text(written);
  fs::create_directories(keep.parent_path());
  write_file_atomically(keep, text);
  return text;
}

}  // namespace abicheck
