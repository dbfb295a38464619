// Integration tests of the torch release store against the real releases that ci/test.sh installed
// from PyPI into the default store.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "core/process.h"
#include "core/scoped_temp_dir.h"
#include "store/release_store.h"
#include "support/cli.h"

namespace abicheck {
namespace {

using testing::run_cli;

std::vector<StoredRelease> installed_releases() {
  auto releases = ReleaseStore(ReleaseStore::default_root()).releases();
  if (releases.empty()) ADD_FAILURE() << "the default store is empty: run `torch-abi-check store install` first";
  return releases;
}

TEST(StoreCli, ListsEveryReleaseThatTheDefaultInstallResolvesTo) {
  auto plan = run_cli({"store", "install", "--dry-run"});
  ASSERT_TRUE(plan.succeeded()) << plan.output;
  auto listed = run_cli({"store", "list", "--json"});
  ASSERT_TRUE(listed.succeeded()) << listed.output;

  std::set<std::string> planned, installed;
  for (std::size_t start = 0, end; start < plan.output.size(); start = end + 1) {
    end = plan.output.find('\n', start);
    if (end == std::string::npos) end = plan.output.size();
    if (end > start) planned.insert(plan.output.substr(start, end - start));
  }
  auto listing = nlohmann::json::parse(listed.output);
  for (const auto& release : listing.at("releases")) {
    installed.insert(release.at("version").get<std::string>());
  }
  EXPECT_TRUE(planned.contains("2.9.1")) << "2.9's newest patch is missing from the plan";
  EXPECT_EQ(installed, planned);
}

TEST(StoreCli, EachReleaseImportsAtItsVersionAndHasItsStableHeaders) {
  // As on a user's machine: through the loader with its cache of library folders off and no
  // LD_LIBRARY_PATH, so that a CUDA library the store failed to bring is not found in this machine's
  // own toolkit (/usr/local/cuda-13.0): the shared CUDA 13 set once lacked libcurand.so.10.
  const std::string loader = "/lib64/ld-linux-x86-64.so.2";
  ASSERT_TRUE(std::filesystem::exists(loader));
  for (const auto& release : installed_releases()) {
    SCOPED_TRACE(release.version.to_full_string());
    auto imported = run_process(
        {.argv = {loader, "--inhibit-cache", release.python.string(), "-c", "import torch; print(torch.__version__)"},
         .extra_env = {{"LD_LIBRARY_PATH", ""}, {"LD_PRELOAD", ""}},
         .timeout = std::chrono::minutes(2)});
    ASSERT_TRUE(imported.succeeded()) << imported.tail(5);
    EXPECT_EQ(imported.tail(1).substr(0, imported.tail(1).find('+')), release.version.to_full_string());
    EXPECT_TRUE(std::filesystem::exists(release.include_dir / "torch/csrc/inductor/aoti_torch/c/shim.h"));
    EXPECT_TRUE(std::filesystem::exists(release.lib_dir / "libtorch_cpu.so"));
  }
}

TEST(StoreCli, PathFindsTheNewestPatchOfAMinor) {
  auto releases = installed_releases();
  ASSERT_FALSE(releases.empty());
  const auto& oldest = releases.front();
  auto result = run_cli({"store", "path", oldest.version.to_string()});
  ASSERT_TRUE(result.succeeded()) << result.output;
  EXPECT_EQ(result.tail(1), oldest.root.string());
}

TEST(StoreCli, UnknownVersionsAreOneErrorLineAndExitTwo) {
  for (const auto& arguments : std::vector<std::vector<std::string>>{{"store", "install", "2.99"},
                                                                     {"store", "install", "2.7"},
                                                                     {"store", "install", "two.ten"},
                                                                     {"store", "path", "2.99"}}) {
    auto result = run_cli(arguments);
    EXPECT_EQ(result.exit_code, 2) << arguments.back();
    EXPECT_EQ(result.tail(1), result.tail(5)) << "more than one line: " << result.output;
    EXPECT_NE(result.output.find("error:"), std::string::npos);
  }
}

// A GPU machine's own torch joins a store without a copy: the record points into its environment,
// the release resolves like an installed one, and removing it leaves that environment alone.
TEST(StoreCli, AdoptRecordsAnExistingTorchWhereItIsAndRemoveLeavesItThere) {
  auto releases = installed_releases();
  ASSERT_FALSE(releases.empty());
  const auto& existing = releases.front();
  ScopedTempDir scratch{"adopting-store"};
  const std::string store = (scratch.path() / "store").string();

  auto adopted = run_cli({"--store", store, "store", "adopt", existing.python.string()});
  ASSERT_TRUE(adopted.succeeded()) << adopted.output;
  auto found = ReleaseStore(scratch.path() / "store").find(existing.version.to_full_string());
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->python, existing.python);
  EXPECT_EQ(found->lib_dir, existing.lib_dir);
  EXPECT_EQ(found->cuda_major, existing.cuda_major);
  EXPECT_EQ(found->device.describe(), existing.device.describe());

  auto again = run_cli({"--store", store, "store", "adopt", existing.python.string()});
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.output.find("already in the store"), std::string::npos) << again.output;

  auto removed = run_cli({"--store", store, "store", "remove", existing.version.to_full_string()});
  ASSERT_TRUE(removed.succeeded()) << removed.output;
  EXPECT_FALSE(ReleaseStore(scratch.path() / "store").find(existing.version.to_full_string()).has_value());
  EXPECT_TRUE(std::filesystem::exists(existing.python)) << "removing an adopted release removed its environment";
  EXPECT_TRUE(std::filesystem::exists(existing.lib_dir / "libtorch_cpu.so"));
}

TEST(StoreCli, AdoptingAPythonWithoutTorchIsOneErrorLineAndExitTwo) {
  ScopedTempDir scratch{"adopting-store"};
  auto result = run_cli({"--store", (scratch.path() / "store").string(), "store", "adopt", "/usr/bin/python3"});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_EQ(result.tail(1), result.tail(5)) << "more than one line: " << result.output;
  EXPECT_NE(result.output.find("/usr/bin/python3: cannot import torch"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace abicheck
