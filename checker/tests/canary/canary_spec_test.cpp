// The canary spec: the committed default and what a user's spec gets told when it is wrong.
#include "canary/canary_spec.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/tool_error.h"
#include "support/cli.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

class CanarySpecTest : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = fs::temp_directory_path() / ("canary-spec-" + std::to_string(getpid()));
    fs::create_directories(directory_);
  }
  void TearDown() override { fs::remove_all(directory_); }

  fs::path write(const std::string& text) {
    fs::path file = directory_ / "spec.toml";
    std::ofstream(file) << text;
    return file;
  }

  std::string error_of(const std::string& text) {
    try {
      load_canary_spec(write(text));
    } catch (const ToolError& error) {
      return error.what();
    }
    return "";
  }

  fs::path directory_;
};

TEST_F(CanarySpecTest, TheDefaultListsAtLeastEightPackagesEachWithWhy) {
  CanarySpec spec = load_canary_spec(default_canary_spec());
  EXPECT_GE(spec.packages.size(), 8U);
  for (const auto& package : spec.packages) {
    EXPECT_FALSE(package.why.empty()) << package.name;
    EXPECT_EQ(package.source, PackageSource::Index) << package.name << ": the default takes published wheels";
  }
}

TEST_F(CanarySpecTest, NamesComeFromTheRequirementAndRelativePathsFromTheSpecsFolder) {
  CanarySpec spec = load_canary_spec(
      write("[[package]]\nrequirement = \"xformers == 0.0.35\"\nwhy = \"w\"\n"
            "[[package]]\nwheel = \"w/torchvision-0.24.1-cp311-cp311-manylinux_2_28_x86_64.whl\"\nwhy = \"w\"\n"
            "[[package]]\ndirectory = \"pkgs/mine\"\nwhy = \"w\"\nsmoke_needs_gpu = true\n"));
  ASSERT_EQ(spec.packages.size(), 3U);
  EXPECT_EQ(spec.packages[0].name, "xformers==0.0.35");
  EXPECT_EQ(spec.packages[1].name, "torchvision-0.24.1");
  EXPECT_EQ(spec.packages[1].location,
            (directory_ / "w/torchvision-0.24.1-cp311-cp311-manylinux_2_28_x86_64.whl").string());
  EXPECT_EQ(spec.packages[2].name, "mine");
  EXPECT_TRUE(spec.packages[2].smoke_needs_gpu);
}

TEST_F(CanarySpecTest, MistakesAreOneLineNamingTheFile) {
  std::string file = (directory_ / "spec.toml").string();
  EXPECT_EQ(error_of("timeout_s = 3\n"), file + ": no [[package]] entries");
  EXPECT_EQ(error_of("[[package]]\nwhy = \"w\"\n"),
            file + ":1: a [[package]] needs exactly one of requirement, wheel or directory");
  EXPECT_EQ(error_of("[[package]]\nrequirement = \"a==1\"\n"),
            file + ":1: [[package]] a==1: 'why' is required (what this package proves)");
  EXPECT_EQ(error_of("[[package]]\nrequirement = \"a==1\"\nwhy = \"w\"\nsmok = \"x\"\n"),
            file +
                ":4: unknown key 'smok' in [[package]] (known: requirement, wheel, directory, why, smoke, "
                "smoke_needs_gpu, name, sha256)");
  EXPECT_EQ(error_of("[[package]]\nrequirement = \"a==1\"\nwhy = \"w\"\nsha256 = \"ABC\"\n"),
            file + ":1: [[package]] a==1: sha256 must be 64 lowercase hex digits");
  EXPECT_EQ(
      error_of("[[package]]\nrequirement = \"a==1\"\nwhy = \"w\"\n[[package]]\nrequirement = \"a==1\"\nwhy = \"w\"\n"),
      file + ":4: two packages named 'a==1' (give one a distinct `name`)");
  EXPECT_NE(error_of("[[package]\n").find(file + ":1: "), std::string::npos);
}

TEST_F(CanarySpecTest, TheCommandRefusesABadSpecWithExitTwoAndOneLine) {
  fs::path spec = write("[[package]]\nrequirement = \"a==1\"\n");
  ProcessResult run = testing::run_cli({"canary", "--spec", spec.string(), "--json", (directory_ / "r.json").string()});
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("'why' is required"), std::string::npos) << run.output;
  EXPECT_FALSE(fs::exists(directory_ / "r.json")) << "no partial report";
}

}  // namespace
}  // namespace abicheck
