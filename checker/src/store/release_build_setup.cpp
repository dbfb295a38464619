#include "store/release_build_setup.h"

#include <regex>

#include "core/file_text.h"

namespace abicheck {

std::vector<std::string> cmake_configure_command(const std::filesystem::path& project,
                                                 const std::filesystem::path& build_dir, const StoredRelease& release) {
  const std::string python = release.python.string();
  return {"cmake",
          "-S",
          project.string(),
          "-B",
          build_dir.string(),
          "-DCMAKE_BUILD_TYPE=Release",
          "-DCMAKE_PREFIX_PATH=" + (release.torch_dir / "share" / "cmake").string(),
          "-DPython_EXECUTABLE=" + python,
          "-DPython3_EXECUTABLE=" + python,
          "-DPYTHON_EXECUTABLE=" + python};
}

std::string cpp_extension_standard(const std::filesystem::path& torch_include_dir) {
  const std::filesystem::path script = torch_include_dir.parent_path() / "utils" / "cpp_extension.py";
  if (!std::filesystem::is_regular_file(script)) return "c++17";
  // The script spells its default in every flag list it builds (host, nvcc, MSVC, SYCL); a single
  // other spelling is an exception for one compiler, not the default.
  const std::string text = read_file_text(script);
  std::map<std::string, int> spellings;
  static const std::regex standard_flag(R"(std=(c\+\+\d\d))");
  for (std::sregex_iterator it(text.begin(), text.end(), standard_flag), end; it != end; ++it) ++spellings[(*it)[1]];
  std::string most_often = "c++17";
  int count = 0;
  for (const auto& [spelling, seen] : spellings) {
    if (seen > count) most_often = spelling, count = seen;
  }
  return most_often;
}

std::map<std::string, std::string> setuptools_environment(const StoredRelease& release) {
  return {{"PYTHONPATH", release.torch_dir.parent_path().string()}, {"PYTHONDONTWRITEBYTECODE", "1"}};
}

}  // namespace abicheck
