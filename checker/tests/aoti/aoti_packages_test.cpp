// The AOTInductor suite on real packages: the reference models compiled by AOTInductor at stored
// releases (at test time, into the folder the tests of every clone share: testing::with_shared_builds),
// loaded under later ones in real processes, every cell held to fixtures/aoti/expected.json; and the
// audit of the packages it made.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "aoti/aoti_run.h"
#include "audit/audit_fixture_support.h"
#include "core/process.h"
#include "store/release_store.h"
#include "support/build_paths.h"
#include "support/cli.h"
#include "support/files.h"
#include "support/fresh_process.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kCache = fs::path(TORCH_ABI_CHECK_CLI).parent_path() / "aoti-test-cache";

using testing::read_json;

class AotiPackages : public ::testing::Test {
 protected:
  void SetUp() override {
    ReleaseStore store(ReleaseStore::default_root());
    auto with_break = store.find("2.10.0");
    auto newest = store.releases();
    if (!with_break || newest.empty() || newest.back().version <= with_break->version) {
      GTEST_SKIP() << "the torch store lacks 2.10.0 or a release after it";
    }
    older_ = with_break->version.to_full_string();
    newer_ = newest.back().version.to_full_string();
    testing::with_shared_builds(kCache);
  }

  // `aoti --torch 2.10.0 --torch <newest>`: compiles at both (once; the cache keeps them), loads.
  json run_suite(int& exit_code, std::string& output) {
    fs::path report = kCache / "report.json";
    fs::create_directories(kCache);
    ProcessResult run = testing::run_cli({"aoti", "--torch", older_, "--torch", newer_, "--cache-dir", kCache.string(),
                                          "-j", "2", "--json", report.string()});
    exit_code = run.exit_code.value_or(-1);
    output = run.output;
    return fs::exists(report) ? read_json(report) : json();
  }

  // The compiled package of `model` at `release`, from the section.
  static fs::path package_file(const json& section, const std::string& model, const std::string& release) {
    for (const auto& package : section["packages"]) {
      if (package["model"] == model && package["build"] == release) return package["file"].get<std::string>();
    }
    return {};
  }

  std::string older_;
  std::string newer_;
};

TEST_F(AotiPackages, EveryCellIsWhatLoadingShowedAndTheBreakOf2_10ComesWithItsVerifiedWorkaround) {
  json expected = read_json(fs::path(TORCH_ABI_CHECK_FIXTURES) / "aoti" / "expected.json");
  int exit_code = -1;
  std::string output;
  json document = run_suite(exit_code, output);
  ASSERT_TRUE(document.contains("aoti")) << output;
  const json& section = document["aoti"];
  EXPECT_EQ(exit_code, 1) << output;  // the 2.10.0 break is an error
  int ran = 0;
  int cpp_ran = 0;
  for (const auto& package : section["packages"]) {
    EXPECT_EQ(package["compile_error"], "") << package["model"] << "@" << package["build"];
    EXPECT_EQ(package["audit_problems"].size(), 0u) << package.dump(1);
    for (const auto& cell : package["cells"]) {
      const std::string release = cell["release"];
      const bool later = release == newer_ || package["build"] == older_;
      EXPECT_EQ(cell["ran"].get<bool>(), later) << package["model"] << "@" << package["build"] << " on " << release;
      if (!cell["ran"].get<bool>()) continue;
      ++ran;
      std::string where = package["model"].get<std::string>() + "@" + package["build"].get<std::string>() + " on " +
                          release + ": " + cell.dump(1);
      if (cell["loader"] == "cpp") {
        ++cpp_ran;
        EXPECT_EQ(cell["outcome"], expected["cpp_loader"]["default_outcome"]) << where;
        continue;
      }
      const json& rule = expected["runtimes"].contains(release) ? expected["runtimes"][release] : json();
      if (rule.is_null()) {
        EXPECT_EQ(cell["outcome"], expected["default_outcome"]) << where;
        continue;
      }
      EXPECT_EQ(cell["outcome"], rule["outcome"]) << where;
      for (const char* field : {"detail", "cause", "workaround"}) {
        EXPECT_NE(cell[field].get<std::string>().find(rule[std::string(field) + "_contains"].get<std::string>()),
                  std::string::npos)
            << where;
      }
      EXPECT_EQ(cell["workaround_verified"], rule["workaround_verified"]) << where;
    }
  }
  EXPECT_GT(ran, 0) << output;
  EXPECT_EQ(cpp_ran * 2, ran) << "a C++ loader cell beside every Python loader cell";
  bool found = false;
  for (const auto& finding : document["verdict"]["findings"]) {
    if (finding["kind"] == "aoti-load-failed" && finding["where"] == "torch " + older_) found = true;
  }
  EXPECT_TRUE(found) << document["verdict"].dump(1);
  EXPECT_GE(section["coverage"]["shims"].get<int>(), expected["min_distinct_shims"].get<int>()) << section["coverage"];

  // A second run comes wholly from the cache.
  json warm = run_suite(exit_code, output);
  ASSERT_TRUE(warm.contains("aoti")) << output;
  EXPECT_EQ(warm["aoti"]["cost"]["compiles_run"], 0);
  EXPECT_EQ(warm["aoti"]["cost"]["cells_run"], 0);
}

