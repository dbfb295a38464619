// `check MODEL.pt2` on a real package: compiled by AOTInductor with the newest stored release at test
// time (fixtures/check/pt2/compile_package.py; kept per script and release in the folder the tests of
// every clone share, as testing::with_shared_builds does for builds), then loaded by the test itself
// in a fresh process of every stored release (fixtures/check/pt2/load_fresh.py, no code of the tool;
// testing::observe_in_fresh_process keeps what it printed for the next clone):
// what that shows is what the tool's Python loader cells and findings must say. expected.json beside
// the scripts holds what was seen by hand (2.10.0's loader break), so a loader script that fails
// everywhere is caught too, and what the C++ loader did with the package under every release
// (bench/aoti_cpp_loader_probe.sh, a runner of its own): what the tool's C++ loader cells must say.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "aoti/aoti_run.h"
#include "core/content_hash.h"
#include "core/process.h"
#include "core/project_paths.h"
#include "store/release_store.h"
#include "support/build_paths.h"
#include "support/cli.h"
#include "support/fresh_process.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const fs::path kFixtures = fs::path(TORCH_ABI_CHECK_FIXTURES) / "check" / "pt2";
const fs::path kCache = fs::path(TORCH_ABI_CHECK_CLI).parent_path() / "check-test-cache" / "pt2";

class PackageCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    ReleaseStore store(ReleaseStore::default_root());
    releases_ = store.releases();
    if (!store.find("2.10.0") || releases_.size() < 3) GTEST_SKIP() << "the torch store lacks 2.10.0 or others";
    fs::create_directories(kCache);
    // The C++ loader's runners, one per release (the check's aoti/cpp-runners), are shared by every clone's tests.
    testing::with_shared_builds(kCache / "work");
    const fs::path script = kFixtures / "compile_package.py";
    const fs::path shared =
        user_cache_dir() / "test-builds" / "pt2" /
        ContentHash().add_file(script, kFixtures).add(release_cache_identity(releases_.back())).hex();
    fs::create_directories(shared);
    package_ = shared / "small.pt2";
    if (!fs::exists(package_)) {
      // Compiled once by the newest release; a failed compile leaves nothing behind.
      const fs::path partial = shared / ("small." + std::to_string(getpid()) + ".partial.pt2");
      ProcessResult compiled =
          run_process({.argv = {releases_.back().python.string(), script.string(), partial.string()},
                       .working_dir = kCache,
                       .timeout = std::chrono::minutes(10)});
      ASSERT_TRUE(compiled.succeeded()) << compiled.output;
      fs::rename(partial, package_);
    }
  }

  std::vector<StoredRelease> releases_;
  fs::path package_;
};

