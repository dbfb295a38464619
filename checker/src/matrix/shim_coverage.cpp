#include "matrix/shim_coverage.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string_view>

#include "baseline/library_exports.h"
#include "matrix/matrix_runner.h"

namespace abicheck {
namespace {

struct ExercisedShims {
  std::set<std::string> imported;
  std::set<std::string> called;
  std::set<std::string> backends_run;  // the backend defines of cells that ran their tests ("USE_CUDA")
};

// The define a device cell's build compiles with (kernel_build.cpp: -DUSE_CUDA for CUDA and ROCm).
constexpr std::string_view kDeviceCellDefine = "USE_CUDA";

// Whether the cell ran its tests (on a device, for a GPU cell): one loaded without a device only
// checked that its ops registered, and its op results say so.
bool ran_tests(const MatrixCell& cell) {
  if (cell.outcome == CellOutcome::NotRun || cell.outcome == CellOutcome::LoadedNotExecuted) return false;
  return std::ranges::any_of(cell.ops, [](const OpResult& op) { return op.outcome != "skipped"; });
}

}  // namespace

std::string backend_needed(const ShimDeclaration& declaration) {
  static constexpr std::array<std::string_view, 3> kBackendDefines = {"USE_CUDA", "USE_MPS", "USE_XPU"};
  for (std::string_view define : kBackendDefines) {
    const auto at = declaration.backend.find(define);
    if (at != std::string::npos && (at == 0 || declaration.backend[at - 1] != '!')) return std::string(define);
  }
  return "";
}

bool is_hand_written_shim(const ShimDeclaration& declaration) {
  return declaration.kind == DeclarationKind::Function && is_shim_function_name(declaration.name) &&
         declaration.header.find("/aoti_torch/generated/") == std::string::npos;
}

ShimCoverage measure_shim_coverage(const std::vector<MatrixCell>& cells, const ReleaseHistory& history,
                                   bool calls_measured, const std::string& note) {
  std::map<TorchVersion, ExercisedShims> by_release;
  for (const auto& cell : cells) {
    ExercisedShims& exercised = by_release[cell.runtime.minor_release()];
    exercised.imported.insert(cell.imported_shims.begin(), cell.imported_shims.end());
    if (cell.backend != Backend::Cpu && ran_tests(cell)) exercised.backends_run.insert(std::string(kDeviceCellDefine));
    if (!cell.shim_calls) continue;
    for (const auto& [name, calls] : *cell.shim_calls) {
      if (calls > 0) exercised.called.insert(name);
    }
  }
  ShimCoverage coverage{.calls_measured = calls_measured, .note = note};
  for (const auto& [release, exercised] : by_release) {
    auto baseline = history.find(release);
    if (!baseline) continue;
    ShimInventory inventory = load_inventory(*baseline / "inventory.json");
    ReleaseShimCoverage figures{.release = release};
    std::set<std::string> seen;  // a function declared for several backends counts once
    for (const auto& declaration : inventory.declarations) {
      if (declaration.kind != DeclarationKind::Function || !is_shim_function_name(declaration.name)) continue;
      if (!seen.insert(declaration.name).second) continue;
      const bool imported = exercised.imported.contains(declaration.name);
      const bool called = exercised.called.contains(declaration.name);
      figures.declared += 1;
      figures.imported += imported ? 1 : 0;
      figures.called += called ? 1 : 0;
      if (!is_hand_written_shim(declaration)) continue;
      if (std::string needs = backend_needed(declaration); !needs.empty() && !exercised.backends_run.contains(needs)) {
        figures.hand_written_not_applicable.push_back({.name = declaration.name, .needs = std::move(needs)});
        continue;
      }
      figures.hand_written_declared += 1;
      figures.hand_written_imported += imported ? 1 : 0;
      figures.hand_written_called += called ? 1 : 0;
      if (!imported) figures.hand_written_not_imported.push_back(declaration.name);
      if (imported && !called && calls_measured) figures.hand_written_imported_not_called.push_back(declaration.name);
    }
    std::ranges::sort(figures.hand_written_not_applicable);
    coverage.releases.push_back(std::move(figures));
  }
  return coverage;
}

}  // namespace abicheck
