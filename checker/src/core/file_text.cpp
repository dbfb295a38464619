#include "core/file_text.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "core/display_path.h"
#include "core/tool_error.h"

namespace abicheck {

std::string read_file_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ToolError(fmt::format("{}: cannot be read", printable_name(file.string())));
  std::error_code error;
  if (std::uintmax_t size = std::filesystem::file_size(file, error); !error && size > kMaxTextBytes) {
    throw ToolError(fmt::format("{}: {:.1f} GiB, larger than any text this tool reads (at most {} GiB)",
                                printable_name(file.string()), static_cast<double>(size) / (1u << 30),
                                kMaxTextBytes >> 30));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace abicheck
