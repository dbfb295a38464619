// Docker cannot run on the project's machines, so the Dockerfile is kept honest by structure: it
// must build the environment by running ci/setup.sh itself and install nothing on its own, so the
// two cannot drift apart.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "support/build_paths.h"

namespace abicheck {
namespace {

std::string read_project_file(const std::string& relative) {
  std::ifstream in(std::string(TORCH_ABI_CHECK_FIXTURES) + "/../" + relative);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(Dockerfile, BuildsOnACudaDevelImageThatSetupKnows) {
  std::string dockerfile = read_project_file("Dockerfile");
  std::smatch base;
  ASSERT_TRUE(std::regex_search(dockerfile, base,
                                std::regex(R"(^FROM\s+nvidia/cuda:[\w.]+-devel-(\w+?)\d)", std::regex::multiline)))
      << "the base image must be a CUDA toolkit (devel) image, so the CUDA kernels compile";
  std::string setup = read_project_file("ci/setup.sh");
  EXPECT_NE(setup.find("os-release"), std::string::npos) << "ci/setup.sh must read the distribution it runs on";
  EXPECT_NE(setup.find(base[1].str()), std::string::npos)
      << "ci/setup.sh does not handle the Dockerfile's distribution '" << base[1] << "'";
}

TEST(Dockerfile, RunsSetupAndBuildAndInstallsNothingItself) {
  std::string dockerfile = read_project_file("Dockerfile");
  EXPECT_TRUE(std::regex_search(dockerfile, std::regex(R"(^RUN\s.*bash ci/setup\.sh)", std::regex::multiline)));
  EXPECT_TRUE(std::regex_search(dockerfile, std::regex(R"(^RUN\s.*bash ci/build\.sh)", std::regex::multiline)));
  EXPECT_FALSE(std::regex_search(dockerfile, std::regex(R"(apt-get|apt install|pip install|dnf |yum )")))
      << "the Dockerfile installs packages of its own: put them in ci/setup.sh";
}

TEST(Readme, ItsTwoCommandsAreTheCiScripts) {
  std::string readme = read_project_file("README.md");
  EXPECT_NE(readme.find("    bash ci/main.sh\n"), std::string::npos);
  EXPECT_NE(readme.find("    bash ci/test.sh\n"), std::string::npos);
  EXPECT_NE(read_project_file(".ci/run").find("bash ci/test.sh"), std::string::npos)
      << ".ci/run must call the README's test command";
}

}  // namespace
}  // namespace abicheck
