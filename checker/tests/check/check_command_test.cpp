// Runs `torch-abi-check check` on the fixture projects of fixtures/check/ against the real
// torch store: real CMake and setuptools builds, real audits, real smoke runs in each release's
// Python. Each fixture's expected.json holds its exit code, verdict and findings. Work dirs are under
// the build tree (check-test-cache/) and builds in the folder every clone's tests share
// (testing::with_shared_builds), so a re-run only repeats the smoke runs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <regex>
#include <set>

#include "store/release_store.h"
#include "support/build_paths.h"
#include "support/cli.h"
#include "support/files.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const fs::path fixtures = fs::path(TORCH_ABI_CHECK_FIXTURES) / "check";
const fs::path cache_dir = fs::path(TORCH_ABI_CHECK_CLI).parent_path() / "check-test-cache";

using testing::read_json;
using testing::read_text;

// Every path under the directory: `check` must leave the author's tree as it found it.
std::set<std::string> tree_of(const fs::path& directory) {
  std::set<std::string> paths;
  for (const auto& entry : fs::recursive_directory_iterator(directory)) {
    paths.insert(fs::relative(entry.path(), directory).string());
  }
  return paths;
}

// A note of the finding holds each of `notes_contain` (what the same cause made other stages say).
bool has_notes(const json& finding, const json& expected) {
  if (!expected.contains("notes_contain")) return !finding.contains("notes");
  if (!finding.contains("notes") || finding["notes"].size() != expected["notes_contain"].size()) return false;
  return std::ranges::all_of(expected["notes_contain"], [&](const json& words) {
    return std::ranges::any_of(finding["notes"], [&](const json& note) {
      return note.get<std::string>().find(words.get<std::string>()) != std::string::npos;
    });
  });
}

bool has_finding(const json& findings, const json& expected) {
  return std::ranges::any_of(findings, [&](const json& finding) {
    return finding["stage"] == expected["stage"] && finding["where"] == expected["where"] &&
           finding["kind"] == expected["kind"] &&
           finding["message"].get<std::string>().find(expected["message_contains"].get<std::string>()) !=
               std::string::npos &&
           has_notes(finding, expected);
  });
}

// The step numbers of check's progress lines ("check: [3] 12 s: build against torch 2.15: built").
std::vector<int> progress_steps(const std::string& output) {
  std::vector<int> steps;
  static const std::regex step(R"((?:^|\n)check: \[(\d+)\])");
  for (std::sregex_iterator it(output.begin(), output.end(), step), end; it != end; ++it) {
    steps.push_back(std::stoi((*it)[1]));
  }
  return steps;
}

std::vector<int> count_up_to(std::size_t n) {
  std::vector<int> numbers(n);
  std::iota(numbers.begin(), numbers.end(), 1);
  return numbers;
}

class CheckCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    ReleaseStore store(ReleaseStore::default_root());
    for (const char* version : {"2.13", "2.14", "2.15"}) {
      if (!store.find(version)) GTEST_SKIP() << "the torch store lacks " << version;
    }
    if (store.releases().back().version.minor_release() != TorchVersion{2, 15, 0}) {
      GTEST_SKIP() << "the expected verdicts assume 2.15 is the newest stored release";
    }
    output_ = fs::temp_directory_path() / ("check-test-" + std::to_string(getpid()));
    fs::create_directories(output_);
  }
  void TearDown() override { fs::remove_all(output_); }

  std::string text_;  // what the last check_fixture printed

  // Runs check on a fixture with every report, and compares the outcome with its expected.json.
  json check_fixture(const std::string& name) {
    const fs::path project = fixtures / name;
    const json expected = read_json(project / "expected.json");
    const auto before = tree_of(project);
    ProcessResult result = testing::run_cli(
        {"check", project.string(), "--work-dir", testing::with_shared_builds(cache_dir / name).string(), "--json",
         (output_ / "check.json").string(), "--junit", (output_ / "check.junit.xml").string(), "--sarif",
         (output_ / "check.sarif").string(), "--html", (output_ / "check.html").string()});
    text_ = result.output;
    EXPECT_EQ(result.exit_code, expected["exit_code"].get<int>()) << result.output;
    EXPECT_EQ(tree_of(project), before) << "check wrote into the project";
    EXPECT_EQ(progress_steps(result.output), count_up_to(progress_steps(result.output).size()))
        << "every progress line is the next step: " << result.output;
    json document = read_json(output_ / "check.json");
    EXPECT_EQ(document["verdict"]["lines"][0], expected["verdict"]) << result.output;
    const json& findings = document["verdict"]["findings"];
    EXPECT_EQ(findings.size(), expected["findings"].size()) << findings.dump(1);
    for (const auto& finding : expected["findings"]) {
      EXPECT_TRUE(has_finding(findings, finding)) << "missing " << finding.dump() << "\nin " << findings.dump(1);
    }
    std::string html = read_text(output_ / "check.html");
    EXPECT_NE(html.find("id=\"report-data\""), std::string::npos);
    if (!document["matrix"]["cells"].empty()) {
      EXPECT_NE(html.find("<table class=\"grid"), std::string::npos) << "the smoke runs are a matrix grid";
    }
    return document;
  }

  fs::path output_;
};

std::set<std::string> outcomes_by_cell(const json& document) {
  std::set<std::string> cells;
  for (const auto& cell : document["matrix"]["cells"]) {
    cells.insert(cell["build"].get<std::string>() + "/" + cell["runtime"].get<std::string>() + ":" +
                 cell["outcome"].get<std::string>());
  }
  return cells;
}

TEST_F(CheckCommand, CMakeProjectWorksFromItsTargetToTheNewest) {
  json document = check_fixture("cmake_ok");
  EXPECT_EQ(document["check"]["build_system"], "cmake");
  EXPECT_EQ(document["check"]["target"], "2.14");
  EXPECT_EQ(outcomes_by_cell(document),
            (std::set<std::string>{"2.14/2.14:pass", "2.14/2.15:pass", "2.15/2.14:pass", "2.15/2.15:pass"}));
  for (const auto& binary : document["audit"]["binaries"]) EXPECT_EQ(binary["verdict"], "stable");
  // The audit's figures say what they mean for the project beside them.
  EXPECT_NE(text_.find("(to load: 2.13): its imports load on torch 2.13 and newer, its target 2.14 included"),
            std::string::npos)
      << text_;
}

TEST_F(CheckCommand, SetuptoolsProjectWorksFromItsTargetToTheNewest) {
  json document = check_fixture("setuptools_ok");
  EXPECT_EQ(document["check"]["build_system"], "setuptools");
  EXPECT_EQ(document["check"]["target"], "2.14");
  EXPECT_EQ(outcomes_by_cell(document),
            (std::set<std::string>{"2.14/2.14:pass", "2.14/2.15:pass", "2.15/2.14:pass", "2.15/2.15:pass"}));
}

// Its pyproject.toml needs setuptools >= 77 (PEP 639 metadata), which neither the host's setuptools (65
// on Debian 12) nor 2.14's environment has: built as pip builds it, with what [build-system] requires.
TEST_F(CheckCommand, SetuptoolsProjectIsBuiltWithTheSetuptoolsItsBuildSystemRequires) {
  json document = check_fixture("setuptools_pep639");
  EXPECT_EQ(outcomes_by_cell(document),
            (std::set<std::string>{"2.14/2.14:pass", "2.14/2.15:pass", "2.15/2.14:pass", "2.15/2.15:pass"}));
}

