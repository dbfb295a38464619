#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "canary/canary_spec.h"
#include "core/torch_version.h"

namespace abicheck {

// A package of the spec, ready to load: its wheel hashed and unpacked once in the cache.
struct CanaryPackage {
  CanaryPackageSpec spec;
  std::string distribution;  // the wheel's Name
  std::string version;
  std::filesystem::path wheel;  // empty for a directory used in place
  std::string sha256;           // of the wheel; of the directory's listing for a directory
  std::filesystem::path unpacked;
  std::vector<std::string> modules;         // what it provides to import
  std::vector<std::string> requires_torch;  // its Requires-Dist on torch, as written
  // Its own declared dependencies, installed (cached by what it asks for); empty: it declares none.
  std::filesystem::path dependencies;
  std::vector<std::string> missing_dependencies;  // declared, but pip could not install them: "req: why"
  // The release it was built for, when its requirement pins one (`torch==2.9.1`).
  std::optional<TorchVersion> pinned_torch;
};

// A package that could not be got ready, in one line that names it and the problem.
struct CanaryProblem {
  std::string package;
  std::string problem;
};

struct PreparedPackages {
  std::vector<CanaryPackage> packages;  // in spec order
  std::vector<CanaryProblem> problems;
};

// Gets every package ready through matrix/canary_fetch.py (downloading needs pip) into
// `cache_dir`/{downloads,unpacked,dependencies}: each wheel, checked against its pinned sha256, and
// its own declared dependencies installed for real. A package that cannot be got (or whose
// dependencies cannot) is a problem, not an error; a failure of the script itself is a ToolError.
PreparedPackages prepare_canary_packages(const CanarySpec& spec, const std::filesystem::path& cache_dir);

// The release a `torch==X.Y.Z` requirement pins; nullopt for a range or no requirement.
std::optional<TorchVersion> pinned_torch_release(const std::vector<std::string>& requires_torch);

}  // namespace abicheck
