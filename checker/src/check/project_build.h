#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "check/check_config.h"
#include "core/torch_version.h"
#include "store/release_store.h"

namespace abicheck {

// One build of the author's project against one store release B.
struct ProjectBuildRequest {
  std::filesystem::path project;
  ProjectBuildKind kind = ProjectBuildKind::CMake;
  StoredRelease release;
  // The target to pass on the command line; nullopt when the project defines its own (or has none).
  std::optional<TorchVersion> target_to_pass;
  std::filesystem::path work_dir;  // builds go to <work_dir>/builds/<key>/, never into the project
  int step_timeout_s = 900;
  bool fresh = false;  // ignore a cached build
};

struct ProjectBuild {
  TorchVersion release;
  bool built = false;
  bool cached = false;
  std::string detail;               // "built", or how the failing step ended ("exit 1", "timed out after 900 s")
  std::string first_error;          // the first compiler "error:" line of the log, when there is one
  std::filesystem::path directory;  // where the built files are (CMake build dir, setuptools build-lib)
  std::vector<std::filesystem::path> libraries;  // every shared object built, sorted
  std::string log;                               // each command and its output
  double seconds = 0;
};

// Configures and builds (CMake: -DCMAKE_PREFIX_PATH=<torch>/share/cmake, B's python; setuptools:
// the host python3's setup.py build_ext with B's site-packages on PYTHONPATH), each step in its own
// process with the timeout. A finished build (built or failed by the compiler) is kept in the build
// cache (core/build_cache.h) by the project's files, B, the target and the recipe; a timed-out or
// killed one is not.
ProjectBuild build_project(const ProjectBuildRequest& request);

}  // namespace abicheck