// The model that calls the reference extension's operators: its generated code calls them through the
// proxy executor's shim, and each Python loader cell is what a fresh process of the release showed
// with the extension (built at the package's release) loaded first (fixtures/aoti/load_custom_op.py).
TEST_F(AotiPackages, TheCustomOpModelCallsTheExtensionThroughTheProxyExecutorAsAFreshProcessShows) {
  const json expected = read_json(fs::path(TORCH_ABI_CHECK_FIXTURES) / "aoti" / "expected.json");
  int exit_code = -1;
  std::string output;
  json document = run_suite(exit_code, output);
  ASSERT_TRUE(document.contains("aoti")) << output;
  ReleaseStore store(ReleaseStore::default_root());
  const fs::path setuptools = setuptools_only_dir(kCache);
  int checked = 0;
  for (const auto& package : document["aoti"]["packages"]) {
    if (package["model"] != "custom_op") continue;
    const std::string label = "custom_op@" + package["build"].get<std::string>();
    ASSERT_EQ(package["compile_error"], "") << label;
    const std::string extension = package["extension"];
    ASSERT_FALSE(extension.empty()) << label;
    EXPECT_TRUE(std::ranges::count(package["shims"], expected["custom_op"]["proxy_shim"])) << package["shims"];
    for (const auto& cell : package["cells"]) {
      if (!cell["ran"].get<bool>() || cell["loader"] != "python") continue;
      const StoredRelease runtime = *store.find(cell["release"].get<std::string>());
      using Keyed = testing::FreshArgument::Keyed;
      ProcessResult fresh = testing::observe_in_fresh_process(
          {.release = runtime,
           .script = fs::path(TORCH_ABI_CHECK_FIXTURES) / "aoti" / "load_custom_op.py",
           .arguments = {{package["file"].get<std::string>(), Keyed::File},
                         {extension, Keyed::File},
                         {(fs::path(TORCH_ABI_CHECK_FIXTURES).parent_path() / "kernels" / "aoti").string(),
                          Keyed::Tree},
                         {setuptools.string(), Keyed::Nothing}},
           .working_dir = kCache});
      ASSERT_TRUE(fresh.succeeded()) << fresh.output;
      const std::string seen = fresh.tail(1);
      const std::string where =
          label + " on " + cell["release"].get<std::string>() + ": " + seen + " vs " + cell.dump(1);
      ++checked;
      if (seen == "matches") {
        EXPECT_EQ(cell["outcome"], "matches") << where;
      } else if (seen.starts_with("failed: ")) {
        EXPECT_EQ(cell["outcome"], "load-failed") << where;
        EXPECT_NE(seen.find(cell["detail"].get<std::string>().substr(0, 40)), std::string::npos) << where;
      } else {
        EXPECT_EQ(cell["outcome"], "wrong-result") << where;
      }
    }
  }
  EXPECT_EQ(checked, 3) << "custom_op of the older release under both, the newer's under itself: " << output;
}

TEST_F(AotiPackages, TheAuditReadsWhatAPackageRecordsAndPredictsFromItsShims) {
  int exit_code = -1;
  std::string output;
  json document = run_suite(exit_code, output);
  ASSERT_TRUE(document.contains("aoti")) << output;
  fs::path package = package_file(document["aoti"], "wide_ops", newer_);
  ASSERT_FALSE(package.empty()) << output;
  // In a directory beside other files: found by its name.
  fs::path directory = kCache / "audit-input";
  fs::remove_all(directory);
  fs::create_directories(directory / "models");
  fs::copy_file(package, directory / "models" / "wide_ops.pt2");
  std::ofstream(directory / "README") << "a deployment folder\n";
  testing::AuditRun run = testing::run_audit_json({directory.string()});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  ASSERT_EQ(run.report["pt2_packages"].size(), 1u) << run.output;
  const json& read = run.report["pt2_packages"][0];
  EXPECT_EQ(read["archive_format"], "pt2");
  EXPECT_EQ(read["archive_version"], "0");
  EXPECT_EQ(read["problems"].size(), 0u) << read.dump(1);
  ASSERT_EQ(read["models"].size(), 1u) << read.dump(1);
  EXPECT_EQ(read["models"][0]["device"], "cpu");
  EXPECT_GE(read["objects"].size(), 1u);
  EXPECT_EQ(read["verdict"], "stable");
  // Compiled by the newest release, it needs no shim newer than that release.
  ASSERT_TRUE(read["min_torch_to_load"].is_string()) << read.dump(1);
  EXPECT_LE(TorchVersion::parse(read["min_torch_to_load"].get<std::string>()), TorchVersion::parse(newer_));
  for (const auto& binary : run.report["binaries"]) {
    EXPECT_NE(binary["path"].get<std::string>().find("wide_ops.pt2!"), std::string::npos);
    EXPECT_FALSE(binary["shim_symbols"].empty()) << binary["path"];
  }
}

}  // namespace
}  // namespace abicheck
