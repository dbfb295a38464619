#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/torch_version.h"
#include "lint/extension/build_description.h"

namespace abicheck {

// The `[tool.torch-abi-check]` table of the project's pyproject.toml, or the top level of a
// --config TOML file:
//   target = "2.13"                 the oldest torch the extension supports (else: its build files)
//   build = "cmake" | "setuptools"  (else: CMakeLists.txt, then setup.py)
//   smoke = "python tests/smoke.py" (a shell line) or ["python", "tests/smoke.py"] (an argv)
//   timeout_s = 300                 per smoke run
//   build_timeout_s = 900           per build step
struct CheckConfig {
  std::filesystem::path file;  // where the table was read; empty when the project has none
  std::optional<TorchVersion> target;
  std::optional<ProjectBuildKind> build;
  std::vector<std::string> smoke;  // argv; a shell line becomes {"/bin/sh", "-c", line}
  int timeout_s = 300;
  int build_timeout_s = 900;
};

// Reads `config_file` when given, else DIR/pyproject.toml's table when there is one. Unknown keys,
// wrong types and unreadable TOML are a ToolError naming the file (and the key).
CheckConfig load_check_config(const std::filesystem::path& project,
                              const std::optional<std::filesystem::path>& config_file);

// The configured build kind, else the one the project's files show (find_project_build_kind); nullopt
// when it has neither CMakeLists.txt nor setup.py (a compile_commands.json alone is linted, not built).
std::optional<ProjectBuildKind> detect_build_kind(const std::filesystem::path& project, const CheckConfig& config);

}  // namespace abicheck
