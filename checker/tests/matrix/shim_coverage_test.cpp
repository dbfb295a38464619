// The coverage figure leaves out, and lists, the hand-written shims that need a backend no cell ran
// its tests on (MPS, XPU, and CUDA without a device); measured on the committed 2.15 baseline.
#include "matrix/shim_coverage.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/project_paths.h"
#include "matrix/matrix_runner.h"

namespace abicheck {
namespace {

const TorchVersion kRelease2_15{2, 15, 0};

// A cell whose one op ended `op_outcome` ("passed" is also what a library loaded without a device
// reports for an op that registered).
MatrixCell cell_under_2_15(Backend backend, CellOutcome outcome, std::string op_outcome) {
  MatrixCell cell{.suite = "abiref",
                  .backend = backend,
                  .build = kRelease2_15,
                  .target = kRelease2_15,
                  .runtime = kRelease2_15,
                  .outcome = outcome};
  cell.imported_shims = {"torch_list_size"};
  cell.ops.push_back({.group = "2.9", .op = "scaled_add", .name = "case", .outcome = std::move(op_outcome)});
  cell.shim_calls = std::map<std::string, std::uint64_t>{};
  return cell;
}

ReleaseShimCoverage coverage_of(const std::vector<MatrixCell>& cells) {
  ShimCoverage coverage =
      measure_shim_coverage(cells, ReleaseHistory::open(project_root() / "shim_decls"), true, "measured");
  EXPECT_EQ(coverage.releases.size(), 1u);
  return coverage.releases.at(0);
}

bool lists(const std::vector<NotApplicableShim>& shims, const std::string& name, const std::string& needs) {
  return std::ranges::find(shims, NotApplicableShim{name, needs}) != shims.end();
}

bool lists(const std::vector<std::string>& names, const std::string& name) {
  return std::ranges::find(names, name) != names.end();
}

TEST(ShimCoverage, BackendNeededReadsTheDeclarationsCondition) {
  EXPECT_EQ(backend_needed({.name = "a", .backend = ""}), "");
  EXPECT_EQ(backend_needed({.name = "a", .backend = "USE_CUDA"}), "USE_CUDA");
  EXPECT_EQ(backend_needed({.name = "a", .backend = "USE_XPU && !TORCH_TARGET_VERSION"}), "USE_XPU");
  EXPECT_EQ(backend_needed({.name = "a", .backend = "!TORCH_TARGET_VERSION"}), "");
  EXPECT_EQ(backend_needed({.name = "a", .backend = "!USE_CUDA"}), "");
}

TEST(ShimCoverage, ShimsOfABackendNoCellRanOnAreNotApplicable) {
  const auto cpu_only = coverage_of({cell_under_2_15(Backend::Cpu, CellOutcome::Pass, "passed")});
  EXPECT_TRUE(lists(cpu_only.hand_written_not_applicable, "aoti_torch_mps_malloc", "USE_MPS"));
  EXPECT_TRUE(lists(cpu_only.hand_written_not_applicable, "aoti_torch_create_xpu_guard", "USE_XPU"));
  EXPECT_TRUE(lists(cpu_only.hand_written_not_applicable, "aoti_torch_create_cuda_guard", "USE_CUDA"));
  EXPECT_FALSE(lists(cpu_only.hand_written_not_imported, "aoti_torch_create_cuda_guard"));
  EXPECT_TRUE(lists(cpu_only.hand_written_not_imported, "torch_list_set_item"));
  EXPECT_EQ(cpu_only.hand_written_imported, 1);

  // A CUDA cell loaded without a device ran nothing: CUDA shims stay out of the figure.
  const auto loaded_only = coverage_of({cell_under_2_15(Backend::Cuda, CellOutcome::LoadedNotExecuted, "passed")});
  EXPECT_TRUE(lists(loaded_only.hand_written_not_applicable, "aoti_torch_create_cuda_guard", "USE_CUDA"));
  const auto skipped = coverage_of({cell_under_2_15(Backend::Cuda, CellOutcome::Pass, "skipped")});
  EXPECT_TRUE(lists(skipped.hand_written_not_applicable, "aoti_torch_create_cuda_guard", "USE_CUDA"));
  EXPECT_EQ(loaded_only.hand_written_declared, cpu_only.hand_written_declared);

  // One that ran its tests on a device brings them back; MPS and XPU stay out.
  const auto on_device = coverage_of({cell_under_2_15(Backend::Cuda, CellOutcome::Pass, "passed")});
  EXPECT_TRUE(lists(on_device.hand_written_not_imported, "aoti_torch_create_cuda_guard"));
  EXPECT_TRUE(lists(on_device.hand_written_not_applicable, "aoti_torch_mps_malloc", "USE_MPS"));
  const auto cuda_shims = on_device.hand_written_declared - cpu_only.hand_written_declared;
  EXPECT_GT(cuda_shims, 0);
  EXPECT_EQ(cpu_only.hand_written_not_applicable.size(), on_device.hand_written_not_applicable.size() + cuda_shims);
}

}  // namespace
}  // namespace abicheck
