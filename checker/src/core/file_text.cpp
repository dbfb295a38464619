#include "core/file_text.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "core/tool_error.h"

namespace abicheck {

std::string read_file_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ToolError(fmt::format("{}: cannot be read", file.string()));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace abicheck
