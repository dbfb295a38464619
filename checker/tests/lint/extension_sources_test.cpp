// What a project compiles, as find_extension_sources reads it from the project's build: the units
// and the flags of each, against the real torch of the store.
#include "lint/extension/extension_sources.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>

#include "core/tool_error.h"
#include "support/build_paths.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

const fs::path fixtures = fs::path(TORCH_ABI_CHECK_FIXTURES) / "check";

std::optional<StoredRelease> stored_torch() {
  ReleaseStore store(ReleaseStore::default_root());
  if (store.releases().empty()) return std::nullopt;
  return store.releases().back();
}

bool has_argument(const UnitToParse& unit, const std::string& argument) {
  return std::ranges::find(unit.arguments, argument) != unit.arguments.end();
}

TEST(ExtensionSources, SetupPyGivesTheSourcesAndMacrosOfItsExtensions) {
  auto torch = stored_torch();
  if (!torch) GTEST_SKIP() << "the torch store is empty";
  ExtensionSources sources = find_extension_sources(fixtures / "setuptools_legacy_sources", {.torch = torch});
  EXPECT_EQ(sources.units_origin, UnitsOrigin::BuildDescription) << sources.units_note;
  ASSERT_EQ(sources.units.size(), 1u) << sources.units_note;
  const UnitToParse& unit = sources.units.front();
  EXPECT_EQ(unit.source, fixtures / "setuptools_legacy_sources" / "csrc" / "ops.cpp");
  EXPECT_TRUE(has_argument(unit, "-DTORCH_TARGET_VERSION=0x020E000000000000"));
  EXPECT_TRUE(has_argument(unit, "-DTORCH_STABLE_ONLY"));
  EXPECT_TRUE(has_argument(unit, "-DTORCH_EXTENSION_NAME=_C")) << "BuildExtension defines it";
  ASSERT_EQ(unit.command_line_targets.size(), 1u);
  EXPECT_EQ(unit.command_line_targets.front().origin, TargetDefinition::Origin::CommandLine);
  // torch's include dirs of CppExtension are left out: the lint puts those of the build torch B.
  EXPECT_FALSE(std::ranges::any_of(unit.arguments, [](const std::string& a) { return a.ends_with("torch/include"); }));
}

TEST(ExtensionSources, CMakeGivesItsCompileCommands) {
  auto torch = stored_torch();
  if (!torch) GTEST_SKIP() << "the torch store is empty";
  ExtensionSources sources = find_extension_sources(fixtures / "cmake_legacy_sources", {.torch = torch});
  EXPECT_EQ(sources.units_origin, UnitsOrigin::BuildDescription) << sources.units_note;
  ASSERT_EQ(sources.units.size(), 1u) << sources.units_note;
  EXPECT_EQ(sources.units.front().source, fixtures / "cmake_legacy_sources" / "src" / "ops.cpp");
  EXPECT_TRUE(has_argument(sources.units.front(), "-DTORCH_TARGET_VERSION=0x020E000000000000"));
}

// Without a torch to run the build with, the folder is all there is, and the note says why.
TEST(ExtensionSources, WithoutTorchTheSourceTreeIsReadAndTheNoteSaysWhy) {
  ExtensionSources sources = find_extension_sources(fixtures / "cmake_legacy_sources");
  EXPECT_EQ(sources.units_origin, UnitsOrigin::SourceTree);
  EXPECT_EQ(sources.units.size(), 2u);
  EXPECT_NE(sources.units_note.find("there is no stored torch release to run its cmake build with"), std::string::npos)
      << sources.units_note;
}

TEST(ExtensionSources, PyprojectBackendChoosesTheBuild) {
  const fs::path project = fs::temp_directory_path() / ("build-kind-" + std::to_string(::getpid()));
  fs::create_directories(project);
  std::ofstream(project / "CMakeLists.txt") << "project(x)\n";
  std::ofstream(project / "setup.py") << "\n";
  EXPECT_EQ(find_project_build_kind(project), ProjectBuildKind::Setuptools)
      << "without a backend, setup.py: pip builds such a project with it, even beside a CMakeLists.txt";
  fs::rename(project / "setup.py", project / "setup.py.off");
  EXPECT_EQ(find_project_build_kind(project), ProjectBuildKind::CMake) << "CMakeLists.txt alone";
  fs::rename(project / "setup.py.off", project / "setup.py");
  std::ofstream(project / "pyproject.toml") << "[build-system]\nbuild-backend = \"setuptools.build_meta\"\n";
  EXPECT_EQ(find_project_build_kind(project), ProjectBuildKind::Setuptools);
  std::ofstream(project / "pyproject.toml") << "[build-system]\nbuild-backend = \"scikit_build_core.build\"\n";
  EXPECT_EQ(find_project_build_kind(project), ProjectBuildKind::CMake);
  std::ofstream(project / "pyproject.toml") << "[build-system\n";
  EXPECT_THROW(find_project_build_kind(project), ToolError);
  fs::remove_all(project);
}

}  // namespace
}  // namespace abicheck