TEST_F(PackageCheck, EveryReleaseIsWhatAFreshProcessShowedAndTheBreakNamesItsCause) {
  // What a fresh process of each release does with the package.
  const fs::path setuptools = setuptools_only_dir(kCache);
  std::map<std::string, std::string> seen;  // release -> "loaded" or "failed: ..."
  for (const auto& release : releases_) {
    ProcessResult loaded =
        testing::observe_in_fresh_process({.release = release,
                                           .script = kFixtures / "load_fresh.py",
                                           .arguments = {{package_.string(), testing::FreshArgument::Keyed::File},
                                                         {setuptools.string(), testing::FreshArgument::Keyed::Nothing}},
                                           .working_dir = kCache});
    ASSERT_TRUE(loaded.succeeded()) << release.version.to_full_string() << ": " << loaded.output;
    seen[release.version.to_full_string()] = loaded.tail(1);
  }
  const json expected = json::parse(std::ifstream(kFixtures / "expected.json"));
  for (const auto& [release, what] : seen) {
    if (expected["failing_runtimes"].contains(release)) {
      EXPECT_NE(what.find(expected["failing_runtimes"][release].get<std::string>()), std::string::npos)
          << release << ": " << what;
    } else {
      EXPECT_EQ(what, "loaded") << release;
    }
  }

  const fs::path report = kCache / "check.json";
  fs::remove(report);
  ProcessResult run = testing::run_cli({"check", package_.string(), "--work-dir", (kCache / "work").string(), "--json",
                                        report.string(), "--html", (kCache / "check.html").string()});
  ASSERT_TRUE(fs::exists(report)) << run.output;
  const json document = json::parse(std::ifstream(report));
  bool any_failed = false;
  for (const auto& [release, what] : seen) any_failed = any_failed || what != "loaded";
  EXPECT_EQ(run.exit_code, any_failed ? 1 : 0) << run.output;
  EXPECT_EQ(document["command"], "check");
  EXPECT_TRUE(document["check"]["build_system"].is_null());
  ASSERT_EQ(document["audit"]["pt2_packages"].size(), 1u) << run.output;
  ASSERT_EQ(document["aoti"]["packages"].size(), 1u) << run.output;
  // Compiled by the newest release, it needs nothing newer.
  ASSERT_TRUE(document["check"]["target"].is_string()) << document["check"].dump(1);
  const TorchVersion minimum = TorchVersion::parse(document["check"]["target"].get<std::string>());
  EXPECT_LE(minimum, releases_.back().version);
  int ran = 0;
  std::vector<std::string> cpp_loaded;
  for (const auto& cell : document["aoti"]["packages"][0]["cells"]) {
    const std::string release = cell["release"];
    const bool needed = TorchVersion::parse(release).minor_release() >= minimum;
    EXPECT_EQ(cell["ran"].get<bool>(), needed) << release;
    if (!needed) continue;
    if (cell["loader"] == "cpp") {
      // Loaded, never more: the package holds no inputs, so no C++ cell claims it ran or matched.
      EXPECT_EQ(cell["outcome"], expected["cpp_loader"]["outcome"]) << release << ": " << cell.dump(1);
      EXPECT_NE(cell["detail"].get<std::string>().find(expected["cpp_loader"]["detail_contains"].get<std::string>()),
                std::string::npos)
          << release << ": " << cell.dump(1);
      if (cell["outcome"] == "loaded") cpp_loaded.push_back(release);
      continue;
    }
    ++ran;
    const std::string& what = seen[release];
    if (what == "loaded") {
      EXPECT_EQ(cell["outcome"], "loaded") << release << ": " << cell.dump(1);
    } else {
      EXPECT_EQ(cell["outcome"], "load-failed") << release << ": " << cell.dump(1);
      // The loader's own words, and the cause in the tool's.
      EXPECT_NE(what.find(cell["detail"].get<std::string>().substr(0, 40)), std::string::npos)
          << what << " vs " << cell["detail"];
      EXPECT_FALSE(cell["cause"].get<std::string>().empty()) << cell.dump(1);
      bool found = false;
      for (const auto& finding : document["verdict"]["findings"]) {
        found = found ||
                (finding["kind"] == "aoti-load-failed" && finding["where"] == "torch " + release &&
                 finding["message"].get<std::string>().find(cell["cause"].get<std::string>()) != std::string::npos);
      }
      EXPECT_TRUE(found) << release << " in " << document["verdict"].dump(1);
    }
  }
  EXPECT_GT(ran, 0);
  EXPECT_EQ(cpp_loaded.size(), static_cast<std::size_t>(ran)) << "a C++ loader cell beside every Python one";
  // The verdict's second line: where the C++ loader loads it.
  const json& lines = document["verdict"]["lines"];
  ASSERT_GE(lines.size(), 2u) << document["verdict"].dump(1);
  std::string cpp_line = "torch::inductor::AOTIModelPackageLoader (C++) loads it on ";
  for (std::size_t i = 0; i < cpp_loaded.size(); ++i) cpp_line += (i ? ", " : "") + cpp_loaded[i];
  EXPECT_EQ(lines[1], cpp_line) << document["verdict"].dump(1);
  // One error finding per failing release, nothing else.
  int errors = 0;
  for (const auto& finding : document["verdict"]["findings"]) errors += finding["severity"] == "error" ? 1 : 0;
  int failing = 0;
  for (const auto& [release, what] : seen) {
    failing += what != "loaded" && TorchVersion::parse(release).minor_release() >= minimum ? 1 : 0;
  }
  EXPECT_EQ(errors, failing) << document["verdict"].dump(1);
  EXPECT_EQ(run.exit_code, expected["exit_code"].get<int>());
}

TEST_F(PackageCheck, AFileThatIsNoPackageIsBadInput) {
  const fs::path bogus = kCache / "bogus.pt2";
  std::ofstream(bogus) << "not a zip\n";
  ProcessResult run = testing::run_cli({"check", bogus.string(), "--work-dir", (kCache / "work").string()});
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("bogus.pt2"), std::string::npos) << run.output;
  // A project's settings do not apply to a package: refused, not ignored.
  run = testing::run_cli({"check", package_.string(), "--config", (kFixtures / "expected.json").string()});
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("a .pt2 package takes none"), std::string::npos) << run.output;
  EXPECT_EQ(std::ranges::count(run.output, '\n'), 1) << run.output;
}

}  // namespace
}  // namespace abicheck
