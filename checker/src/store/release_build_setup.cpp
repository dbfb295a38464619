#include "store/release_build_setup.h"

#include <fmt/format.h>

#include <regex>

#include "core/file_text.h"
#include "core/process.h"
#include "core/project_paths.h"
#include "core/tool_error.h"

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

SetupPyRunner setup_py_runner(const StoredRelease& release, const std::filesystem::path& project) {
  // In the default store (build-envs/), also for a torch package of the user's own environment.
  const std::filesystem::path store_root = ReleaseStore::default_root();
  ProcessResult made = run_process({.argv = {host_python(), (project_root() / "matrix" / "build_env.py").string(),
                                             "--store", store_root.string(), "--python", release.python.string(),
                                             "--site", release.torch_dir.parent_path().string(), project.string()},
                                    .timeout = std::chrono::minutes(10)});
  std::string output = made.tail(1);
  if (!made.succeeded() || !output.ends_with("/bin/python")) {
    std::string reason = made.tail(1);
    if (reason.starts_with("torch-abi-check: error: "))
      reason.erase(0, std::string_view("torch-abi-check: error: ").size());
    throw ToolError(fmt::format("{}: could not set up the build environment pip would use with torch {} ({}): {}",
                                project.string(), release.version.to_string(), made.describe(), reason));
  }
  return {output, {{"PYTHONDONTWRITEBYTECODE", "1"}}};
}

}  // namespace abicheck
