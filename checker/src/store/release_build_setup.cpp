#include "store/release_build_setup.h"

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

std::map<std::string, std::string> setuptools_environment(const StoredRelease& release) {
  return {{"PYTHONPATH", release.torch_dir.parent_path().string()}, {"PYTHONDONTWRITEBYTECODE", "1"}};
}

}  // namespace abicheck
