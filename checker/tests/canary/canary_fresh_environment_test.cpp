// Runs fixtures/canary/fresh_env through `torch-abi-check canary` under the store's torch 2.9 (CUDA
// 12) and 2.15 (CUDA 13): wheels made by the test (make_wheels.py), loaded as a user's fresh
// environment would see them. A declared dependency that only a local find-links folder has is
// installed for real; a vendor runtime nobody installed is `environment` (neither a break nor a
// pass); a CUDA 13 object under CUDA 12 misses libcudart.so.13 even where this machine's loader
// cache has one. Expected results: expected.json beside the spec, established by loading.
#include <fstream>
#include <nlohmann/json.hpp>

#include "canary/canary_fixture.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class CanaryFreshEnvironment : public testing::CanaryFixtureTest {
 protected:
  void SetUp() override { prepare("fresh_env", "2.9", "2.15"); }
};

TEST_F(CanaryFreshEnvironment, InstallsDeclaredDependenciesClassesTheEnvironmentAndHidesTheMachinesCuda) {
  const json expected = json::parse(std::ifstream(fixture_ / "expected.json"));
  ProcessResult run;
  const json document = run_fixture(run);
  const json& section = document["canary"];
  ASSERT_EQ(section["problems"].size(), 0U) << section["problems"].dump(1) << run.output;
  for_each_expected_cell(
      section, expected, run.output,
      [&](const std::string& name, const json& by_release, const std::string& release, const json& cell) {
        EXPECT_EQ(cell["observed"], by_release[release]) << name << " on " << release << ": " << cell["detail"];
      });
  for (const auto& package : section["packages"]) {
    for (const auto& cell : package["cells"]) {
      if (cell["observed"] == "environment") {
        // The missing piece is named; the cell is not scored, and no finding is made of it.
        EXPECT_NE(cell["detail"].get<std::string>().find("libcanary_vendor_runtime.so.1"), std::string::npos);
        EXPECT_FALSE(cell["observable"].get<bool>());
      }
      if (cell["observed"] == "missing-library") {
        EXPECT_NE(cell["detail"].get<std::string>().find("libcudart.so.13"), std::string::npos) << cell["detail"];
      }
    }
  }
  for (const auto& finding : document["verdict"]["findings"]) {
    EXPECT_EQ(finding["message"].get<std::string>().find("vendor"), std::string::npos) << finding.dump();
  }
  EXPECT_EQ(section["cells"].get<int>() - section["observable"].get<int>(), 2) << run.output;
  EXPECT_NE(document["verdict"]["lines"].dump().find("2 cell(s) not observable on this machine: needs "
                                                     "libcanary_vendor_runtime.so.1"),
            std::string::npos)
      << document["verdict"]["lines"].dump(1);
  EXPECT_NE(run.output.find("2 more not observable here: environment"), std::string::npos) << run.output;
  // The dependency was installed from the test's own folder, into a directory of the package's own.
  int installed = 0;
  for (const auto& entry : fs::directory_iterator(work_ / "cache" / "dependencies")) {
    installed += fs::exists(entry.path() / "canary_fresh_dep" / "__init__.py") ? 1 : 0;
  }
  EXPECT_EQ(installed, 1);
}

// `--shard K/N` deals the spec's packages round-robin; the shards' caches copied into one give a
// plain run every cell from the cache (as the matrix's shards do).
class CanaryShards : public CanaryFreshEnvironment {
 protected:
  json run_canary(const std::vector<std::string>& extra, const fs::path& cache) {
    const fs::path report = work_ / "report.json";
    std::vector<std::string> argv = {"canary",       "--spec", (work_ / "canary.toml").string(),
                                     "--torch",      "2.15",   "--cache-dir",
                                     cache.string(), "--json", report.string()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    ProcessResult run = testing::run_cli(argv);
    output_ = run.output;
    return json::parse(std::ifstream(report))["canary"];
  }
  std::string output_;
};

TEST_F(CanaryShards, ShardsAreDisjointAndTheirJoinedCachesGiveTheWholeGrid) {
  std::vector<std::string> seen;
  for (const char* shard : {"1/2", "2/2"}) {
    json section = run_canary({"--shard", shard}, work_ / "shard" / std::string(1, shard[0]));
    EXPECT_EQ(section["shard"], shard);
    for (const auto& package : section["packages"]) seen.push_back(package["name"]);
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"canary_fresh_pkg-1.0", "canary_cuda13_pkg-1.0", "canary_vendor_pkg-1.0"}));
  for (const char* shard : {"1", "2"}) {
    fs::copy(work_ / "shard" / shard, work_ / "joined", fs::copy_options::recursive | fs::copy_options::skip_existing);
  }
  json joined = run_canary({}, work_ / "joined");
  ASSERT_EQ(joined["packages"].size(), 3U) << output_;
  EXPECT_TRUE(joined["shard"].is_null());
  for (const auto& package : joined["packages"]) {
    for (const auto& cell : package["cells"]) EXPECT_TRUE(cell["cached"].get<bool>()) << package["name"];
  }
  EXPECT_NE(output_.find("0 run, 3 from cache"), std::string::npos) << output_;
  EXPECT_EQ(testing::run_cli({"canary", "--spec", (work_ / "canary.toml").string(), "--shard", "4/3"}).exit_code, 2);
}

}  // namespace
}  // namespace abicheck
