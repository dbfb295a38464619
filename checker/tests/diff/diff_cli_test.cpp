#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "core/project_paths.h"
#include "core/scoped_temp_dir.h"
#include "support/build_paths.h"
#include "support/cli.h"
#include "support/scoped_today.h"

namespace abicheck {
namespace {

using testing::run_cli;
using testing::ScopedToday;

std::string fixture(const std::string& name) { return (testing::diff_fixtures() / name).string(); }

void write_text(const std::filesystem::path& path, const std::string& text) { std::ofstream(path) << text; }

int line_count(const std::string& text) { return static_cast<int>(std::ranges::count(text, '\n')); }

TEST(DiffCli, BreakingChangeExitsOneAndWritesTheJsonReport) {
  ScopedTempDir work("diff-cli");
  auto json_path = work.path() / "diff.json";
  ProcessResult result = run_cli(
      {"diff", fixture("signature_changed/old"), fixture("signature_changed/new"), "--json", json_path.string()});
  EXPECT_EQ(result.exit_code, 1) << result.output;
  auto report = nlohmann::json::parse(std::ifstream(json_path)).at("diffs").at(0);
  ASSERT_FALSE(report.at("changes").empty());
  bool found = false;
  for (const auto& change : report.at("changes")) {
    for (const char* field : {"name", "kind", "verdict", "detail"}) EXPECT_TRUE(change.contains(field));
    found |= change.at("name") == "torch_from_blob" && change.at("verdict") == "breaking";
  }
  EXPECT_TRUE(found);
}

TEST(DiffCli, SuppressionAcceptsAKnownChangeAndAStaleOneIsReported) {
  ScopedTempDir work("diff-suppress");
  write_text(work.path() / "accepted.toml", R"([[suppress]]
name = "torch_from_blob"
kind = "signature-changed"
reason = "changed during 2.11 development, before any release shipped it"

[[suppress]]
name = "aoti_torch_no_longer_changes"
reason = "fixed long ago"
)");
  auto json_path = work.path() / "diff.json";
  ProcessResult result =
      run_cli({"diff", fixture("signature_changed/old"), fixture("signature_changed/new"), "--suppressions",
               (work.path() / "accepted.toml").string(), "--json", json_path.string()});
  // The stale entry is a finding at its line; the accepted change is not.
  EXPECT_EQ(result.exit_code, 1) << result.output;
  auto document = nlohmann::json::parse(std::ifstream(json_path));
  auto report = document.at("diffs").at(0);
  bool suppressed = false;
  for (const auto& change : report.at("changes")) {
    suppressed |= change.at("name") == "torch_from_blob" && change.contains("suppressed");
  }
  EXPECT_TRUE(suppressed);
  ASSERT_EQ(report.at("suppression_problems").size(), 1u) << report.dump(2);
  EXPECT_EQ(report["suppression_problems"][0]["kind"], "stale");
  EXPECT_EQ(report["suppression_problems"][0]["line"], 6);
  ASSERT_EQ(document["verdict"]["findings"].size(), 1u) << document.dump(2);
  EXPECT_EQ(document["verdict"]["findings"][0]["kind"], "stale-suppression");
  EXPECT_EQ(document["verdict"]["findings"][0]["line"], 6);
}

TEST(DiffCli, AnExpiredSuppressionAcceptsNothingAndIsAFinding) {
  ScopedTempDir work("diff-suppress-expired");
  write_text(work.path() / "expired.toml", R"([[suppress]]
name = "torch_from_blob"
reason = "changed during 2.11 development, before any release shipped it"
expires = 2026-03-31
)");
  auto json_path = work.path() / "diff.json";
  ScopedToday today("2026-04-01");
  ProcessResult result =
      run_cli({"diff", fixture("signature_changed/old"), fixture("signature_changed/new"), "--suppressions",
               (work.path() / "expired.toml").string(), "--json", json_path.string()});
  EXPECT_EQ(result.exit_code, 1) << result.output;
  auto document = nlohmann::json::parse(std::ifstream(json_path));
  std::set<std::string> kinds;
  for (const auto& finding : document["verdict"]["findings"]) kinds.insert(finding.at("kind"));
  EXPECT_EQ(kinds, (std::set<std::string>{"signature-changed", "expired-suppression"})) << document.dump(2);
  auto problem = document["diffs"][0]["suppression_problems"][0];
  EXPECT_EQ(problem["kind"], "expired");
  EXPECT_EQ(problem["expires"], "2026-03-31");
  EXPECT_EQ(problem["line"], 1);

  // The day before it expires, the same file accepts the change.
  ScopedToday earlier("2026-03-31");
  EXPECT_EQ(run_cli({"diff", fixture("signature_changed/old"), fixture("signature_changed/new"), "--suppressions",
                     (work.path() / "expired.toml").string()})
                .exit_code,
            0);
}

TEST(DiffCli, SuppressionWithoutReasonIsAToolError) {
  ScopedTempDir work("diff-suppress-bad");
  write_text(work.path() / "bad.toml", "[[suppress]]\nname = \"torch_from_blob\"\n");
  ProcessResult result = run_cli({"diff", fixture("signature_changed/old"), fixture("signature_changed/new"),
                                  "--suppressions", (work.path() / "bad.toml").string()});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("bad.toml:1: [[suppress]]: needs a reason"), std::string::npos) << result.output;
}

// Headers that do not compile are the diff's finding, with the compiler's first error and every
// configuration it shows in, never a tool error: the rest is still compared and reported.
TEST(DiffCli, HeadersThatDoNotCompileAreABreakingFindingWithTheCompilersError) {
  ScopedTempDir work("diff-bad-header");
  auto json_path = work.path() / "diff.json";
  ProcessResult result = run_cli({"diff", fixture("removed_function/old"), fixture("bad_input/header_does_not_parse"),
                                  "--json", json_path.string()});
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("headers-do-not-compile"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("do not compile at no target, target 2.9"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("torch/csrc/inductor/aoti_torch/c/shim.h:23: expected ')'"), std::string::npos)
      << result.output;
  EXPECT_TRUE(std::filesystem::exists(json_path));
}

TEST(DiffCliBadInput, TorchOlderThanTwoNineIsRefused) {
  ProcessResult result = run_cli({"inventory", "--torch", "2.8"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(line_count(result.output), 1) << result.output;
}

TEST(DiffCliBadInput, TreeWithoutStableHeadersIsRefused) {
  ProcessResult result = run_cli({"inventory", "--torch", testing::diff_fixtures().string()});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("no stable ABI headers"), std::string::npos) << result.output;
}

// A committed baseline with one file cut short: the diff must say which file, not crash or guess.
class CorruptBaseline : public ::testing::TestWithParam<std::string> {};

TEST_P(CorruptBaseline, IsOneErrorLineNamingTheFile) {
  std::filesystem::path committed = project_root() / "shim_decls" / "2.10";
  if (!std::filesystem::exists(committed)) GTEST_SKIP() << "no committed 2.10 baseline";
  ScopedTempDir work("corrupt-baseline");
  std::filesystem::copy(committed, work.path() / "2.10");
  std::filesystem::path damaged = work.path() / "2.10" / GetParam();
  std::filesystem::resize_file(damaged, std::filesystem::file_size(damaged) / 2);
  auto json_path = work.path() / "diff.json";
  ProcessResult result =
      run_cli({"diff", (work.path() / "2.10").string(), committed.string(), "--json", json_path.string()});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(line_count(result.output), 1) << result.output;
  EXPECT_NE(result.output.find(GetParam()), std::string::npos) << result.output;
  EXPECT_FALSE(std::filesystem::exists(json_path));
}

INSTANTIATE_TEST_SUITE_P(Files, CorruptBaseline, ::testing::Values("inventory.json", "abi.xml.gz", "exports.json"),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::ranges::replace(name, '.', '_');
                           return name;
                         });

TEST(TimelineCli, RendersEveryCommittedBaselineAsMarkdownAndHtml) {
  ScopedTempDir work("timeline");
  ProcessResult result =
      run_cli({"timeline", "--markdown", (work.path() / "t.md").string(), "--html", (work.path() / "t.html").string()});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  std::ifstream markdown(work.path() / "t.md");
  std::string text((std::istreambuf_iterator<char>(markdown)), std::istreambuf_iterator<char>());
  for (const auto& entry : std::filesystem::directory_iterator(project_root() / "shim_decls")) {
    EXPECT_NE(text.find("| " + entry.path().filename().string() + " |"), std::string::npos) << entry.path();
  }
  EXPECT_GT(std::filesystem::file_size(work.path() / "t.html"), 1000u);
}

}  // namespace
}  // namespace abicheck
