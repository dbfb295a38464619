// A .pt2 that no loader could load is bad input for the commands that load packages (aoti, check): one
// line naming the file and the problem, exit 2, before any runner is built or release started (a
// truncated package used to run the loaders of every release for minutes and report load-failed cells).
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#include "audit/audit_fixture_support.h"
#include "support/cli.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

struct Unloadable {
  std::string name;
  std::string problem;  // what the one line must say
};

// Each kind of unloadable package, written into the scratch folder.
std::vector<std::pair<fs::path, Unloadable>> unloadable_packages() {
  const fs::path scratch = testing::audit_scratch_dir();
  std::vector<std::pair<fs::path, Unloadable>> packages;
  const fs::path truncated = scratch / "truncated.pt2";
  std::ofstream(truncated, std::ios::binary) << std::string("PK\x03\x04", 4) << std::string(200, '\x7f');
  packages.push_back({truncated, {"truncated", "not a readable .pt2 package"}});
  const fs::path no_model = scratch / "no_model.pt2";
  testing::write_zip(no_model, {{"model/archive_format", "pt2"}, {"model/archive_version", "0"}});
  packages.push_back({no_model, {"no model", "holds no AOTInductor model"}});
  packages.push_back({scratch / "absent.pt2", {"absent", "no such file or directory"}});
  return packages;
}

TEST(UnloadablePackage, IsOneLineAndExitTwoAtOnceForEveryCommandThatLoadsPackages) {
  for (const auto& [package, what] : unloadable_packages()) {
    for (const std::vector<std::string>& command :
         {std::vector<std::string>{"aoti", package.string()}, std::vector<std::string>{"check", package.string()}}) {
      const auto started = std::chrono::steady_clock::now();
      ProcessResult run = testing::run_cli(command);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      SCOPED_TRACE(command.front() + " of a package that is " + what.name);
      EXPECT_EQ(run.exit_code, 2) << run.output;
      EXPECT_EQ(std::ranges::count(run.output, '\n'), 1) << run.output;
      EXPECT_NE(run.output.find(package.string()), std::string::npos) << run.output;
      EXPECT_NE(run.output.find(what.problem), std::string::npos) << run.output;
      EXPECT_LT(seconds, 10.0) << "refused before any loader ran";
    }
  }
}

}  // namespace
}  // namespace abicheck
