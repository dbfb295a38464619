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

// The environment under which the host's Python 3 runs a setup.py that imports the release's torch:
// the store's venvs have no setuptools, so the host Python (the same minor) imports torch from the
// release's site-packages.
std::map<std::string, std::string> setuptools_environment(const StoredRelease& release);

// The C++ standard torch's cpp_extension compiles an extension with when the extension names none
// ("c++17" up to 2.11, "c++20" from 2.12): the -std= spelled most often in the release's
// torch/utils/cpp_extension.py, found beside its include dir. "c++17" for a header tree without it.
std::string cpp_extension_standard(const std::filesystem::path& torch_include_dir);

}  // namespace abicheck