// A project on the stable C++ API in several files (fixtures/check/stable_multi_file: target 2.10, wrappers
// of 2.9 and 2.10, PEP 639 metadata): what pip builds and the loader runs (its establish_truth.sh), check
// builds and runs too.
TEST_F(CheckCommand, AStableApiProjectOfSeveralFilesIsBuiltAndRunAsPipAndTheLoaderDo) {
  ReleaseStore store(ReleaseStore::default_root());
  for (const char* version : {"2.10", "2.11", "2.12"}) {
    if (!store.find(version)) GTEST_SKIP() << "the torch store lacks " << version;
  }
  json document = check_fixture("stable_multi_file");
  std::set<std::string> expected;
  for (const char* build : {"2.10", "2.15"}) {
    for (const char* runtime : {"2.10", "2.11", "2.12", "2.13", "2.14", "2.15"}) {
      expected.insert(std::string(build) + "/" + runtime + ":pass");
    }
  }
  EXPECT_EQ(outcomes_by_cell(document), expected);
}

TEST_F(CheckCommand, BrokenProjectSaysWhatBreaksWhereAndWhy) {
  json document = check_fixture("broken");
  EXPECT_EQ(document["check"]["target"], "2.13");
  // Built against 2.15 only (2.13's headers lack the over-target shim): refused on 2.13, crashes on
  // 2.14, works on 2.15.
  EXPECT_EQ(outcomes_by_cell(document),
            (std::set<std::string>{"2.15/2.13:unexpected-fail", "2.15/2.14:crash", "2.15/2.15:pass"}));
  std::string sarif = read_text(output_ / "check.sarif");
  EXPECT_NE(sarif.find("\"ruleId\": \"E002\""), std::string::npos) << sarif;
  EXPECT_NE(sarif.find("\"ruleId\": \"E006\""), std::string::npos) << sarif;
  std::string junit = read_text(output_ / "check.junit.xml");
  EXPECT_NE(junit.find("<failure"), std::string::npos);
  EXPECT_NE(junit.find("<error"), std::string::npos) << "the crash is an error case";
}

TEST_F(CheckCommand, ProjectWithoutTargetIsAFindingAndIsCheckedOnTheNewestOnly) {
  json document = check_fixture("no_target");
  EXPECT_TRUE(document["check"]["target"].is_null());
  EXPECT_EQ(document["check"]["runtimes"], json::array({"2.15"}));
  ASSERT_EQ(document["check"]["builds"].size(), 1u);
  EXPECT_EQ(document["check"]["builds"][0]["torch"], "2.15");
  EXPECT_EQ(document["check"]["builds"][0]["built"], true);
  EXPECT_EQ(document["check"]["notes"].back(),
            "no smoke test configured ([tool.torch-abi-check] smoke = \"...\"): nothing was run");
}

// An operator called by name whose schema changed between the target and the newest release, with
// no schema adapter: the lint sees the call in the source, the audit the name in each build.
TEST_F(CheckCommand, OperatorWhoseSchemaChangedWithoutAdapterIsFoundByLintAndAudit) {
  json document = check_fixture("operator_changed");
  for (const auto& binary : document["audit"]["binaries"]) {
    ASSERT_EQ(binary["operators"].size(), 1u) << binary.dump(1);
    EXPECT_EQ(binary["operators"][0]["name"], "aten::_cudnn_attention_forward");
    EXPECT_EQ(binary["operators"][0]["breaks"][0]["release"], "2.14");
  }
}

// The device runtime is part of the check's audit, judged by the audit's own rule: a library that
// NEEDs libcudart.so.12 does not load into the store's CUDA 13 builds, a warning per build.
TEST_F(CheckCommand, CudaRuntimeOfAnotherMajorThanTheStoredReleasesIsAWarning) {
  ReleaseStore store(ReleaseStore::default_root());
  if (!store.find("2.10")) GTEST_SKIP() << "the torch store lacks 2.10";
  json document = check_fixture("cuda12_runtime");
  for (const auto& binary : document["audit"]["binaries"]) {
    if (binary["device"]["toolkit"] != "CUDA 12") continue;
    EXPECT_TRUE(binary["releases"][0]["loads"]) << "2.10 brings CUDA 12";
    EXPECT_FALSE(binary["releases"].back()["loads"]) << "2.15 brings CUDA 13";
  }
}

