// ci/action.yml, the one step a library's CI adds, run here by run_action_locally.py: its run steps
// in order with bash, its uses steps (cache, artifact, code scanning: GitHub's services) skipped.
// The CLI under test is put first on PATH, so the action's build step uses it.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/file_text.h"
#include "core/process.h"
#include "core/project_paths.h"
#include "core/scoped_temp_dir.h"
#include "support/build_paths.h"

namespace fs = std::filesystem;

namespace abicheck {
namespace {

class GitHubAction : public ::testing::Test {
 protected:
  ProcessResult run_action(const std::vector<std::string>& inputs) {
    std::vector<std::string> argv = {"python3",
                                     (project_root() / "checker/tests/ci/run_action_locally.py").string(),
                                     (project_root() / "ci/action.yml").string(),
                                     "--runner-temp",
                                     (work_.path() / "runner-temp").string(),
                                     "--input",
                                     "reports-dir=" + reports().string()};
    for (const auto& input : inputs) argv.insert(argv.end(), {"--input", input});
    std::string path = fs::path(TORCH_ABI_CHECK_CLI).parent_path().string() + ":" + std::getenv("PATH");
    return run_process({.argv = argv, .extra_env = {{"PATH", path}}, .timeout = std::chrono::minutes(10)});
  }
  fs::path reports() const { return work_.path() / "reports"; }

  ScopedTempDir work_{"github-action"};
};

TEST_F(GitHubAction, AProjectWithFindingsFailsTheJobAfterTheReportsAreWrittenAndUploaded) {
  auto result =
      run_action({"path=" + (fs::path(TORCH_ABI_CHECK_FIXTURES) / "check/target_typo").string(), "releases=2.15"});
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("using " + std::string(TORCH_ABI_CHECK_CLI)), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("output plan.needed=true"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("output run.exit-code=1"), std::string::npos) << result.output;
  // The uploads come before the verdict, so a failing job still has its report and SARIF.
  EXPECT_LT(result.output.find("step 'Upload SARIF to code scanning': skipped (uses github/codeql-action"),
            result.output.find("step 'Verdict': exit 1"))
      << result.output;
  auto document = nlohmann::json::parse(read_file_text(reports() / "report.json"));
  EXPECT_EQ(document.at("verdict").at("findings").size(), 1u) << "one typo, one finding: " << document.dump(2);
  EXPECT_TRUE(fs::exists(reports() / "report.html"));
  EXPECT_TRUE(fs::exists(reports() / "report.sarif"));
}

TEST_F(GitHubAction, AStableBinaryPassesWithoutAnyTorchRelease) {
  fs::path source = work_.path() / "probe.c";
  fs::path library = work_.path() / "libprobe.so";
  std::FILE* file = std::fopen(source.c_str(), "w");
  ASSERT_NE(file, nullptr);
  std::fputs(
      "extern int aoti_torch_get_device_type(void*, int*);\n"
      "int probe(void* tensor) { int device; return aoti_torch_get_device_type(tensor, &device); }\n",
      file);
  std::fclose(file);
  auto built = run_process({.argv = {"cc", "-shared", "-fPIC", "-o", library.string(), source.string()}});
  ASSERT_TRUE(built.succeeded()) << built.output;

  auto result = run_action({"path=" + library.string(), "target=2.9", "formats=json junit"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("output plan.needed=false"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("torch-abi-check: nothing found"), std::string::npos) << result.output;
  EXPECT_TRUE(fs::exists(reports() / "report.junit.xml"));
  EXPECT_FALSE(fs::exists(reports() / "report.html")) << "a format that was not asked for was written";
}

TEST_F(GitHubAction, AnUnknownReportFormatIsACouldNotRun) {
  auto result = run_action({"path=" + (fs::path(TORCH_ABI_CHECK_FIXTURES) / "check/target_typo").string(),
                            "releases=2.15", "formats=json pdf"});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("unknown report format 'pdf'"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace abicheck
