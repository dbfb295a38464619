// Runs small real matrices through the CLI against the torch store: real builds, real loads, real
// crashes. Cells are cached under the build tree and builds in the folder every clone's tests share
// (testing::with_shared_builds), so a re-run costs little; a fresh machine builds everything once (a
// few minutes on two cores).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "store/release_store.h"
#include "support/build_paths.h"
#include "support/cli.h"
#include "support/files.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

const fs::path fixtures = fs::path(TORCH_ABI_CHECK_FIXTURES) / "matrix";
const fs::path cache_dir = fs::path(TORCH_ABI_CHECK_CLI).parent_path() / "matrix-test-cache";

bool store_has(const std::vector<std::string>& versions) {
  ReleaseStore store(ReleaseStore::default_root());
  for (const auto& version : versions) {
    if (!store.find(version)) return false;
  }
  return true;
}

using testing::read_json;
using testing::read_text;

const nlohmann::json* find_cell(const nlohmann::json& cells, const std::string& backend, const std::string& build,
                                const std::string& target, const std::string& runtime) {
  for (const auto& cell : cells) {
    if (cell["backend"] == backend && cell["build"] == build && cell["target"] == target &&
        cell["runtime"] == runtime) {
      return &cell;
    }
  }
  return nullptr;
}

class MatrixIntegration : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!store_has({"2.9", "2.10", "2.11", "2.12"})) GTEST_SKIP() << "the torch store lacks 2.9-2.12";
    newest_ = ReleaseStore(ReleaseStore::default_root()).releases().back().version.to_string();
    testing::with_shared_builds(cache_dir);
    output_ = fs::temp_directory_path() / ("matrix-test-" + std::to_string(getpid()));
    fs::create_directories(output_);
  }
  void TearDown() override { fs::remove_all(output_); }

  // Runs a fixture spec through the CLI with the shared cache; returns its JSON cells.
  nlohmann::json run_spec(const std::string& spec, int expected_exit) {
    const fs::path json = output_ / (spec + ".json");
    auto result = testing::run_cli({"matrix", (fixtures / spec).string(), "--cache-dir", cache_dir.string(), "--json",
                                    json.string(), "--jobs", "2"});
    EXPECT_EQ(result.exit_code, expected_exit) << result.output;
    return fs::exists(json) ? read_json(json)["matrix"]["cells"] : nlohmann::json::array();
  }

  std::string newest_;
  fs::path output_;
};

// The device objects compiled (their manifest written) since `since`.
std::size_t device_objects_compiled_since(fs::file_time_type since) {
  std::size_t count = 0;
  if (!fs::is_directory(cache_dir / "device-objects")) return 0;
  for (const auto& entry : fs::directory_iterator(cache_dir / "device-objects")) {
    fs::path manifest = entry.path() / "build.json";
    if (fs::exists(manifest) && fs::last_write_time(manifest) >= since) ++count;
  }
  return count;
}

TEST_F(MatrixIntegration, SmallMatrixMeetsTheVersionRules) {
  const auto started = fs::file_time_type::clock::now();
  const bool no_device_object_yet = fs::is_empty(cache_dir / "device-objects");
  auto result = testing::run_cli({"matrix", (fixtures / "small.toml").string(), "--cache-dir", cache_dir.string(),
                                  "--json", (output_ / "m.json").string(), "--junit", (output_ / "m.xml").string(),
                                  "--markdown", (output_ / "m.md").string(), "--jobs", "2"});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  auto cells = read_json(output_ / "m.json")["matrix"]["cells"];
  ASSERT_EQ(cells.size(), 24u);  // 2 backends x (2.9: 3 targets + newest: 3 targets) x 2 runtimes

  // T <= min(B, R): runs and passes every op test.
  const auto* old_on_new = find_cell(cells, "cpu", "2.9", "2.9", newest_);
  ASSERT_NE(old_on_new, nullptr);
  EXPECT_EQ((*old_on_new)["outcome"], "pass");
  EXPECT_FALSE((*old_on_new)["ops"].empty());
  // T > R: refused at load, naming a shim newer than R.
  const auto* new_on_old = find_cell(cells, "cpu", newest_, newest_, "2.9");
  ASSERT_NE(new_on_old, nullptr);
  EXPECT_EQ((*new_on_old)["expected"], "load-fail");
  EXPECT_EQ((*new_on_old)["outcome"], "expected-fail");
  EXPECT_NE((*new_on_old)["reason"].get<std::string>().find("undefined symbol torch_"), std::string::npos);
  // T > B: the 2.9 headers cannot build the 2.11 group.
  const auto* over_target = find_cell(cells, "cpu", "2.9", "2.11", "2.9");
  ASSERT_NE(over_target, nullptr);
  EXPECT_EQ((*over_target)["expected"], "build-fail");
  EXPECT_EQ((*over_target)["outcome"], "expected-fail");
  // GPU cells are built for real and, without a GPU, loaded into the CUDA torch releases: their
  // symbols and op registration are checked, nothing is executed, and they are never reported as passed.
  for (const auto& cell : cells) {
    if (cell["backend"] != "cuda") continue;
    EXPECT_NE(cell["outcome"], "pass");
    if (cell["expected"] == "pass") {
      EXPECT_EQ(cell["outcome"], "loaded-not-executed") << cell.dump();
      EXPECT_NE(cell["reason"].get<std::string>().find("ops registered for the device"), std::string::npos);
    }
    if (cell["expected"] == "load-fail") EXPECT_EQ(cell["outcome"], "expected-fail") << cell.dump();
  }
  // The coverage figure: per runtime release, shims declared, imported by the libraries, called (measured).
  const auto coverage = read_json(output_ / "m.json")["matrix"]["coverage"];
  ASSERT_TRUE(coverage["calls_measured"].get<bool>()) << coverage.dump();
  ASSERT_EQ(coverage["releases"].size(), 2u);
  const auto& newest_coverage = coverage["releases"].back();
  EXPECT_EQ(newest_coverage["release"], newest_);
  EXPECT_GT(newest_coverage["hand_written_called"].get<int>(), 0);
  EXPECT_LE(newest_coverage["hand_written_called"].get<int>(), newest_coverage["hand_written_imported"].get<int>());
  EXPECT_LT(newest_coverage["hand_written_imported"].get<int>(), newest_coverage["hand_written_declared"].get<int>());
  EXPECT_NE(result.output.find("shim coverage"), std::string::npos) << result.output;
  EXPECT_NE(read_text(output_ / "m.md").find("### Shim coverage"), std::string::npos);
  EXPECT_NE(read_text(output_ / "m.xml").find("scaled_add.scaled_add_matches_add_for_every_dtype_and_layout"),
            std::string::npos);
  EXPECT_NE(read_text(output_ / "m.md").find("**No finding**"), std::string::npos);
  // The device code includes no torch header: when this run built its six CUDA libraries, it compiled
  // each device source at most once (exactly once where no earlier run had) and linked that object
  // into all of them. (Host sources changed since an earlier run rebuild the libraries, not the
  // device objects.)
  if (result.output.find("(12 builds, 0 cached") != std::string::npos) {
    std::size_t device_sources = 0;
    for (const auto& file :
         fs::recursive_directory_iterator(fs::path(TORCH_ABI_CHECK_FIXTURES).parent_path() / "kernels" / "cuda")) {
      device_sources += file.path().extension() == ".cu" ? 1 : 0;
    }
    if (no_device_object_yet) {
      EXPECT_EQ(device_objects_compiled_since(started), device_sources);
    } else {
      EXPECT_LE(device_objects_compiled_since(started), device_sources);
    }
  }

  // Nothing changed: the re-run takes every build and cell from the cache.
  auto again = testing::run_cli(
      {"matrix", (fixtures / "small.toml").string(), "--cache-dir", cache_dir.string(), "--jobs", "2"});
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("(12 builds, 12 cached"), std::string::npos) << again.output;
}

