#pragma once

#include <string>
#include <vector>

#include "baseline/release_history.h"
#include "core/torch_version.h"
#include "inventory/shim_inventory.h"

namespace abicheck {

struct MatrixCell;

// A hand-written shim that no cell under a release could run: its declaration needs a backend's define
// (`needs`: USE_CUDA, USE_MPS, USE_XPU) and no cell under that release ran its tests on that backend
// (CPU cells never do; CUDA and ROCm cells only with a device). Listed, and left out of the
// hand-written figures, so that the figures measure what this machine could exercise.
struct NotApplicableShim {
  std::string name;
  std::string needs;

  auto operator<=>(const NotApplicableShim&) const = default;
};

// How much of one release's C shim the matrix exercised under that release as the runtime.
// "Hand-written" shims are the functions of the shim headers outside aoti_torch/generated/ (those
// are generated per aten op); every figure is also given for all shim functions.
struct ReleaseShimCoverage {
  TorchVersion release;
  int declared = 0;  // shim functions the release's committed inventory declares
  int imported = 0;  // ... of those, imported by a library of some cell run under this release
  int called = 0;    // ... of those, called at least once in such a cell (measured)
  int hand_written_declared = 0;
  int hand_written_imported = 0;
  int hand_written_called = 0;
  std::vector<std::string> hand_written_not_imported;          // sorted
  std::vector<std::string> hand_written_imported_not_called;   // sorted; empty when calls are not measured
  std::vector<NotApplicableShim> hand_written_not_applicable;  // sorted; in none of the hand_written_* figures
};

struct ShimCoverage {
  bool calls_measured = false;  // false: "called" figures are 0 and `note` says why
  std::string note;
  std::vector<ReleaseShimCoverage> releases;  // oldest first; releases without a committed baseline are left out
};

bool is_hand_written_shim(const ShimDeclaration& declaration);

// The backend define a declaration's condition needs ("USE_XPU" for "USE_XPU && !TORCH_TARGET_VERSION";
// a negated "!USE_CUDA" needs none), or "" when it is visible on every backend.
std::string backend_needed(const ShimDeclaration& declaration);

// The coverage of every runtime release among `cells` that has a baseline in `history`.
ShimCoverage measure_shim_coverage(const std::vector<MatrixCell>& cells, const ReleaseHistory& history,
                                   bool calls_measured, const std::string& note);

}  // namespace abicheck
