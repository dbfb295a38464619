// What the matrix plans from a store that holds one release: a GPU machine's own torch, adopted.
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "core/project_paths.h"
#include "core/scoped_temp_dir.h"
#include "matrix/matrix_runner.h"
#include "support/cli.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

// A target needs only the build's headers, so a build at the one stored release is planned at every
// target from 2.9 up to it (the committed baselines know those minors), and run under it.
TEST(MatrixPlan, DefaultTargetsReachBelowTheOldestStoredRelease) {
  auto existing = ReleaseStore(ReleaseStore::default_root()).find("2.11");
  if (!existing) GTEST_SKIP() << "the torch store lacks 2.11";
  ScopedTempDir scratch{"one-release-store"};
  auto adopted =
      testing::run_cli({"--store", (scratch.path() / "store").string(), "store", "adopt", existing->python.string()});
  ASSERT_TRUE(adopted.succeeded()) << adopted.output;
  const fs::path spec_file = scratch.path() / "spec.toml";
  std::ofstream(spec_file) << "[[suite]]\nname = \"abiref\"\nsources = \"" << (project_root() / "kernels").string()
                           << "\"\napi = \"stable\"\nbackends = [\"cpu\"]\nbuilds = [\"newest\"]\nruntimes = \"all\"\n";

  auto cells = plan_matrix(load_matrix_spec(spec_file), ReleaseStore(scratch.path() / "store"), MatrixOptions{});
  std::set<std::string> targets;
  for (const auto& cell : cells) {
    EXPECT_EQ(cell.build.minor_release(), (TorchVersion{2, 11, 0}));
    EXPECT_EQ(cell.runtime, existing->version);
    EXPECT_EQ(cell.expected, Expectation::Pass);
    targets.insert(cell.target.to_string());
  }
  EXPECT_EQ(targets, (std::set<std::string>{"2.9", "2.10", "2.11"}));
}

}  // namespace
}  // namespace abicheck
