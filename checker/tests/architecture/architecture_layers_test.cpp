// The include check of checker/src (check_layers.py with the table layers.txt), the same one the
// configure and the build run: the checker's own tree passes it, and the fixture trees prove that it
// catches what it must.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/process.h"
#include "support/build_paths.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

const fs::path project = fs::path(TORCH_ABI_CHECK_FIXTURES).parent_path();
const fs::path fixtures = fs::path(TORCH_ABI_CHECK_FIXTURES) / "architecture";

ProcessResult check_layers(const fs::path& source_dir) {
  return run_process({.argv = {"python3", (project / "checker/src/check_layers.py").string(),
                               (project / "checker/src/layers.txt").string(), source_dir.string()},
                      .working_dir = project});
}

// One output line per `// expect: <verdict>` in the tree: `<file>:<line>: <the include> <verdict>`.
std::vector<std::string> expected_verdicts(const fs::path& tree) {
  std::vector<std::string> expected;
  for (const auto& entry : fs::recursive_directory_iterator(tree)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream source(entry.path());
    std::string line;
    for (int number = 1; std::getline(source, line); ++number) {
      const auto marker = line.find("// expect: ");
      if (marker == std::string::npos) continue;
      std::string include = line.substr(0, marker);
      include.erase(include.find_last_not_of(' ') + 1);
      expected.push_back(fs::relative(entry.path(), project).string() + ":" + std::to_string(number) + ": " + include +
                         " " + line.substr(marker + 11));
    }
  }
  return expected;
}

std::size_t line_count(const std::string& text) { return std::ranges::count(text, '\n'); }

TEST(ArchitectureLayers, CheckerSourcesIncludeOnlyLowerLayers) {
  const ProcessResult result = check_layers(project / "checker/src");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output, "");
}

TEST(ArchitectureLayers, AnIncludeThatPointsUpFailsWithFileLineAndRule) {
  const ProcessResult result = check_layers(fixtures / "upward");
  EXPECT_EQ(result.exit_code, 1) << result.output;
  const std::vector<std::string> expected = expected_verdicts(fixtures / "upward");
  ASSERT_EQ(expected.size(), 2u);
  for (const auto& verdict : expected) EXPECT_NE(result.output.find(verdict), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("core is the lowest layer and includes no other folder"), std::string::npos);
  EXPECT_EQ(line_count(result.output), expected.size()) << "the include down from report is allowed:\n"
                                                        << result.output;
}

TEST(ArchitectureLayers, FoldersOfOneRankNeverIncludeEachOther) {
  const ProcessResult result = check_layers(fixtures / "sideways");
  EXPECT_EQ(result.exit_code, 1) << result.output;
  const std::vector<std::string> expected = expected_verdicts(fixtures / "sideways");
  ASSERT_EQ(expected.size(), 1u);
  EXPECT_NE(result.output.find(expected.front()), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("lint may include only core, store, inventory, baseline"), std::string::npos);
  EXPECT_EQ(line_count(result.output), 1u) << result.output;
}

TEST(ArchitectureLayers, AFolderWithoutARankIsAToolError) {
  const ProcessResult result = check_layers(fixtures / "unranked");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_EQ(result.output,
            "check_layers: fixtures/architecture/unranked/fuzzing: not ranked in checker/src/layers.txt; give "
            "the folder its layer there\n");
}

}  // namespace
}  // namespace abicheck
