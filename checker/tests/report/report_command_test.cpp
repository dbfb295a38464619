// `torch-abi-check report` on bad input: one error line naming the file, exit 2, no report written.

#include <gtest/gtest.h>

#include <filesystem>

#include "support/build_paths.h"
#include "support/cli.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

void expect_command_refused(const std::string& fixture, const std::string& problem) {
  fs::path input = fs::path(TORCH_ABI_CHECK_FIXTURES) / "report" / fixture;
  fs::path html = fs::temp_directory_path() / ("report-command-test-" + fixture + ".html");
  fs::remove(html);
  ProcessResult result = testing::run_cli({"report", input.string(), "--html", html.string()});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_EQ(result.output, "torch-abi-check: error: " + input.string() + ": " + problem + "\n");
  EXPECT_FALSE(fs::exists(html));
}

TEST(ReportCommand, TruncatedJsonIsOneErrorLineAndNoFile) {
  expect_command_refused("truncated.json", "not valid JSON (byte 48)");
}

TEST(ReportCommand, JsonOfAnotherCommandIsOneErrorLineAndNoFile) {
  expect_command_refused("unknown-shape.json",
                         "not a torch-abi-check report (no schema_version; write it with a command's --json)");
}

}  // namespace
}  // namespace abicheck
