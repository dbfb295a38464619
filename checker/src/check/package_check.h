#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "aoti/aoti_run.h"
#include "audit/binary_audit.h"
#include "store/release_store.h"

namespace abicheck {

// `check MODEL.pt2`: an AOTInductor package checked the way `check DIR` checks a project: the audit
// of its compiled objects (what the package records, the shims they import, its minimum torch and a
// prediction for every stored release), then the package loaded under every stored release from that
// minimum on by both loaders (the aoti cells: a forked child per release, torch._inductor.aoti_load_package;
// a process per release of the C++ runner built against it, torch::inductor::AOTIModelPackageLoader),
// each failure with its cause and what a user can do. Below the minimum the prediction stands. The
// package holds no inputs: a cell proves that it loads (its objects' symbols resolve against the
// release, its constants load, the model container is made), not that it runs or what it computes.

struct PackageCheckRequest {
  std::filesystem::path package;
  std::filesystem::path work_dir;   // the aoti cache (cell results, the setuptools folder)
  std::filesystem::path baselines;  // committed shim_decls/
  bool fresh = false;               // load again even where a cached result matches
  unsigned jobs = 1;                // releases loaded side by side
  std::function<void(const std::string& line)> progress;
};

struct PackageCheckResult {
  std::filesystem::path package;
  std::optional<TorchVersion> min_torch;  // the newest shim its compiled objects import; none: unknown
  std::vector<TorchVersion> runtimes;     // the stored releases it was loaded under (from min_torch on)
  AuditReport audit;                      // judged against every stored release
  AotiResult loads;                       // one package, a cell per stored release and loader
};

// A file named *.pt2: what `check` takes for a package rather than a project directory.
bool is_package_check_input(const std::filesystem::path& path);

// Throws ToolError for bad input: no such file, not a readable .pt2 (no zip), an empty store.
PackageCheckResult run_package_check(const ReleaseStore& store, const PackageCheckRequest& request);

}  // namespace abicheck