TEST_F(MatrixIntegration, PlantedFaultIsContainedToItsCell) {
  auto cells = run_spec("planted_fault.toml", 1);
  ASSERT_EQ(cells.size(), 4u);
  EXPECT_EQ(find_cell(cells, "cpu", "2.9", "2.9", "2.9")->at("outcome"), "pass");
  const auto* crashed = find_cell(cells, "cpu", "2.9", "2.9", "2.10");
  EXPECT_EQ(crashed->at("outcome"), "crash");
  EXPECT_EQ(crashed->at("failure"), "crash");
  EXPECT_EQ(crashed->at("reason"), "signal 11 (Segmentation fault)");
  const auto* hung = find_cell(cells, "cpu", "2.9", "2.9", "2.11");
  EXPECT_EQ(hung->at("outcome"), "timeout");
  EXPECT_EQ(hung->at("failure"), "timeout");
  // A wrong answer is neither a crash nor an error: the op returned, with the wrong values.
  const auto* wrong = find_cell(cells, "cpu", "2.9", "2.9", "2.12");
  EXPECT_EQ(wrong->at("outcome"), "unexpected-fail");
  EXPECT_EQ(wrong->at("failure"), "wrong-result");
  EXPECT_EQ(wrong->at("ops").at(0).at("failure"), "wrong-result");
}

TEST_F(MatrixIntegration, BrokenOpRegistrationIsALoadFailureNotACrash) {
  auto cells = run_spec("broken_registration.toml", 1);
  ASSERT_EQ(cells.size(), 1u);
  const auto& cell = cells[0];
  EXPECT_EQ(cell.at("outcome"), "unexpected-fail") << cell.dump();
  EXPECT_EQ(cell.at("failure"), "registration");
  EXPECT_NE(cell.at("reason").get<std::string>().find("load failed"), std::string::npos) << cell.dump();
}

TEST_F(MatrixIntegration, ATestModuleThatDoesNotImportIsAFailureNotAPass) {
  auto cells = run_spec("unimportable_tests.toml", 1);
  ASSERT_EQ(cells.size(), 1u);
  const auto& cell = cells[0];
  EXPECT_EQ(cell.at("outcome"), "unexpected-fail") << cell.dump();
  EXPECT_EQ(cell.at("failure"), "op-error") << cell.dump();
  EXPECT_NE(cell.at("reason").get<std::string>().find("ImportError"), std::string::npos) << cell.dump();
}

TEST_F(MatrixIntegration, NegativeControlBreaksTheWayAUserMeetsIt) {
  auto cells = run_spec("negative_control.toml", 0);
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(find_cell(cells, "cpu", "2.9", "2.9", "2.9")->at("outcome"), "pass");
  const auto* broken = find_cell(cells, "cpu", "2.9", "2.9", "2.12");
  EXPECT_EQ(broken->at("expected"), "no-guarantee");
  EXPECT_EQ(broken->at("outcome"), "expected-fail");
  // The loader's own words, as `import` would show them to a user: a mangled libtorch C++ symbol.
  EXPECT_NE(broken->at("log").get<std::string>().find("undefined symbol: _ZN"), std::string::npos);
}

TEST(MatrixSpec, BadSpecIsAToolErrorOnOneLine) {
  auto result = testing::run_cli({"matrix", (fixtures / "bad" / "unknown_backend.toml").string()});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("unknown_backend.toml: unknown backend 'tpu'"), std::string::npos) << result.output;
  EXPECT_EQ(std::count(result.output.begin(), result.output.end(), '\n'), 1) << result.output;
}

}  // namespace
}  // namespace abicheck
