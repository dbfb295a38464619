#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "store/release_store.h"

namespace abicheck {

// How a project's own build is pointed at a stored release's torch. One answer for the builds of
// `check` and for the lint, which asks the same build what it would compile.

// `cmake` configuring `project` into `build_dir` with find_package(Torch) finding the release's
// torch and its Python (Release build type, as check builds it).
std::vector<std::string> cmake_configure_command(const std::filesystem::path& project,
                                                 const std::filesystem::path& build_dir, const StoredRelease& release);

// How a project's setup.py runs for a build against `release`, as pip's isolated build runs it: under
// the Python of an environment that holds what the project's pyproject.toml [build-system] requires
// (setuptools where it names nothing), with the release's torch in place of the one pip would fetch.
// Made once per release and requirements by matrix/build_env.py, cached in the store (build-envs/).
struct SetupPyRunner {
  std::filesystem::path python;
  std::map<std::string, std::string> env;
};
// Throws ToolError (one line: the project, the release and pip's reason) when the environment cannot be made.
SetupPyRunner setup_py_runner(const StoredRelease& release, const std::filesystem::path& project);

// The C++ standard torch's cpp_extension compiles an extension with when the extension names none
// ("c++17" up to 2.11, "c++20" from 2.12): the -std= spelled most often in the release's
// torch/utils/cpp_extension.py, found beside its include dir. "c++17" for a header tree without it.
std::string cpp_extension_standard(const std::filesystem::path& torch_include_dir);

}  // namespace abicheck
