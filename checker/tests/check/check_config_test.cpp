// The [tool.torch-abi-check] table: what each key means and how a bad one is reported.
#include "check/check_config.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/tool_error.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

class CheckConfigFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("check-config-test-" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return dir_ / name;
  }
  fs::path dir_;
};

TEST_F(CheckConfigFile, PyprojectTableGivesTargetBuildSmokeAndTimeout) {
  write("pyproject.toml",
        "[project]\nname = \"x\"\n[tool.torch-abi-check]\ntarget = \"0x020D000000000000\"\n"
        "build = \"setuptools\"\nsmoke = \"python smoke.py\"\ntimeout_s = 30\n");
  CheckConfig config = load_check_config(dir_, std::nullopt);
  EXPECT_EQ(config.target, (TorchVersion{2, 13, 0}));
  EXPECT_EQ(config.build, ProjectBuildKind::Setuptools);
  EXPECT_EQ(config.smoke, (std::vector<std::string>{"/bin/sh", "-c", "python smoke.py"}));
  EXPECT_EQ(config.timeout_s, 30);
}

TEST_F(CheckConfigFile, ConfigFileSmokeListIsTheArgv) {
  fs::path file = write("check.toml", "smoke = [\"python\", \"-m\", \"pytest\"]\n");
  CheckConfig config = load_check_config(dir_, file);
  EXPECT_EQ(config.smoke, (std::vector<std::string>{"python", "-m", "pytest"}));
  EXPECT_FALSE(config.target);
}

TEST_F(CheckConfigFile, NoTableMeansDefaults) {
  write("pyproject.toml", "[project]\nname = \"x\"\n");
  CheckConfig config = load_check_config(dir_, std::nullopt);
  EXPECT_TRUE(config.file.empty());
  EXPECT_TRUE(config.smoke.empty());
}

TEST_F(CheckConfigFile, BadValuesNameTheFileAndKey) {
  fs::path file = write("check.toml", "target = \"two\"\n");
  try {
    load_check_config(dir_, file);
    FAIL() << "expected a ToolError";
  } catch (const ToolError& error) {
    EXPECT_EQ(std::string(error.what()), file.string() + ": 'target': 'two' is not a torch version");
  }
  EXPECT_THROW(load_check_config(dir_, write("b.toml", "timeout_s = -1\n")), ToolError);
  EXPECT_THROW(load_check_config(dir_, write("c.toml", "build = \"bazel\"\n")), ToolError);
  EXPECT_THROW(load_check_config(dir_, write("d.toml", "smoke = []\n")), ToolError);
  EXPECT_THROW(load_check_config(dir_, write("e.toml", "target = [\n")), ToolError);
}

}  // namespace
}  // namespace abicheck