// A target newer than every known release is a typo far more often than a release from the future:
// check says so with the lint's explanation, builds and runs nothing, and exits 1 (not 2 with advice
// to install a release that does not exist).
TEST_F(CheckCommand, TargetNewerThanEveryReleaseIsAFindingWithTheLintsExplanation) {
  json document = check_fixture("target_typo");
  EXPECT_EQ(document["check"]["target"], "2.16");
  EXPECT_TRUE(document["check"]["builds"].empty());
  EXPECT_TRUE(document["matrix"]["cells"].empty());
}

// Old <torch/extension.h> sources that the build never compiles sit beside the stable one: the lint
// reads what the build compiles (setup.py's extensions, CMake's compile commands), so they are not
// findings, and the notes say where the translation units came from.
TEST_F(CheckCommand, SetuptoolsProjectIsLintedAsSetupPyCompilesIt) {
  json document = check_fixture("setuptools_legacy_sources");
  EXPECT_EQ(document["check"]["build_system"], "setuptools");
  EXPECT_EQ(document["check"]["target"], "2.14");
  EXPECT_EQ(document["check"]["notes"][0],
            "lint: translation units: the extensions setup.py declares (read with torch 2.15): 1 source");
}

TEST_F(CheckCommand, CMakeProjectIsLintedAsCMakeCompilesIt) {
  json document = check_fixture("cmake_legacy_sources");
  EXPECT_EQ(document["check"]["build_system"], "cmake");
  EXPECT_EQ(document["check"]["target"], "2.14");
  EXPECT_EQ(document["check"]["notes"][0],
            "lint: translation units: the compile commands CMake exports (configured against torch 2.15): 1 source");
}

// A project known only by its compile_commands.json has nothing to build with: it is linted, and
// the verdict says it was not built.
TEST_F(CheckCommand, CompileCommandsOnlyProjectIsLintedNotBuilt) {
  const fs::path project = output_ / "compile-commands-only";
  fs::create_directories(project);
  fs::copy_file(fixtures / "cmake_ok" / "src" / "ops.cpp", project / "ops.cpp");
  std::ofstream(project / "compile_commands.json")
      << json::array({{{"directory", project.string()},
                       {"file", "ops.cpp"},
                       {"command", "g++ -DTORCH_TARGET_VERSION=0x020E000000000000 -c ops.cpp"}}})
             .dump();
  ProcessResult result = testing::run_cli({"check", project.string(), "--work-dir", (output_ / "work").string(),
                                           "--json", (output_ / "check.json").string()});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  json document = read_json(output_ / "check.json");
  EXPECT_EQ(document["verdict"]["lines"][0],
            "lint clean for torch 2.14 … 2.15 (not built: no CMakeLists.txt or setup.py)");
  EXPECT_TRUE(document["check"]["build_system"].is_null());
  EXPECT_TRUE(document["check"]["builds"].empty());
}

TEST(CheckCommandInput, UnknownConfigKeyIsOneLineNamingTheFileAndTheKey) {
  const fs::path project = fixtures / "bad_config";
  ProcessResult result =
      testing::run_cli({"check", project.string(), "--work-dir", (cache_dir / "bad_config").string()});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_EQ(std::ranges::count(result.output, '\n'), 1) << result.output;
  EXPECT_NE(result.output.find((project / "pyproject.toml").string() + ": unknown key 'smoke_command'"),
            std::string::npos)
      << result.output;
}

TEST(CheckCommandInput, WorkDirInsideTheProjectIsRefused) {
  const fs::path project = fixtures / "cmake_ok";
  ProcessResult result = testing::run_cli({"check", project.string(), "--work-dir", (project / "scratch").string()});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("the work dir must be outside the project"), std::string::npos) << result.output;
  EXPECT_FALSE(fs::exists(project / "scratch"));
}

}  // namespace
}  // namespace abicheck
