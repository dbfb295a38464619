// Runs fixtures/canary/import_checks through `torch-abi-check canary` under the store's torch 2.14
// and 2.15: wheels made by the test (make_wheels.py) whose own Python decides at import which copy
// of a library to load (one per torch minor, none for 2.15), refuses a torch of another minor than
// its build's, or imports a module it does not declare. The prediction reads that from the wheel's
// Python, the observation loads them for real; both are held to expected.json beside the spec,
// established by loading.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/process.h"
#include "core/project_paths.h"
#include "store/release_store.h"
#include "support/cli.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kFixture = fs::path(TORCH_ABI_CHECK_FIXTURES) / "canary" / "import_checks";

class CanaryImportChecks : public ::testing::Test {
 protected:
  void SetUp() override {
    ReleaseStore store(ReleaseStore::default_root());
    if (!store.find("2.14") || !store.find("2.15")) GTEST_SKIP() << "the torch store lacks 2.14 or 2.15";
    work_ = fs::temp_directory_path() / ("canary-import-checks-" + std::to_string(getpid()));
    fs::remove_all(work_);
    fs::create_directories(work_);
    fs::copy_file(kFixture / "canary.toml", work_ / "canary.toml");
    ProcessResult made = run_process({.argv = {host_python(), (kFixture / "make_wheels.py").string(), work_.string()}});
    ASSERT_TRUE(made.succeeded()) << made.output;
  }
  void TearDown() override { fs::remove_all(work_); }

  fs::path work_;
};

TEST_F(CanaryImportChecks, ACopyPerReleaseATorchVersionCheckAndAnUndeclaredImportArePredictedAsTheyLoad) {
  const json expected = json::parse(std::ifstream(kFixture / "expected.json"));
  const fs::path report = work_ / "canary.json";
  ProcessResult run =
      testing::run_cli({"canary", "--spec", (work_ / "canary.toml").string(), "--torch", "2.14", "--torch", "2.15",
                        "--cache-dir", (work_ / "cache").string(), "-j", "2", "--json", report.string()});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  const json section = json::parse(std::ifstream(report))["canary"];
  ASSERT_EQ(section["problems"].size(), 0U) << section["problems"].dump(1) << run.output;
  for (const auto& [name, by_release] : expected["cells"].items()) {
    bool found = false;
    for (const auto& package : section["packages"]) {
      if (package["name"] != name) continue;
      found = true;
      for (const auto& cell : package["cells"]) {
        const std::string full = cell["release"].get<std::string>();
        const std::string release = full.substr(0, full.rfind('.'));
        EXPECT_EQ(cell["predicted"], by_release[release][0])
            << name << " on " << release << ": " << cell["prediction_reason"];
        EXPECT_EQ(cell["observed"], by_release[release][1]) << name << " on " << release << ": " << cell["detail"];
        EXPECT_TRUE(cell["as_predicted"].get<bool>()) << name << " on " << release;
        if (cell["predicted"] == "refused") {
          EXPECT_NE(cell["prediction_reason"].get<std::string>().find(expected["reasons"][name].get<std::string>()),
                    std::string::npos)
              << cell["prediction_reason"];
        }
      }
    }
    EXPECT_TRUE(found) << name << "\n" << run.output;
  }
}

}  // namespace
}  // namespace abicheck
