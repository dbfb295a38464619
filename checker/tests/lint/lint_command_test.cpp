#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/process.h"
#include "lint/extension/extension_rules.h"
#include "support/build_paths.h"
#include "support/cli.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

fs::path fixture(const std::string& relative) { return fs::path(TORCH_ABI_CHECK_FIXTURES) / "lint" / relative; }

ProcessResult run_lint(std::vector<std::string> arguments) {
  std::vector<std::string> argv = {TORCH_ABI_CHECK_CLI, "lint"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return run_process({.argv = argv, .timeout = std::chrono::minutes(5)});
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class LintCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_ = fs::temp_directory_path() / fmt::format("lint-command-test-{}", ::getpid());
    fs::create_directories(scratch_);
  }
  void TearDown() override { fs::remove_all(scratch_); }
  fs::path scratch_;
};

TEST_F(LintCommandTest, ErrorFindingsPrintCompilerStyleLinesAndExitOne) {
  auto result = run_lint({"extension", fixture("extension/E004/bad").string(), "--torch", "2.11"});
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("E004/bad/op.cpp:2:9: error: [E004] TORCH_TARGET_VERSION is 2.12"), std::string::npos)
      << result.output;
}

TEST_F(LintCommandTest, CleanProjectExitsZero) {
  auto result = run_lint({"extension", fixture("extension/E004/good").string(), "--torch", "2.11"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
}

TEST_F(LintCommandTest, WarningsAloneLeaveTheExitCodeZero) {
  auto result = run_lint({"extension", fixture("extension/E007/bad").string(), "--torch", "2.11"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("warning: [E007]"), std::string::npos) << result.output;
}

TEST_F(LintCommandTest, JsonReportHasOneObjectPerDiagnosticAndIsDeterministic) {
  fs::path first = scratch_ / "first.json";
  fs::path second = scratch_ / "second.json";
  auto dir = fixture("extension/E005/bad").string();
  ASSERT_EQ(run_lint({"extension", dir, "--torch", "2.11", "--json", first.string()}).exit_code, 1);
  ASSERT_EQ(run_lint({"extension", dir, "--torch", "2.11", "--json", second.string()}).exit_code, 1);
  EXPECT_EQ(read_file(first), read_file(second));
  auto document = nlohmann::json::parse(read_file(first)).at("lint");
  ASSERT_FALSE(document.at("diagnostics").empty());
  for (const auto& diagnostic : document["diagnostics"]) {
    for (const char* key : {"rule", "severity", "file", "line", "column", "message"}) {
      EXPECT_TRUE(diagnostic.contains(key)) << key;
    }
  }
  EXPECT_EQ(document["diagnostics"][0]["severity"], "error");
}

// The header lint writes the same report document; run_cli proves `report` on it exits as the lint did.
TEST_F(LintCommandTest, HeaderLintJsonCarriesItsVerdict) {
  fs::path json = scratch_ / "headers.json";
  fs::path tree = fixture("headers/H001/bad");
  auto result = run_lint({"headers", "--torch", (tree / "include").string(), "--baselines",
                          (tree / "baselines").string(), "--json", json.string()});
  ASSERT_EQ(result.exit_code, 1) << result.output;
  auto document = nlohmann::json::parse(read_file(json));
  EXPECT_EQ(document["command"], "lint headers");
  EXPECT_EQ(document["verdict"]["exit_code"], 1);
  ASSERT_FALSE(document["verdict"]["findings"].empty());
  EXPECT_EQ(document["verdict"]["findings"][0]["kind"], "H001");
}

// Validated against the official SARIF 2.1.0 schema by validate_sarif.py (see ci/setup.sh).
TEST_F(LintCommandTest, SarifReportValidatesAgainstTheSarif210Schema) {
  fs::path sarif = scratch_ / "lint.sarif";
  ASSERT_EQ(
      run_lint({"extension", fixture("extension/E002/bad").string(), "--torch", "2.11", "--sarif", sarif.string()})
          .exit_code,
      1);
  const char* configured = std::getenv("TORCH_ABI_CHECK_TOOLS_VENV");
  const char* cache = std::getenv("XDG_CACHE_HOME");
  fs::path venv = configured
                      ? fs::path(configured)
                      : (cache ? fs::path(cache) : fs::path(std::getenv("HOME")) / ".cache") / "torch-abi-check-tools";
  auto validation = run_process(
      {.argv = {(venv / "bin" / "python").string(),
                (fs::path(TORCH_ABI_CHECK_FIXTURES).parent_path() / "checker" / "tests" / "lint" / "validate_sarif.py")
                    .string(),
                sarif.string()}});
  EXPECT_EQ(validation.exit_code, 0) << validation.output;
  auto document = nlohmann::json::parse(read_file(sarif));
  EXPECT_EQ(document["version"], "2.1.0");
  // One result per diagnostic the fixture plants (its `expect: [E...]` comments).
  std::size_t planted = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fixture("extension/E002/bad"))) {
    std::string text = read_file(entry.path());
    for (auto at = text.find("expect: ["); at != std::string::npos; at = text.find("expect: [", at + 1)) ++planted;
  }
  EXPECT_EQ(document["runs"][0]["results"].size(), planted);
  EXPECT_GE(planted, 2u);
  EXPECT_EQ(document["runs"][0]["tool"]["driver"]["rules"].size(), extension_rules().size());
}

// --suppressions accepts the planted E004 (its JSON lists it as suppressed, with the reason), so the
// run is clean; run_cli validates the document against the schema.
TEST_F(LintCommandTest, SuppressedFindingsLeaveTheRunClean) {
  fs::path suppressions = scratch_ / "lint-suppressions.toml";
  std::ofstream(suppressions) << "[[finding]]\nrule = \"E004\"\nfile = \"*/E004/bad/op.cpp\"\n"
                                 "reason = \"the target moves to 2.12 with the next release\"\n";
  fs::path json = scratch_ / "suppressed.json";
  auto result = testing::run_cli({"lint", "extension", fixture("extension/E004/bad").string(), "--torch", "2.11",
                                  "--suppressions", suppressions.string(), "--json", json.string()});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  auto lint = nlohmann::json::parse(read_file(json)).at("lint");
  EXPECT_TRUE(lint["diagnostics"].empty()) << lint.dump(2);
  ASSERT_EQ(lint["suppressed"].size(), 1u) << lint.dump(2);
  EXPECT_EQ(lint["suppressed"][0]["rule"], "E004");
  EXPECT_EQ(lint["suppressed"][0]["suppressed"], "the target moves to 2.12 with the next release");
  EXPECT_TRUE(lint["suppression_problems"].empty());
}

TEST_F(LintCommandTest, MissingProjectIsOneErrorLineAndExitTwo) {
  auto result = run_lint({"extension", (scratch_ / "no-such-project").string(), "--torch", "2.11"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("torch-abi-check: error: "), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("no such file or directory"), std::string::npos) << result.output;
}

TEST_F(LintCommandTest, MalformedCompileDatabaseIsExitTwo) {
  std::ofstream(scratch_ / "compile_commands.json") << "[{\"file\": \"a.cpp\"";
  auto result = run_lint({"extension", (scratch_ / "compile_commands.json").string(), "--torch", "2.11"});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("compile_commands.json: not valid JSON"), std::string::npos) << result.output;
}

TEST_F(LintCommandTest, CompileDatabaseGivesTheTargetOnTheCommandLine) {
  std::ofstream(scratch_ / "op.cpp") << "#include <torch/csrc/stable/library.h>\n";
  nlohmann::json database = nlohmann::json::array(
      {{{"directory", scratch_.string()},
        {"file", "op.cpp"},
        {"command", "g++ -DTORCH_TARGET_VERSION=0x020A000000000000 -I/somewhere/else/torch/include -c op.cpp"}}});
  std::ofstream(scratch_ / "compile_commands.json") << database.dump();
  auto result = run_lint({"extension", (scratch_ / "compile_commands.json").string(), "--torch", "2.11"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
}

// A target that reaches a unit only on its compile command is reported where the user wrote it: the
// build file's line that writes the same value, else the unit's first line; never at line 0.
TEST_F(LintCommandTest, TargetNewerThanBuildOnACompileCommandIsReportedWhereItIsWritten) {
  std::ofstream(scratch_ / "op.cpp") << "#include <torch/csrc/stable/library.h>\n";
  std::ofstream(scratch_ / "other.cpp") << "#include <torch/csrc/stable/library.h>\n";
  std::ofstream(scratch_ / "CMakeLists.txt") << "add_library(ops SHARED op.cpp)\n"
                                                "target_compile_definitions(ops PRIVATE "
                                                "TORCH_TARGET_VERSION=0x020C000000000000)\n";
  nlohmann::json database =
      nlohmann::json::array({{{"directory", scratch_.string()},
                              {"file", "op.cpp"},
                              {"command", "g++ -DTORCH_TARGET_VERSION=0x020C000000000000 -c op.cpp"}},
                             {{"directory", scratch_.string()},
                              {"file", "other.cpp"},
                              {"command", "g++ -DTORCH_TARGET_VERSION=0x020D000000000000 -c other.cpp"}}});
  std::ofstream(scratch_ / "compile_commands.json") << database.dump();
  fs::path json = scratch_ / "lint.json";
  auto result = testing::run_cli(
      {"lint", "extension", (scratch_ / "compile_commands.json").string(), "--torch", "2.11", "--json", json.string()});
  EXPECT_EQ(result.exit_code, 1) << result.output;
  auto lint = nlohmann::json::parse(read_file(json)).at("lint");
  std::vector<std::string> places;
  for (const auto& diagnostic : lint.at("diagnostics")) {
    EXPECT_EQ(diagnostic["rule"], "E004") << diagnostic.dump();
    places.push_back(fmt::format("{}:{}", fs::path(diagnostic["file"].get<std::string>()).filename().string(),
                                 diagnostic["line"].get<int>()));
    if (places.back() == "other.cpp:1") {
      EXPECT_NE(diagnostic["message"].get<std::string>().find("on the compile command: TORCH_TARGET_VERSION is 2.13"),
                std::string::npos)
          << diagnostic.dump();
    }
  }
  EXPECT_EQ(places, (std::vector<std::string>{"CMakeLists.txt:2", "other.cpp:1"}));
}

}  // namespace
}  // namespace abicheck

namespace abicheck {
namespace {

// The project's own reference kernels, linted as the matrix builds them (each group at its own
// target, against the newest torch of the store), have nothing to report.
// Uncompiled <torch/extension.h> sources beside the compiled stable one: the lint parses what the
// build compiles and says where that came from; the folder walk alone would report E001 and E002.
TEST_F(LintCommandTest, SetupPyProjectIsLintedAsItsExtensionsCompileIt) {
  auto project = fs::path(TORCH_ABI_CHECK_FIXTURES) / "check" / "setuptools_legacy_sources";
  auto result = run_lint({"extension", project.string(), "--torch", "2.15"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("lint: note: translation units: the extensions setup.py declares (read with torch "
                               "2.15): 1 source"),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("in 1 translation unit(s)"), std::string::npos) << result.output;
}

TEST_F(LintCommandTest, CMakeProjectIsLintedAsItsCompileCommandsSay) {
  auto project = fs::path(TORCH_ABI_CHECK_FIXTURES) / "check" / "cmake_legacy_sources";
  auto result = run_lint({"extension", project.string(), "--torch", "2.15"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("lint: note: translation units: the compile commands CMake exports (configured "
                               "against torch 2.15): 1 source"),
            std::string::npos)
      << result.output;
}

// The same sources without a build description: every source is linted, and the note says why.
TEST_F(LintCommandTest, ProjectWithoutBuildDescriptionIsLintedFromItsFolderAndSaysSo) {
  auto project = fs::path(TORCH_ABI_CHECK_FIXTURES) / "check" / "cmake_legacy_sources";
  fs::copy(project / "src", scratch_ / "src");
  fs::copy(project / "legacy", scratch_ / "legacy");
  auto result = run_lint({"extension", scratch_.string(), "--torch", "2.15", "--target", "2.14"});
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(
      result.output.find("lint: note: translation units: every C++ and CUDA source under the directory (2 "
                         "sources), because the project has no compile_commands.json, CMakeLists.txt or setup.py"),
      std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("legacy/old_ops.cpp:4:10: error: [E002]"), std::string::npos) << result.output;
}

// A setup.py that fails while it runs is the build's own error: the note names it, and the folder is linted.
TEST_F(LintCommandTest, SetupPyThatFailsIsNamedInTheNote) {
  std::ofstream(scratch_ / "setup.py") << "raise RuntimeError('needs a GPU to configure')\n";
  fs::copy(fs::path(TORCH_ABI_CHECK_FIXTURES) / "check" / "cmake_legacy_sources" / "src", scratch_ / "src");
  auto result = run_lint({"extension", scratch_.string(), "--torch", "2.15", "--target", "2.14"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("because setup.py could not be read: setup.py: RuntimeError: needs a GPU to configure"),
            std::string::npos)
      << result.output;
}

TEST(LintReferenceKernels, HaveNoFinding) {
  namespace fs = std::filesystem;
  fs::path build_dir = fs::path(TORCH_ABI_CHECK_CLI).parent_path().parent_path();
  fs::path script = fs::path(TORCH_ABI_CHECK_FIXTURES).parent_path() / "bench" / "bench_lint_kernels.sh";
  auto result =
      run_process({.argv = {"bash", script.string(), build_dir.string()}, .timeout = std::chrono::minutes(10)});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("0 error(s), 0 warning(s)"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace abicheck
