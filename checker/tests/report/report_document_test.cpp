// The report document: the verdict it carries round-trips, documents merge section by section, and
// anything that is not a versioned document is refused with one line naming the file.
#include "report/report_document.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/tool_error.h"
#include "report/report_formats.h"

namespace abicheck {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

Judgement one_finding(const std::string& stage) {
  return {{{.stage = stage, .kind = "k", .where = "w", .message = "m", .file = "a.cpp", .line = 3, .column = 2}},
          {stage + ": 1 finding"}};
}

TEST(ReportDocument, CarriesTheJudgementAndItsExitCode) {
  json document = new_report_document("audit", "t", one_finding("audit"));
  EXPECT_EQ(document["schema_version"], kReportSchemaVersion);
  EXPECT_EQ(document["command"], "audit");
  EXPECT_EQ(document["verdict"]["exit_code"], 1);
  Judgement back = judgement_of(json::parse(document.dump()));
  ASSERT_EQ(back.findings.size(), 1u);
  EXPECT_EQ(back.findings[0].file, "a.cpp");
  EXPECT_EQ(back.findings[0].line, 3);
  EXPECT_EQ(back.lines, std::vector<std::string>{"audit: 1 finding"});
  EXPECT_EQ(back.exit_code(), ExitCode::Findings);

  Judgement warning_only{{{.stage = "lint", .kind = "E007", .severity = FindingSeverity::Warning}}, {}};
  EXPECT_EQ(new_report_document("lint", "t", warning_only)["verdict"]["exit_code"], 0);
}

// What each error finding says happens to an extension, counted in the verdict and kept on the way back.
TEST(ReportDocument, CountsTheErrorFindingsByTheirConsequence) {
  Judgement judgement{{{.stage = "lint", .kind = "E003", .consequence = Consequence::DoesNotCompile},
                       {.stage = "lint", .kind = "E003", .consequence = Consequence::DoesNotLoad},
                       {.stage = "diff", .kind = "overload-removed", .consequence = Consequence::FailsAtCallTime},
                       {.stage = "diff", .kind = "overload-removed", .consequence = Consequence::FailsAtCallTime},
                       {.stage = "audit", .kind = "unstable"},
                       {.stage = "lint",
                        .kind = "H001",
                        .severity = FindingSeverity::Warning,
                        .consequence = Consequence::DoesNotLoad}},
                      {}};
  json document = new_report_document("report", "t", judgement);
  EXPECT_EQ(document["verdict"]["consequences"],
            json::parse(R"({"does-not-compile": 1, "does-not-load": 1, "fails-at-call-time": 2, "unstated": 1})"))
      << "error findings only";
  EXPECT_EQ(document["verdict"]["findings"][2]["consequence"], "fails-at-call-time");
  EXPECT_FALSE(document["verdict"]["findings"][4].contains("consequence"));
  Judgement back = judgement_of(json::parse(document.dump()));
  EXPECT_EQ(back.findings[1].consequence, Consequence::DoesNotLoad);
  EXPECT_EQ(back.findings[4].consequence, Consequence::Unstated);
  EXPECT_NE(render_report_markdown(document).find(
                "errors by consequence: 1 do not compile, 1 do not load, 2 fail at call time, 1 state none"),
            std::string::npos);
}

TEST(ReportDocument, MergeJoinsSectionsAndVerdictsAndOrdersDiffsOldestFirst) {
  json lint = new_report_document("lint headers", "", one_finding("lint"));
  lint["lint"] = {{"diagnostics", json::array()}};
  json newer = new_report_document("diff", "", Judgement{{}, {"diff 2.10 -> 2.11"}});
  newer["diffs"] = {{{"old", "2.10"}, {"new", "2.11"}, {"changes", json::array()}}};
  json older = new_report_document("diff", "", Judgement{{}, {"diff 2.9 -> 2.10"}});
  older["diffs"] = {{{"old", "2.9"}, {"new", "2.10"}, {"changes", json::array()}}};

  json merged = merge_report_documents({lint, newer, older}, {"lint.json", "b.json", "a.json"}, "all");
  EXPECT_EQ(merged["command"], "report");
  EXPECT_EQ(merged["title"], "all");
  EXPECT_TRUE(merged.contains("lint"));
  ASSERT_EQ(merged["diffs"].size(), 2u);
  EXPECT_EQ(merged["diffs"][0]["old"], "2.9");
  EXPECT_EQ(merged["verdict"]["exit_code"], 1);
  EXPECT_EQ(merged["verdict"]["lines"].size(), 3u);

  EXPECT_THROW(merge_report_documents({lint, lint}, {"one.json", "two.json"}, ""), ToolError);
}

void expect_document_refused(const std::string& content, const std::string& problem) {
  fs::path file =
      fs::temp_directory_path() /
      ("report-document-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + ".json");
  std::ofstream(file) << content;
  try {
    read_report_document(file);
    ADD_FAILURE() << "accepted: " << content;
  } catch (const ToolError& error) {
    EXPECT_EQ(std::string(error.what()), file.string() + ": " + problem);
  }
  fs::remove(file);
}

TEST(ReportDocument, ReadRefusesWhatIsNotAVersionedDocument) {
  expect_document_refused("{\"cells\": [", "not valid JSON (byte 12)");
  expect_document_refused("{\"cells\": []}",
                          "not a torch-abi-check report (no schema_version; write it with a command's --json)");
  expect_document_refused(
      "{\"schema_version\": 99, \"verdict\": {}}",
      fmt::format("schema_version 99 is not the one this torch-abi-check reads ({})", kReportSchemaVersion));
  // Older documents are refused too: schema 1 lacks the audit's device runtime, 2 the matrix's
  // failure kinds and shim coverage, the diff's operator changes and the canary, 3 the operators a
  // binary calls through the dispatcher, 4 the matrix coverage's shims not applicable here, 5 a
  // wheel's min_torch_to_load, 6 the verdict's explanation of each kind of finding, the diff's
  // header-removed and parameters-swapped, the audit's .pt2 packages and
  // the aoti section, 7 the canary's environment cells, its shard and its loads-level agreement, 8 the
  // aoti cells' loader (Python or C++), a package's reference extension, and the diff's
  // method-removed and method-guard-lowered (the C++ methods of the stable headers), 9 the diff's
  // method-overload-replaced, 10 the diff's guard-corrected, 11 the findings' consequences, 12 their
  // counts in the verdict, 13 a finding's notes, 14 the diff's conversion-changed, -removed and -added and
  // wrapper-exported.
  for (int old_version : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}) {
    expect_document_refused(fmt::format("{{\"schema_version\": {}, \"verdict\": {{}}}}", old_version),
                            fmt::format("schema_version {} is not the one this torch-abi-check reads ({})", old_version,
                                        kReportSchemaVersion));
  }
  expect_document_refused(
      fmt::format("{{\"schema_version\": {}, \"verdict\": {{\"lines\": 3}}}}", kReportSchemaVersion),
      "its verdict is malformed (see docs/schemas/report.schema.json)");
}

}  // namespace
}  // namespace abicheck
