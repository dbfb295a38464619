// A candidate that is not a store release becomes a runtime like any other: what torch/version.py
// and the environment say, and the matrix plan that runs the releases up to the last one under it.
#include "gate/candidate_release.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "core/project_paths.h"
#include "core/tool_error.h"
#include "matrix/matrix_runner.h"
#include "support/build_paths.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

TEST(CandidateRelease, StoreReleaseTorchDirDescribesItselfLikeItsManifest) {
  ReleaseStore store(ReleaseStore::default_root());
  auto stored = store.find("2.15");
  if (!stored) GTEST_SKIP() << "the torch store lacks 2.15";
  StoredRelease candidate = resolve_torch_directory(stored->torch_dir).require_installed();
  EXPECT_EQ(candidate.version, stored->version);
  EXPECT_EQ(candidate.cuda_major, stored->cuda_major);
  EXPECT_EQ(candidate.include_dir, stored->include_dir);
  EXPECT_EQ(candidate.lib_dir, stored->lib_dir);
  EXPECT_EQ(fs::canonical(candidate.python), fs::canonical(stored->python));
}

TEST(CandidateRelease, SourceBuildVersionAndCpuWheelAreRead) {
  fs::path env = fs::temp_directory_path() / ("candidate-test-" + std::to_string(getpid()));
  fs::path torch_dir = env / "lib" / "python3.12" / "site-packages" / "torch";
  fs::create_directories(torch_dir / "include" / "torch");
  fs::create_directories(env / "bin");
  std::ofstream(env / "bin" / "python3") << "";
  std::ofstream(torch_dir / "version.py") << "__version__ = '2.16.0a0+git0123abc'\ncuda: Optional[str] = None\n";
  StoredRelease candidate = resolve_torch_directory(torch_dir).require_installed();
  EXPECT_EQ(candidate.version, (TorchVersion{2, 16, 0}));
  EXPECT_FALSE(candidate.cuda_major);
  EXPECT_EQ(candidate.python, env / "bin" / "python3");
  fs::remove_all(env);
}

TEST(CandidateRelease, GateScopeRunsTheReleasesUpToTheLastUnderTheCandidateOnly) {
  ReleaseStore store(ReleaseStore::default_root());
  auto candidate = store.find("2.15");
  if (!candidate || !store.find("2.9") || !store.find("2.14"))
    GTEST_SKIP() << "the torch store lacks 2.9, 2.14 or 2.15";
  MatrixOptions options;
  options.newest_release = TorchVersion{2, 14, 0};
  options.runtimes = {*candidate};

  // The default spec builds at every release inside the gate; `--sample` keeps its two ends.
  MatrixSpec spec = load_matrix_spec(project_root() / "matrix" / "default.toml");
  auto abiref_builds = [&](const MatrixOptions& gate) {
    auto cells = plan_matrix(spec, store, gate);
    EXPECT_FALSE(cells.empty());
    std::set<std::string> builds;
    for (const auto& cell : cells) {
      EXPECT_EQ(cell.runtime, candidate->version);
      EXPECT_LE(cell.build.minor_release(), (TorchVersion{2, 14, 0}));
      if (cell.suite == "abiref") {
        EXPECT_EQ(cell.expected, Expectation::Pass) << "every target is at most its build, every build older than R";
        builds.insert(cell.build.to_string());
      }
    }
    return builds;
  };
  std::set<std::string> stored_inside_the_gate;
  for (const auto& release : store.releases()) {
    if (release.version.minor_release() <= TorchVersion{2, 14, 0})
      stored_inside_the_gate.insert(release.version.to_string());
  }
  EXPECT_EQ(abiref_builds(options), stored_inside_the_gate) << "the default is the whole triangle";
  MatrixOptions sampled = options;
  sampled.sample_builds = true;
  EXPECT_EQ(abiref_builds(sampled), (std::set<std::string>{"2.9", "2.14"})) << "the sample's ends are inside the gate";

  // `builds = "all"`: every release from 2.9 up to the last, each at every target up to itself.
  MatrixSpec every_build = load_matrix_spec(fs::path(TORCH_ABI_CHECK_FIXTURES) / "gate" / "every-build.toml");
  EXPECT_TRUE(every_build.suites.at(0).builds.empty());
  std::set<std::pair<std::string, std::string>> build_targets;
  for (const auto& cell : plan_matrix(every_build, store, options)) {
    build_targets.emplace(cell.build.to_string(), cell.target.to_string());
  }
  EXPECT_EQ(build_targets.size(), 1u + 2 + 3 + 4 + 5 + 6) << "(B, T) for B in 2.9 ... 2.14, T in 2.9 ... B";
}

TEST(CandidateRelease, EmptyBuildListIsStillRefused) {
  fs::path spec = fs::temp_directory_path() / ("empty-builds-" + std::to_string(getpid()) + ".toml");
  std::ofstream(spec) << "[[suite]]\nname = \"abiref\"\nsources = \"kernels\"\nbuilds = []\n";
  EXPECT_THROW(load_matrix_spec(spec), ToolError);
  fs::remove(spec);
}

}  // namespace
}  // namespace abicheck
