// Wheels and installed packages built from the fixture extensions: the declared target comes from
// Requires-Dist, verdicts roll up per wheel, and an installed package reads its dist-info.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "audit/audit_fixture_support.h"
#include "audit/wheel_reader.h"
#include "core/file_text.h"

namespace abicheck::testing {
namespace {

std::optional<std::filesystem::path> fixture_object(const std::string& name, std::string& why) {
  for (const auto& fixture : extension_fixtures()) {
    if (fixture.name == name) return build_extension_fixture(fixture, why);
  }
  why = "no fixture " + name;
  return std::nullopt;
}

const nlohmann::json* binary_named(const nlohmann::json& report, const std::string& suffix) {
  for (const auto& binary : report["binaries"]) {
    if (binary["path"].get<std::string>().ends_with(suffix)) return &binary;
  }
  return nullptr;
}

TEST(WheelAudit, RequiresDistIsTheDeclaredTargetAndTheWheelTakesItsWorstObject) {
  std::string why;
  auto needs_2_12 = fixture_object("target_2_12", why);
  auto dlsym_object = fixture_object("dlsym_newer_shim", why);
  if (!needs_2_12 || !dlsym_object) GTEST_SKIP() << why;
  auto wheel = audit_scratch_dir() / "fixturepkg-1.0-cp39-abi3-manylinux_2_28_x86_64.whl";
  write_zip(wheel, {{"fixturepkg/_tags.so", read_file_text(*needs_2_12)},
                    {"fixturepkg/_ops.so", read_file_text(*dlsym_object)},
                    {"fixturepkg/__init__.py", ""},
                    {"fixturepkg-1.0.dist-info/METADATA",
                     "Metadata-Version: 2.1\nName: fixturepkg\nRequires-Dist: torch (>=2.10)\n"
                     "Requires-Dist: pytest ; extra == \"test\"\n"},
                    {"fixturepkg-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\nTag: cp39-abi3-manylinux_2_28_x86_64\n"}});
  AuditRun run = run_audit_json({wheel.string()});
  EXPECT_EQ(run.exit_code, 1) << run.output;
  ASSERT_EQ(run.report["wheels"].size(), 1u) << run.output;
  const auto& wheel_report = run.report["wheels"][0];
  EXPECT_EQ(wheel_report["verdict"], "needs-newer-torch");
  EXPECT_EQ(wheel_report["declared_target"], "2.10");
  // The dlsym use (2.13) is optional, not a minimum: the wheel's is its 2.12 object's.
  EXPECT_EQ(wheel_report["min_torch"], "2.12");
  EXPECT_EQ(wheel_report["abi3"], true);
  EXPECT_EQ(wheel_report["objects"], 2);
  const nlohmann::json* tags = binary_named(run.report, "!fixturepkg/_tags.so");
  ASSERT_NE(tags, nullptr) << run.output;
  EXPECT_EQ((*tags)["verdict"], "needs-newer-torch");
  // Its own marker says 2.12; the stricter Requires-Dist bound (2.10) is what it must load on.
  EXPECT_EQ((*tags)["declared_target"], "2.10");
  const nlohmann::json* ops = binary_named(run.report, "!fixturepkg/_ops.so");
  ASSERT_NE(ops, nullptr) << run.output;
  EXPECT_EQ((*ops)["verdict"], "stable");
}

TEST(WheelAudit, InstalledPackageDirectoryReadsItsDistInfo) {
  std::string why;
  auto needs_2_12 = fixture_object("target_2_12", why);
  if (!needs_2_12) GTEST_SKIP() << why;
  auto site_packages = audit_scratch_dir() / "site-packages";
  std::filesystem::remove_all(site_packages);
  std::filesystem::create_directories(site_packages / "fixture_pkg" / "lib");
  std::filesystem::create_directories(site_packages / "fixture_pkg-1.0.dist-info");
  std::filesystem::copy_file(*needs_2_12, site_packages / "fixture_pkg" / "lib" / "_C.so");
  std::ofstream(site_packages / "fixture_pkg" / "__init__.py") << "";
  std::ofstream(site_packages / "fixture_pkg-1.0.dist-info" / "METADATA")
      << "Name: fixture-pkg\nRequires-Dist: torch>=2.12\n";
  AuditRun run = run_audit_json({(site_packages / "fixture_pkg").string()});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  ASSERT_EQ(run.report["binaries"].size(), 1u) << run.output;
  EXPECT_EQ(run.report["binaries"][0]["declared_target"], "2.12");
  EXPECT_EQ(run.report["binaries"][0]["verdict"], "stable");
}

TEST(WheelRequirement, LowerBoundOfTheCommonSpellings) {
  EXPECT_EQ(torch_lower_bound_of_requirement("torch>=2.10"), (TorchVersion{2, 10, 0}));
  EXPECT_EQ(torch_lower_bound_of_requirement("torch (>=2.9.1,<3)"), (TorchVersion{2, 9, 1}));
  EXPECT_EQ(torch_lower_bound_of_requirement("torch==2.11.*"), (TorchVersion{2, 11, 0}));
  EXPECT_EQ(torch_lower_bound_of_requirement("Torch~=2.12.0+cu128"), (TorchVersion{2, 12, 0}));
  EXPECT_EQ(torch_lower_bound_of_requirement("torch<3"), std::nullopt);
  EXPECT_EQ(torch_lower_bound_of_requirement("torchvision>=0.24"), std::nullopt);
}

}  // namespace
}  // namespace abicheck::testing
