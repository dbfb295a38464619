// Runs fixtures/canary/outcomes (one package per outcome class) through `torch-abi-check canary`
// under the store's torch 2.14 and 2.15, real loads in real processes, and holds every cell to
// expected.json beside the spec. A second run must come wholly from the cache.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/process.h"
#include "store/release_store.h"
#include "support/build_paths.h"
#include "support/cli.h"
#include "support/files.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kFixture = fs::path(TORCH_ABI_CHECK_FIXTURES) / "canary" / "outcomes";

using testing::read_json;

// A package's row of the section, by its spec name ("pure_ok", the directory's name).
const json* row_of(const json& section, const std::string& name) {
  for (const auto& package : section["packages"]) {
    if (package["name"] == name) return &package;
  }
  return nullptr;
}

void run_compiler(const std::vector<std::string>& argv) {
  ProcessResult run = run_process({.argv = argv});
  ASSERT_TRUE(run.succeeded()) << run.output;
}

class CanaryOutcomes : public ::testing::Test {
 protected:
  void SetUp() override {
    ReleaseStore store(ReleaseStore::default_root());
    if (!store.find("2.14") || !store.find("2.15")) GTEST_SKIP() << "the torch store lacks 2.14 or 2.15";
    work_ = fs::temp_directory_path() / ("canary-outcomes-" + std::to_string(getpid()));
    fs::remove_all(work_);
    fs::create_directories(work_);
    fs::copy(kFixture, work_ / "spec", fs::copy_options::recursive);
    build_native_libraries();
  }
  void TearDown() override { fs::remove_all(work_); }

  // newer_shim: the audit fixture that calls a shim 2.15 introduced, built against 2.15's headers and,
  // as a real extension is, linked against its libtorch_cpu (so the loader looks there for it).
  // old_cuda: a library that NEEDs libcudart.so.11, linked against a stub of that name.
  void build_native_libraries() {
    StoredRelease release = ReleaseStore(ReleaseStore::default_root()).require("2.15");
    const fs::path extensions = fs::path(TORCH_ABI_CHECK_FIXTURES) / "audit" / "extensions";
    run_compiler({"c++", "-std=c++17", "-shared", "-fPIC", "-O1", "-I", release.include_dir.string(), "-I",
                  extensions.string(), "-DTORCH_TARGET_VERSION=0x020F000000000000",
                  (extensions / "target_2_15.cpp").string(), "-o",
                  (work_ / "spec/packages/newer_shim/canary_newer_shim/libnewer_shim.so").string(),
                  "-Wl,--no-as-needed", "-L", release.lib_dir.string(), "-ltorch_cpu"});

    fs::create_directories(work_ / "stub");
    std::ofstream(work_ / "stub/cudart.c") << "int cudaRuntimeGetVersion(int* v) { *v = 11080; return 0; }\n";
    std::ofstream(work_ / "stub/old_cuda.c")
        << "int cudaRuntimeGetVersion(int*);\nint old_cuda_version(void) { int v = 0; "
           "cudaRuntimeGetVersion(&v); return v; }\n";
    run_compiler({"cc", "-shared", "-fPIC", "-Wl,-soname,libcudart.so.11", "-o",
                  (work_ / "stub/libcudart.so.11").string(), (work_ / "stub/cudart.c").string()});
    run_compiler({"cc", "-shared", "-fPIC", "-o",
                  (work_ / "spec/packages/old_cuda/canary_old_cuda/libold_cuda.so").string(),
                  (work_ / "stub/old_cuda.c").string(), (work_ / "stub/libcudart.so.11").string()});
  }

  json run_canary(int expected_exit) {
    fs::path report = work_ / "canary.json";
    ProcessResult run =
        testing::run_cli({"canary", "--spec", (work_ / "spec/canary.toml").string(), "--torch", "2.14", "--torch",
                          "2.15", "--cache-dir", (work_ / "cache").string(), "-j", "2", "--json", report.string()});
    EXPECT_EQ(run.exit_code, expected_exit) << run.output;
    output_ = run.output;
    return read_json(report);
  }

  fs::path work_;
  std::string output_;
};

TEST_F(CanaryOutcomes, EveryOutcomeClassIsObservedAsExpectedAndAWarmRunIsCached) {
  json expected = read_json(kFixture / "expected.json");
  json document = run_canary(expected["exit_code"].get<int>());
  const json& section = document["canary"];
  ASSERT_EQ(section["releases"].size(), 2U);
  for (const auto& [name, by_release] : expected["cells"].items()) {
    const json* row = row_of(section, name);
    ASSERT_NE(row, nullptr) << name << "\n" << output_;
    for (const auto& cell : (*row)["cells"]) {
      std::string release = cell["release"].get<std::string>().substr(0, 4);
      const json& want = by_release[release];
      EXPECT_EQ(cell["observed"], want[0]) << name << " on " << release << ": " << cell["detail"];
      EXPECT_EQ(cell["as_predicted"], want[1]) << name << " on " << release << ": predicted " << cell["predicted"]
                                               << " (" << cell["prediction_reason"] << ")";
      EXPECT_FALSE(cell["cached"].get<bool>());
    }
  }
  ASSERT_EQ(section["problems"].size(), expected["problems"].size()) << section["problems"].dump(1);
  for (const auto& problem : section["problems"]) {
    std::string name = problem["package"];
    ASSERT_TRUE(expected["problems"].contains(name)) << name;
    EXPECT_NE(problem["problem"].get<std::string>().find(expected["problems"][name].get<std::string>()),
              std::string::npos)
        << problem["problem"];
  }
  // Each disagreement is a finding, named by what happened; could-not-install is a warning.
  int errors = 0;
  for (const auto& finding : document["verdict"]["findings"]) {
    EXPECT_EQ(finding["stage"], "canary");
    if (finding["severity"] == "error") ++errors;
  }
  EXPECT_EQ(errors, 9) << "refused, crash, timeout, smoke-failed twice each, operator-missing once";
  EXPECT_NE(output_.find("cells as predicted"), std::string::npos) << output_;

  json warm = run_canary(expected["exit_code"].get<int>());
  for (const auto& row : warm["canary"]["packages"]) {
    for (const auto& cell : row["cells"]) EXPECT_TRUE(cell["cached"].get<bool>()) << row["name"];
  }
  EXPECT_NE(output_.find("0 run, 18 from cache"), std::string::npos) << output_;
}

}  // namespace
}  // namespace abicheck
