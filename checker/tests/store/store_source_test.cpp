// The store takes torch from the source it is given (--index-url, --find-links) and installs only
// what is asked (--from). The source is a local index of one small wheel named torch, written by
// fixtures/store/make_local_torch_index.py (its docstring says why it is not a real torch); pip
// reads it as it would read any index, so nothing here reaches the network.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/process.h"
#include "core/project_paths.h"
#include "core/scoped_temp_dir.h"
#include "support/build_paths.h"
#include "support/cli.h"

namespace fs = std::filesystem;

namespace abicheck {
namespace {

using testing::run_cli;

class LocalTorchIndex : public ::testing::Test {
 protected:
  void SetUp() override {
    auto made = run_process(
        {.argv = {host_python(), (fs::path(TORCH_ABI_CHECK_FIXTURES) / "store" / "make_local_torch_index.py").string(),
                  index_.path().string()}});
    ASSERT_TRUE(made.succeeded()) << made.output;
  }

  std::string index_url() const { return "file://" + (index_.path() / "simple").string(); }
  std::string wheels_dir() const { return (index_.path() / "wheels").string(); }
  std::string store() const { return (store_.path() / "store").string(); }

  ScopedTempDir index_{"local-torch-index"};
  ScopedTempDir store_{"local-torch-store"};
};

TEST_F(LocalTorchIndex, DryRunFromATargetListsWhatTheIndexOffersAsTheIndexSpellsIt) {
  auto plan =
      run_cli({"--store", store(), "store", "install", "--dry-run", "--from", "2.99", "--index-url", index_url()});
  ASSERT_TRUE(plan.succeeded()) << plan.output;
  EXPECT_EQ(plan.tail(1), "2.99.0+cpu");
  EXPECT_FALSE(fs::exists(store())) << "a dry run wrote the store";
}

TEST_F(LocalTorchIndex, InstallFromAnIndexIsListedAsACpuReleaseWithItsSource) {
  auto installed = run_cli({"--store", store(), "store", "install", "--from", "2.99", "--index-url", index_url()});
  ASSERT_TRUE(installed.succeeded()) << installed.output;

  auto listed = run_cli({"--store", store(), "store", "list", "--json"});
  ASSERT_TRUE(listed.succeeded()) << listed.output;
  auto releases = nlohmann::json::parse(listed.output).at("releases");
  ASSERT_EQ(releases.size(), 1u) << listed.output;
  EXPECT_EQ(releases[0].at("version"), "2.99.0");
  EXPECT_TRUE(releases[0].at("cuda_major").is_null());

  auto manifest =
      nlohmann::json::parse(run_process({.argv = {"cat", store() + "/releases/2.99.0/release.json"}}).output);
  EXPECT_EQ(manifest.at("source"), index_url());
  EXPECT_EQ(manifest.at("wheel"), "torch-2.99.0+cpu-py3-none-any.whl");
}

TEST_F(LocalTorchIndex, AnInstallIntoALogThatIsNoTerminalSaysWhatIsStillRunning) {
  // CI logs are no terminal: pip runs quietly there, so the store says what it waits on instead (every
  // 30 s; here a tenth of a second, since a local index installs in seconds).
  auto installed = run_process({.argv = {TORCH_ABI_CHECK_CLI, "--store", store(), "store", "install", "--from", "2.99",
                                         "--index-url", index_url()},
                                .extra_env = {{"TORCH_ABI_CHECK_HEARTBEAT_S", "0.1"}}});
  ASSERT_TRUE(installed.succeeded()) << installed.output;
  EXPECT_NE(installed.output.find("store: installing the torch 2.99.0 wheel: still running"), std::string::npos)
      << installed.output;
}

TEST_F(LocalTorchIndex, FindLinksIsReadBesideTheIndex) {
  // An index without torch, and the wheel in a directory beside it: pip reads both, as it would.
  auto plan = run_cli({"--store", store(), "store", "install", "--dry-run", "2.99", "--index-url",
                       "file://" + (index_.path() / "empty").string(), "--find-links", wheels_dir()});
  ASSERT_TRUE(plan.succeeded()) << plan.output;
  EXPECT_EQ(plan.tail(1), "2.99.0+cpu");
}

TEST_F(LocalTorchIndex, AVersionTheSourceDoesNotOfferIsOneErrorLineAndExit2) {
  auto missing = run_cli({"--store", store(), "store", "install", "--from", "3.0", "--index-url", index_url()});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.tail(1), fmt::format("torch-abi-check: error: no torch release from 3.0 on is on {}", index_url()));
  EXPECT_FALSE(fs::exists(store() + "/releases")) << "a failed resolution installed something";

  auto both = run_cli({"--store", store(), "store", "install", "--from", "2.99", "2.99"});
  EXPECT_EQ(both.exit_code, 2) << both.output;
}

}  // namespace
}  // namespace abicheck
