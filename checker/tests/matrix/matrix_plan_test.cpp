// What the matrix plans: the default spec's whole B >= T triangle and its sample, and what it plans
// from a store that holds one release (a GPU machine's own torch, adopted).
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

// The default spec builds at every stored release B, at every target 2.9 <= T <= B; `--sample` keeps
// the oldest and newest B, each still at all of its targets, under the same runtimes.
TEST(MatrixPlan, TheDefaultIsTheWholeTriangleAndSampleKeepsItsEnds) {
  ReleaseStore store(ReleaseStore::default_root());
  if (store.releases().size() < 3) GTEST_SKIP() << "the torch store has fewer than three releases";
  const MatrixSpec spec = load_matrix_spec(project_root() / "matrix" / "default.toml");
  auto build_targets = [&](bool sample) {
    MatrixOptions options;
    options.sample_builds = sample;
    std::set<std::pair<TorchVersion, TorchVersion>> pairs;
    std::set<TorchVersion> runtimes;
    for (const auto& cell : plan_matrix(spec, store, options)) {
      if (cell.suite != "abiref" || cell.backend != Backend::Cpu) continue;
      pairs.emplace(cell.build, cell.target);
      runtimes.insert(cell.runtime);
    }
    EXPECT_EQ(runtimes.size(), store.releases().size()) << "every stored release is a runtime";
    return pairs;
  };
  const TorchVersion oldest = store.releases().front().version;
  const TorchVersion newest = store.releases().back().version;
  auto targets_up_to = [](const TorchVersion& build) {
    return static_cast<std::size_t>(build.minor_release().minor - 9 + 1);  // 2.9 ... B's minor
  };

  std::size_t triangle = 0;
  for (const auto& release : store.releases()) triangle += targets_up_to(release.version);
  const auto whole = build_targets(false);
  EXPECT_EQ(whole.size(), triangle);
  for (const auto& [build, target] : whole) EXPECT_LE(target, build.minor_release());

  const auto sample = build_targets(true);
  EXPECT_EQ(sample.size(), targets_up_to(oldest) + targets_up_to(newest));
  for (const auto& [build, target] : sample) {
    EXPECT_TRUE(build == oldest || build == newest) << build.to_full_string();
    EXPECT_TRUE(whole.contains({build, target}));
  }
}

// A target needs only the build's headers, so with one adopted release the default spec builds at
// it, at every target from 2.9 up to it (the committed baselines know those minors), and runs under
// it; the negative control builds at the oldest stored release, which is that one.
TEST(MatrixPlan, DefaultSpecOnAStoreOfOneAdoptedReleaseReachesEveryTargetBelowIt) {
  auto existing = ReleaseStore(ReleaseStore::default_root()).find("2.11");
  if (!existing) GTEST_SKIP() << "the torch store lacks 2.11";
  ScopedTempDir scratch{"one-release-store"};
  auto adopted =
      testing::run_cli({"--store", (scratch.path() / "store").string(), "store", "adopt", existing->python.string()});
  ASSERT_TRUE(adopted.succeeded()) << adopted.output;

  auto cells = plan_matrix(load_matrix_spec(project_root() / "matrix" / "default.toml"),
                           ReleaseStore(scratch.path() / "store"), MatrixOptions{});
  std::set<std::string> targets;
  std::set<std::string> suites;
  for (const auto& cell : cells) {
    suites.insert(cell.suite);
    EXPECT_EQ(cell.build.minor_release(), (TorchVersion{2, 11, 0}));
    EXPECT_EQ(cell.runtime, existing->version);
    EXPECT_EQ(cell.expected, Expectation::Pass) << cell.suite;
    if (cell.suite == "abiref") targets.insert(cell.target.to_string());
  }
  EXPECT_EQ(suites, (std::set<std::string>{"abiref", "negative-control"}));
  EXPECT_EQ(targets, (std::set<std::string>{"2.9", "2.10", "2.11"}));
}

}  // namespace
}  // namespace abicheck
