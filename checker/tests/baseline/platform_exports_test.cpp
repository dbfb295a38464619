// `baseline --platform-wheel`: what a macOS or Windows torch wheel exports of the C shim, kept as
// exports.<platform>.json only where it differs from Linux's list (baseline/platform_exports.h).
// The wheels are built at test time from fixtures/audit/macho_pe/torch_cpu.c with clang-14 and lld;
// the expected results are in fixtures/baseline/platform_wheels/expected.json.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "core/atomic_file.h"
#include "core/file_text.h"
#include "core/process.h"
#include "core/scoped_temp_dir.h"
#include "support/build_paths.h"
#include "support/build_step.h"
#include "support/cli.h"

namespace abicheck::testing {
namespace {

using testing::run_build_step;

namespace fs = std::filesystem;

const fs::path kFixtures = fs::path(TORCH_ABI_CHECK_FIXTURES) / "baseline" / "platform_wheels";
const fs::path kLibrarySources = fs::path(TORCH_ABI_CHECK_FIXTURES) / "audit" / "macho_pe";

struct PlatformWheels {
  std::unique_ptr<ScopedTempDir> work;
  std::string failure;
  std::map<std::string, fs::path> by_platform;  // "macos" -> the wheel
};

PlatformWheels build_wheels() {
  PlatformWheels wheels;
  wheels.work = std::make_unique<ScopedTempDir>("platform-wheels");
  auto out = [&](const std::string& name) { return (wheels.work->path() / name).string(); };
  std::string source = (kLibrarySources / "torch_cpu.c").string();
  std::string& failure = wheels.failure;
  run_build_step({"clang-14", "--target=arm64-apple-macos11", "-c", source, "-o", out("torch_cpu.o")}, failure);
  run_build_step({"ld64.lld-14", "-arch", "arm64", "-platform_version", "macos", "11.0", "11.0", "-dylib",
                  "-install_name", "@rpath/libtorch_cpu.dylib", out("torch_cpu.o"), "-o", out("libtorch_cpu.dylib")},
                 failure);
  run_build_step({"clang-14", "--target=x86_64-pc-windows-msvc", "-c", source, "-o", out("torch_cpu.obj")}, failure);
  run_build_step(
      {"lld-link-14", "/dll", "/noentry", "/nodefaultlib", "/def:" + (kLibrarySources / "torch_cpu.def").string(),
       "/out:" + out("torch_cpu.dll"), out("torch_cpu.obj")},
      failure);
  const std::string pack =
      "import sys, zipfile\n"
      "with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as w:\n"
      "    w.write(sys.argv[2], sys.argv[3])\n"
      "    w.writestr('torch-2.15.0.dist-info/METADATA', 'Metadata-Version: 2.1\\nName: torch\\nVersion: 2.15.0\\n')\n";
  wheels.by_platform["macos"] = wheels.work->path() / "torch-2.15.0-cp312-none-macosx_11_0_arm64.whl";
  wheels.by_platform["windows"] = wheels.work->path() / "torch-2.15.0-cp312-cp312-win_amd64.whl";
  run_build_step({"python3", "-c", pack, wheels.by_platform["macos"].string(), out("libtorch_cpu.dylib"),
                  "torch/lib/libtorch_cpu.dylib"},
                 failure);
  run_build_step(
      {"python3", "-c", pack, wheels.by_platform["windows"].string(), out("torch_cpu.dll"), "torch/lib/torch_cpu.dll"},
      failure);
  return wheels;
}

class PlatformExportsBaseline : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { wheels_ = new PlatformWheels(build_wheels()); }
  static void TearDownTestSuite() {
    delete wheels_;
    wheels_ = nullptr;
  }
  void SetUp() override { ASSERT_TRUE(wheels_->failure.empty()) << wheels_->failure; }
  static PlatformWheels* wheels_;
};
PlatformWheels* PlatformExportsBaseline::wheels_ = nullptr;

TEST_F(PlatformExportsBaseline, WritesAListOnlyWhereThePlatformDiffersFromLinux) {
  nlohmann::json expected = nlohmann::json::parse(read_file_text(kFixtures / "expected.json"));
  for (const auto& [linux_list, platforms] : expected.items()) {
    for (const auto& [platform, libraries] : platforms.items()) {
      SCOPED_TRACE(linux_list + " / " + platform);
      ScopedTempDir out("platform-exports-out");
      fs::copy_file(kFixtures / linux_list / "exports.json", out.path() / "exports.json");
      ProcessResult result = run_cli(
          {"baseline", "--platform-wheel", wheels_->by_platform.at(platform).string(), "--out", out.path().string()});
      ASSERT_EQ(result.exit_code, 0) << result.output;
      fs::path written = out.path() / fmt::format("exports.{}.json", platform);
      if (libraries.is_null()) {
        EXPECT_FALSE(fs::exists(written)) << result.output;
        EXPECT_NE(result.output.find("the same 2 shims as Linux's"), std::string::npos) << result.output;
        continue;
      }
      ASSERT_TRUE(fs::exists(written)) << result.output;
      nlohmann::json document = nlohmann::json::parse(read_file_text(written));
      EXPECT_EQ(document["libraries"], libraries);
      EXPECT_EQ(document["platform"], platform);
      EXPECT_EQ(document["release"], "2.15");
      EXPECT_EQ(document["source"], wheels_->by_platform.at(platform).filename().string());
    }
  }
}

TEST_F(PlatformExportsBaseline, AListThatBecameTheSameIsRemoved) {
  ScopedTempDir out("platform-exports-stale");
  fs::copy_file(kFixtures / "linux" / "exports.json", out.path() / "exports.json");
  write_file_atomically(out.path() / "exports.macos.json", "{}");
  ProcessResult result = run_cli(
      {"baseline", "--platform-wheel", wheels_->by_platform.at("macos").string(), "--out", out.path().string()});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_FALSE(fs::exists(out.path() / "exports.macos.json"));
}

TEST_F(PlatformExportsBaseline, BadInputIsOneLineNamingTheWheelAndExitTwo) {
  ScopedTempDir out("platform-exports-bad");
  fs::path linux_wheel = out.path() / "torch-2.15.0-cp312-cp312-manylinux_2_28_x86_64.whl";
  fs::copy_file(wheels_->by_platform.at("macos"), linux_wheel);
  fs::path not_torch = out.path() / "torchvision-0.30.0-cp312-cp312-win_amd64.whl";
  fs::copy_file(wheels_->by_platform.at("windows"), not_torch);
  fs::path no_library = out.path() / "torch-2.15.0-cp312-cp312-win_amd64.whl";
  fs::copy_file(wheels_->by_platform.at("macos"), no_library);  // a Windows name, but the dylib inside
  fs::path no_linux_list = out.path() / "empty";
  fs::create_directories(no_linux_list);
  struct Case {
    fs::path wheel;
    fs::path out;
    std::string message;
  };
  const Case cases[] = {
      {linux_wheel, out.path(), "is neither macOS nor Windows"},
      {not_torch, out.path(), "a wheel of torchvision, not of torch"},
      {no_library, out.path(), "has no torch/lib/torch_cpu.dll"},
      {wheels_->by_platform.at("macos"), no_linux_list, "no Linux exports to compare with"},
  };
  for (const auto& [wheel, directory, message] : cases) {
    ProcessResult result = run_cli({"baseline", "--platform-wheel", wheel.string(), "--out", directory.string()});
    EXPECT_EQ(result.exit_code, 2) << result.output;
    EXPECT_NE(result.output.find(message), std::string::npos) << result.output;
    EXPECT_EQ(std::count(result.output.begin(), result.output.end(), '\n'), 1) << result.output;
  }
  ProcessResult neither = run_cli({"baseline"});
  EXPECT_EQ(neither.exit_code, 2) << neither.output;
  EXPECT_NE(neither.output.find("--torch or --platform-wheel"), std::string::npos) << neither.output;
}

}  // namespace
}  // namespace abicheck::testing
