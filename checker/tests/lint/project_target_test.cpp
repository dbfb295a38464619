// One precedence for a project's TORCH_TARGET_VERSION, shared by the lint (E006) and check.
#include "lint/extension/project_target.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

namespace abicheck {
namespace {

namespace fs = std::filesystem;

TargetDefinition definition(TargetDefinition::Origin origin, const std::string& value, int line) {
  return {{"/p/CMakeLists.txt", line, 1}, origin, value, std::nullopt};
}

using Origin = TargetDefinition::Origin;

TEST(ProjectTarget, TheOldestWrittenDownTargetIsWhatTheProjectPromises) {
  auto target = project_target({definition(Origin::BuildFile, "0x020E000000000000", 3),
                                definition(Origin::Source, "0x020D000000000000ULL", 9),
                                definition(Origin::CommandLine, "0x020A000000000000", 0)});
  ASSERT_TRUE(target);
  EXPECT_EQ(target->version, (TorchVersion{2, 13, 0}));
  EXPECT_EQ(target->definition.origin, Origin::Source);
}

TEST(ProjectTarget, CompileCommandsSpeakOnlyWhenNothingIsWrittenDown) {
  auto target = project_target({definition(Origin::CommandLine, "0x020C000000000000", 0),
                                definition(Origin::CommandLine, "0x020B000000000000", 0),
                                definition(Origin::Option, "0x020A000000000000", 0)});
  ASSERT_TRUE(target);
  EXPECT_EQ(target->version, (TorchVersion{2, 11, 0}));
  EXPECT_FALSE(project_target({definition(Origin::Option, "0x020A000000000000", 0)}));
}

TEST(ProjectTarget, ValuesAreLiteralsOrVersionsAndOthersAreSkipped) {
  EXPECT_EQ(target_version(definition(Origin::BuildFile, "2.12", 1)), (TorchVersion{2, 12, 0}));
  EXPECT_EQ(target_version(definition(Origin::BuildFile, "0x020B010000000000ULL", 1)), (TorchVersion{2, 11, 0}));
  EXPECT_FALSE(target_version(definition(Origin::BuildFile, "TARGET", 1)));
  auto target = project_target({definition(Origin::BuildFile, "TARGET", 1), definition(Origin::BuildFile, "2.14", 2)});
  ASSERT_TRUE(target);
  EXPECT_EQ(target->version, (TorchVersion{2, 14, 0}));
}

TEST(ProjectTarget, BeforeAnyParseTheBuildFilesAndTheSourcesDefinesAreRead) {
  fs::path project = fs::temp_directory_path() / ("project-target-test-" + std::to_string(getpid()));
  fs::create_directories(project / "src");
  std::ofstream(project / "CMakeLists.txt") << "add_compile_definitions(TORCH_TARGET_VERSION=0x020E000000000000)\n";
  std::ofstream(project / "src" / "ops.cpp") << "#define TORCH_TARGET_VERSION 0x020D000000000000ULL\nint x;\n";
  std::vector<TargetDefinition> definitions = target_definitions(find_extension_sources(project));
  fs::remove_all(project);
  ASSERT_EQ(definitions.size(), 2u) << "the build files' target is listed once, not once per source";
  auto target = project_target(definitions);
  ASSERT_TRUE(target);
  EXPECT_EQ(target->version, (TorchVersion{2, 13, 0}));
  EXPECT_EQ(target->definition.where.line, 1);
  EXPECT_EQ(target->definition.where.file.filename(), "ops.cpp");
}

}  // namespace
}  // namespace abicheck
