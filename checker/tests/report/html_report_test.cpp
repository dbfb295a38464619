#include "report/html_report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/tool_error.h"
#include "report/aoti_render.h"
#include "report/report_document.h"

namespace abicheck {
namespace {

using json = nlohmann::json;

// A report document holding these sections, with a verdict of these findings.
json report_of(const json& sections, std::vector<Finding> findings = {}, std::vector<std::string> lines = {}) {
  json document = new_report_document("test", "", Judgement{std::move(findings), std::move(lines)});
  for (const auto& [key, value] : sections.items()) document[key] = value;
  return document;
}

json cell(const std::string& build, const std::string& target, const std::string& runtime, const std::string& outcome,
          const std::string& log = "") {
  return {{"suite", "abiref"},  {"backend", "cpu"},   {"build", build}, {"target", target},  {"runtime", runtime},
          {"expected", "pass"}, {"outcome", outcome}, {"reason", ""},   {"duration_s", 1.5}, {"log", log}};
}

std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
}

std::string embedded_data(const std::string& html) {
  const std::string open = R"(<script type="application/json" id="report-data">)";
  auto begin = html.find(open);
  EXPECT_NE(begin, std::string::npos);
  begin += open.size();
  return html.substr(begin, html.find("</script>", begin) - begin);
}

TEST(HtmlReport, GridHasOneCellPerMatrixCellWithItsOutcomeClass) {
  json document = report_of({{"matrix",
                              {{"cells",
                                {cell("2.9", "2.9", "2.10", "pass"), cell("2.9", "2.9", "2.9", "pass"),
                                 cell("2.10", "2.10", "2.9", "expected-fail"),
                                 cell("2.10", "2.10", "2.10", "crash", "Segmentation fault")}}}}},
                            {{.stage = "matrix", .kind = "crash", .where = "abiref cpu B2.10 T2.10 R2.10"}});
  std::string html = render_html_report(document);
  EXPECT_EQ(occurrences(html, R"(class="cell outcome-)"), 4u);
  EXPECT_EQ(occurrences(html, R"(class="cell outcome-pass")"), 2u);
  EXPECT_EQ(occurrences(html, R"(class="cell outcome-crash")"), 1u);
  // Versions sort as numbers: runtime 2.9 is the first column and build 2.9 the first row.
  EXPECT_LT(html.find("<th>runtime 2.9</th>"), html.find("<th>runtime 2.10</th>"));
  EXPECT_LT(html.find("<th>2.9 / 2.9</th>"), html.find("<th>2.10 / 2.10</th>"));
  // Each cell links to its log.
  EXPECT_NE(html.find(R"(<a href="#log-3">CRASH</a>)"), std::string::npos);
  EXPECT_NE(html.find(R"(id="log-3")"), std::string::npos);
  EXPECT_NE(html.find("Segmentation fault"), std::string::npos);
  EXPECT_NE(html.find(R"(<p id="verdict" class="verdict verdict-findings">Findings in matrix</p>)"), std::string::npos);
}

TEST(HtmlReport, CellLogListsTheOpTestsThatDidNotPass) {
  json failing = cell("2.9", "2.9", "2.15", "unexpected-fail");
  failing["ops"] = {{{"test", "test_amax[float]"}, {"outcome", "passed"}, {"message", ""}},
                    {{"test", "test_pad[half]"}, {"outcome", "failed"}, {"message", "mismatch at 3"}}};
  std::string html = render_html_report(report_of({{"matrix", {{"cells", {failing}}}}}));
  EXPECT_NE(html.find("<p>op tests: 1 failed, 1 passed</p>"), std::string::npos);
  EXPECT_NE(html.find("<li><code>test_pad[half]</code> failed: mismatch at 3</li>"), std::string::npos);
  EXPECT_EQ(html.find("<code>test_amax[float]</code>"), std::string::npos);
}

TEST(HtmlReport, LogCannotBreakOutOfTheEmbeddedJsonOrTheMarkup) {
  std::string hostile = "</script><script>alert(1)</script><b>&";
  json document = report_of({{"matrix", {{"cells", {cell("2.9", "2.9", "2.9", "unexpected-fail", hostile)}}}}},
                            {{.stage = "matrix", .kind = "unexpected-fail", .where = hostile, .message = hostile}});
  std::string html = render_html_report(document);
  EXPECT_EQ(html.find("<script>alert(1)"), std::string::npos);
  EXPECT_EQ(json::parse(embedded_data(html)), document);
}

TEST(HtmlReport, InvalidUtf8InALogIsReplacedNotFatal) {
  json document = report_of({{"matrix", {{"cells", {cell("2.9", "2.9", "2.9", "pass", "bad byte \xff here")}}}}});
  std::string html;
  EXPECT_NO_THROW(html = render_html_report(document));
  EXPECT_NO_THROW(json::parse(embedded_data(html)));
}

TEST(HtmlReport, RendersOnlyTheSectionsTheDocumentHas) {
  json document = report_of({{"lint",
                              {{"diagnostics",
                                {{{"rule", "E001"},
                                  {"severity", "error"},
                                  {"file", "src/op.cpp"},
                                  {"line", 3},
                                  {"column", 1},
                                  {"message", "no TORCH_TARGET_VERSION"}}}}}}});
  std::string html = render_html_report(document);
  EXPECT_NE(html.find(R"(<section id="lint">)"), std::string::npos);
  EXPECT_NE(html.find("<code>src/op.cpp:3:1</code>"), std::string::npos);
  EXPECT_EQ(html.find(R"(<section id="matrix">)"), std::string::npos);
  EXPECT_EQ(html.find(R"(<section id="diff">)"), std::string::npos);
  EXPECT_EQ(html.find(R"(<section id="audit">)"), std::string::npos);
}

// The aoti section's grid: a cell per package and release, coloured as the matrix's, the audit's
// prediction in brackets where nothing was loaded, each cell opening the loader's words and the cause.
TEST(HtmlReport, AotiGridHasACellPerPackageAndReleaseWithWhatHappened) {
  AotiResult result;
  result.releases = {TorchVersion::parse("2.9.1"), TorchVersion::parse("2.10.0")};
  result.packages.push_back({.model = "wide_ops",
                             .build = TorchVersion::parse("2.10.0"),
                             .file = "wide_ops.pt2",
                             .shims = {"aoti_torch_cpu_sort", "aoti_torch_empty_strided"},
                             .predicted_loads = {false, true},
                             .predicted_why = {"needs aoti_torch_cpu_sort (2.10)", ""}});
  AotiCell loaded{.package = 0, .runtime = 1, .ran = true};
  loaded.observed = {.outcome = AotiOutcome::LoadFailed,
                     .detail = "AttributeError: no attribute 'codecache'",
                     .cause = "the loader uses a module it never imports",
                     .workaround = "import torch._inductor.codecache first",
                     .workaround_verified = true};
  result.cells = {{.package = 0, .runtime = 0}, loaded};
  std::string html = render_html_report(report_of({{"aoti", aoti_section(result)}}));
  EXPECT_NE(html.find(R"(<section id="aoti">)"), std::string::npos);
  EXPECT_NE(html.find(R"(<a href="#aoti">aoti</a>)"), std::string::npos) << "in the page's navigation";
  EXPECT_EQ(occurrences(html, R"(<td class="cell )"), 2u);
  EXPECT_NE(html.find(R"(<td class="cell outcome-not-run"><a href="#aoti-0">(no load)</a>)"), std::string::npos);
  EXPECT_NE(html.find(R"(<td class="cell outcome-unexpected-fail"><a href="#aoti-1">load-failed</a>)"),
            std::string::npos);
  EXPECT_NE(html.find("the audit predicts: needs aoti_torch_cpu_sort (2.10)"), std::string::npos);
  EXPECT_NE(html.find("cause: the loader uses a module it never imports"), std::string::npos);
  EXPECT_NE(html.find("workaround (verified): import torch._inductor.codecache first"), std::string::npos);
  EXPECT_NE(html.find("imports 2 distinct shims, 1 of them"), std::string::npos);
}

// A package loaded by both loaders has a row per loader, each labelled; its cells in their own row.
TEST(HtmlReport, AotiGridHasARowPerLoaderWhereTheCppLoaderRanToo) {
  AotiResult result;
  result.releases = {TorchVersion::parse("2.10.0")};
  result.packages.push_back({.model = "custom_op", .build = TorchVersion::parse("2.10.0"), .file = "custom_op.pt2"});
  AotiCell python{.package = 0, .runtime = 0, .ran = true};
  python.observed = {.outcome = AotiOutcome::LoadFailed, .detail = "AttributeError: no attribute 'codecache'"};
  AotiCell cpp{.package = 0, .runtime = 0, .loader = AotiLoader::Cpp, .ran = true};
  result.cells = {python, cpp};
  const json section = aoti_section(result);
  EXPECT_EQ(section["packages"][0]["cells"][1]["loader"], "cpp");
  std::string html = render_html_report(report_of({{"aoti", section}}));
  EXPECT_NE(
      html.find(
          R"(<tr><th>custom_op@2.10.0 (Python loader)</th><td class="cell outcome-unexpected-fail"><a href="#aoti-0">load-failed</a></td></tr>)"),
      std::string::npos)
      << html;
  EXPECT_NE(
      html.find(
          R"(<tr><th>custom_op@2.10.0 (C++ loader)</th><td class="cell outcome-pass"><a href="#aoti-1">matches</a></td></tr>)"),
      std::string::npos)
      << html;
}

TEST(HtmlReport, DiffAndAuditTablesMarkTheirFindings) {
  json document = report_of({{"diffs",
                              {{{"changes",
                                 {{{"name", "torch_from_blob"},
                                   {"kind", "function"},
                                   {"verdict", "breaking"},
                                   {"detail", "parameter 7 changed"}}}}}}},
                             {"audit",
                              {{"binaries",
                                {{{"path", "lib/ext.so"},
                                  {"verdict", "unstable"},
                                  {"min_torch", nullptr},
                                  {"declared_target", "2.10"},
                                  {"unstable_symbols", {{{"name", "_ZN3c10"}, {"demangled", "c10::foo()"}}}}}}}}}});
  std::string html = render_html_report(document);
  EXPECT_NE(html.find(R"(<td class="finding">breaking</td>)"), std::string::npos);
  EXPECT_NE(html.find(R"(<td class="finding">unstable</td>)"), std::string::npos);
  EXPECT_NE(html.find("<code>c10::foo()</code>"), std::string::npos);
}

TEST(HtmlReport, IsSelfContained) {
  json document = report_of({{"matrix", {{"cells", {cell("2.9", "2.9", "2.9", "pass")}}}}});
  std::string html = render_html_report(document);
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
}

TEST(HtmlReport, ShowsTheVerdictTheStagesWroteAndJudgesNothingItself) {
  // A breaking change in the diff section, but no finding in the verdict: the page says no finding.
  json unjudged =
      report_of({{"diffs", {{{"changes", {{{"name", "f"}, {"verdict", "breaking"}}}}}}}}, {}, {"diff: judged clean"});
  std::string html = render_html_report(unjudged);
  EXPECT_NE(html.find(R"(<p id="verdict" class="verdict verdict-clean">No finding</p>)"), std::string::npos);
  EXPECT_NE(html.find("<li>diff: judged clean</li>"), std::string::npos);
  // A warning is shown but is no finding; an error names its stage.
  json judged = report_of(
      json::object(), {{.stage = "lint", .kind = "E007", .severity = FindingSeverity::Warning, .where = "a.cpp:1:1"},
                       {.stage = "audit", .kind = "stale-suppression", .where = "allowlist line 3"}});
  html = render_html_report(judged);
  EXPECT_NE(html.find(R"(<p id="verdict" class="verdict verdict-findings">Findings in audit</p>)"), std::string::npos);
  EXPECT_NE(html.find(R"(<section id="findings">)"), std::string::npos);
  EXPECT_NE(html.find("<code>allowlist line 3</code>"), std::string::npos);
}

json diff_output(const std::string& from, const std::string& to, json changes) {
  return {{"old", from}, {"new", to}, {"changes", std::move(changes)}};
}

TEST(HtmlReport, DiffsOfSeveralReleasePairsShowOldestFirst) {
  json document = report_of(
      {{"diffs",
        {diff_output("2.9", "2.10", {{{"name", "f"}, {"kind", "added-without-guard"}, {"verdict", "breaking"}}}),
         diff_output("2.10", "2.11", json::array())}}});
  std::string html = render_html_report(document);
  auto first = html.find("<h3>2.9 -&gt; 2.10</h3>");
  auto second = html.find("<h3>2.10 -&gt; 2.11</h3>");
  ASSERT_NE(first, std::string::npos);
  ASSERT_NE(second, std::string::npos);
  EXPECT_LT(first, second);
}

TEST(HtmlReport, SuppressedBreakingChangeIsNoFinding) {
  json document = report_of({{"diffs",
                              {diff_output("2.10", "2.11",
                                           {{{"name", "torch_from_blob"},
                                             {"kind", "signature-changed"},
                                             {"verdict", "breaking"},
                                             {"suppressed", "never shipped"}}})}}});
  EXPECT_NE(render_html_report(document).find("[suppressed: never shipped]"), std::string::npos);
}

TEST(HtmlReport, OpensOnASummaryAndGroupsFindingsByStageAndKindWithWhatToDo) {
  Judgement judgement;
  judgement.findings = {{.stage = "diff", .kind = "function-removed", .where = "a (2.9 -> 2.10)"},
                        {.stage = "diff", .kind = "function-removed", .where = "b (2.9 -> 2.10)"},
                        {.stage = "diff", .kind = "type-changed", .where = "T (2.9 -> 2.10)"},
                        {.stage = "lint", .kind = "E007", .severity = FindingSeverity::Warning, .where = "x.cpp:1:1"}};
  judgement.kinds = {
      {.stage = "diff", .kind = "function-removed", .text = {.meaning = "It is gone.", .remedy = "Keep it."}}};
  json document = new_report_document("test", "", judgement);
  std::string html = render_html_report(document);
  // The summary comes before the groups, and names each stage with its counts and kinds.
  auto summary = html.find(R"(<section id="summary">)");
  auto findings = html.find(R"(<section id="findings">)");
  ASSERT_NE(summary, std::string::npos);
  ASSERT_NE(findings, std::string::npos);
  EXPECT_LT(summary, findings);
  EXPECT_NE(html.find(R"(<tr><th><a href="#findings-diff">diff</a></th><td class="finding">3 errors</td>)"),
            std::string::npos);
  EXPECT_NE(html.find(R"(<tr><th><a href="#findings-lint">lint</a></th><td class="">1 warning</td>)"),
            std::string::npos);
  // One folded group per kind, with its count; an explained kind carries its meaning and remedy.
  EXPECT_EQ(occurrences(html, R"(<details class="group")"), 3u);
  EXPECT_NE(
      html.find(
          R"(id="findings-diff-function-removed" data-stage="diff" data-kind="function-removed"><summary><span class="count finding">2</span> <code>function-removed</code> &mdash; It is gone.</summary>)"),
      std::string::npos);
  EXPECT_NE(html.find(R"(<p class="remedy">What to do: Keep it.</p>)"), std::string::npos);
  EXPECT_NE(html.find(R"(<span class="count">1</span> <code>E007</code></summary>)"), std::string::npos);
  EXPECT_EQ(occurrences(html, "<p class=\"remedy\">"), 1u);
}

TEST(HtmlReport, SameDocumentRendersToTheSameBytes) {
  json document =
      report_of({{"matrix", {{"cells", {cell("2.10", "2.9", "2.10", "pass"), cell("2.9", "2.9", "2.10", "pass")}}}}},
                {}, {"works on torch 2.9 ... 2.10"});
  EXPECT_EQ(render_html_report(document), render_html_report(json::parse(document.dump())));
  EXPECT_NE(render_html_report(document).find("<li>works on torch 2.9 ... 2.10</li>"), std::string::npos);
}

}  // namespace
}  // namespace abicheck
