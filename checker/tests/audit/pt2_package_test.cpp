// .pt2 packages the audit reads without a torch: what a package records of itself, and what keeps the
// audit from reading one whole (a finding with its cause, exit 1), apart from an input that is no
// package at all (exit 2). The packages AOTInductor really writes are audited in
// aoti/aoti_packages_test.cpp (store tier): these archives carry no compiled object on purpose.
#include <gtest/gtest.h>

#include <fstream>

#include "audit/audit_fixture_support.h"
#include "core/file_text.h"

namespace abicheck::testing {
namespace {

// A package of a format version no known loader reads, whose one model holds its generated C++ only.
std::vector<std::pair<std::string, std::string>> source_only_package() {
  return {{"model/archive_format", "pt2"},
          {"model/archive_version", "9"},
          {"model/data/aotinductor/model/cabc123.cpp", "// generated wrapper\n"},
          {"model/data/aotinductor/model/cabc123_metadata.json", R"({"AOTI_DEVICE_KEY": "cpu"})"}};
}

std::vector<std::string> finding_kinds(const nlohmann::json& document) {
  std::vector<std::string> kinds;
  for (const auto& finding : document["verdict"]["findings"]) kinds.push_back(finding["kind"].get<std::string>());
  return kinds;
}

TEST(Pt2PackageRead, AnUnknownFormatVersionAndAModelWithoutObjectsAreFindingsWithTheirCause) {
  auto package = audit_scratch_dir() / "source_only.pt2";
  write_zip(package, source_only_package());
  AuditRun run = run_audit_json({package.string()});
  EXPECT_EQ(run.exit_code, 1) << run.output;
  ASSERT_EQ(run.report["pt2_packages"].size(), 1u) << run.output;
  const auto& read = run.report["pt2_packages"][0];
  EXPECT_EQ(read["archive_format"], "pt2");
  EXPECT_EQ(read["archive_version"], "9");
  ASSERT_EQ(read["models"].size(), 1u);
  EXPECT_EQ(read["models"][0]["name"], "model");
  EXPECT_EQ(read["models"][0]["device"], "cpu");
  EXPECT_EQ(read["models"][0]["objects"].size(), 0u);
  ASSERT_EQ(read["problems"].size(), 2u) << read.dump(1);
  EXPECT_NE(read["problems"][0].get<std::string>().find("package format version 9"), std::string::npos);
  EXPECT_NE(read["problems"][1].get<std::string>().find("no compiled shared object"), std::string::npos);
  auto kinds = finding_kinds(run.document);
  EXPECT_EQ(std::count(kinds.begin(), kinds.end(), "pt2-not-fully-read"), 2) << run.output;
}

TEST(Pt2PackageRead, APackageInsideAWheelIsFoundAndNamedByTheWheel) {
  auto package = audit_scratch_dir() / "inner.pt2";
  write_zip(package, source_only_package());
  auto wheel = audit_scratch_dir() / "models-1.0-py3-none-any.whl";
  write_zip(wheel, {{"models/__init__.py", ""},
                    {"models/compiled/model.pt2", read_file_text(package)},
                    {"models-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: models\n"}});
  AuditRun run = run_audit_json({wheel.string()});
  EXPECT_EQ(run.exit_code, 1) << run.output;
  ASSERT_EQ(run.report["pt2_packages"].size(), 1u) << run.output;
  EXPECT_EQ(run.report["pt2_packages"][0]["path"], wheel.string() + "!models/compiled/model.pt2");
  EXPECT_EQ(run.report["errors"].size(), 0u) << run.output;
}

TEST(Pt2PackageRead, ANonArchiveIsBadInputNotAFinding) {
  auto package = audit_scratch_dir() / "not_a_zip.pt2";
  std::ofstream(package) << "no zip here";
  AuditRun run = run_audit_json({package.string()});
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("not a readable .pt2 package"), std::string::npos) << run.output;
}

}  // namespace
}  // namespace abicheck::testing
