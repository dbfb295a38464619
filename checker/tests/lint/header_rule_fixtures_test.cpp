#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "inventory/inventory_collector.h"
#include "lint/headers/header_lint_input.h"
#include "lint/headers/header_rules.h"
#include "lint/lint_expectations.h"
#include "support/build_paths.h"

namespace abicheck {

// Test names and ctest listings show the rule's id, not the bytes of the parameter.
void PrintTo(const HeaderRule& rule, std::ostream* out) { *out << rule.rule.id; }

namespace {

namespace fs = std::filesystem;

fs::path header_fixture_dir(std::string_view rule_id, std::string_view half) {
  return fs::path(TORCH_ABI_CHECK_FIXTURES) / "lint" / "headers" / rule_id / half;
}

// A fixture half is a tiny torch tree (include/), the baselines it is compared with (baselines/),
// and, where a rule needs them, headers of earlier releases (releases/<version>/include/). Its
// inventory is collected by the real inventory stage, as `lint headers` collects a release's.
std::vector<LintDiagnostic> lint_header_fixture(const fs::path& half) {
  fs::path include_dir = half / "include";
  auto earlier_headers = [&half](TorchVersion release) -> std::optional<fs::path> {
    fs::path headers = half / "releases" / release.to_string() / "include";
    if (fs::is_directory(headers)) return headers;
    return std::nullopt;
  };
  HeaderLintInput input =
      gather_header_lint_input(include_dir, collect_inventory(include_dir, {.untargeted_errors_as_notes = true}),
                               half / "baselines", earlier_headers);
  return run_header_rules(input);
}

class HeaderRuleTest : public ::testing::TestWithParam<HeaderRule> {};

// Every planted fault is found at its line, and nothing else is reported.
TEST_P(HeaderRuleTest, FindsEveryPlantedFaultOfItsBadFixture) {
  const LintRule& rule = GetParam().rule;
  fs::path bad = header_fixture_dir(rule.id, "bad");
  auto expected = testing::read_expectations(bad);
  ASSERT_TRUE(std::ranges::any_of(expected, [&](const auto& e) { return e.rule == rule.id; }))
      << bad << " plants no fault of " << rule.id;
  auto problems = testing::mismatches(lint_header_fixture(bad), expected);
  EXPECT_TRUE(problems.empty()) << fmt::format("{}", fmt::join(problems, "\n"));
}

TEST_P(HeaderRuleTest, ReportsNothingOnItsGoodFixture) {
  fs::path good = header_fixture_dir(GetParam().rule.id, "good");
  ASSERT_TRUE(fs::is_directory(good));
  auto problems = testing::mismatches(lint_header_fixture(good), {});
  EXPECT_TRUE(problems.empty()) << fmt::format("{}", fmt::join(problems, "\n"));
}

TEST_P(HeaderRuleTest, IsDocumented) {
  EXPECT_TRUE(testing::has_documentation_section(GetParam().rule.id))
      << "docs/lint-rules.md has no section for " << GetParam().rule.id;
}

// The report heads a rule's group of findings with these two sentences.
TEST_P(HeaderRuleTest, SaysWhatItFindsAndWhatToDo) {
  EXPECT_FALSE(GetParam().rule.summary.empty());
  EXPECT_FALSE(GetParam().rule.remedy.empty()) << GetParam().rule.id << " has no remedy";
}

// H007 sees what an extension that includes the headers compiles, inline code included: pairs beside
// its own (fixtures/lint/headers/H007/<name>/{bad,good}, each with a README saying how its expectation
// was established by compiling), each a tree whose inline code no longer compiles and the same tree
// done right.
class InlineCodeFixtureTest : public ::testing::TestWithParam<std::string> {};

TEST_P(InlineCodeFixtureTest, BadIsReportedAtItsLineAndGoodIsNot) {
  fs::path pair = fs::path(TORCH_ABI_CHECK_FIXTURES) / "lint" / "headers" / "H007" / GetParam();
  auto expected = testing::read_expectations(pair / "bad");
  ASSERT_FALSE(expected.empty()) << pair << "/bad plants no fault";
  auto problems = testing::mismatches(lint_header_fixture(pair / "bad"), expected);
  EXPECT_TRUE(problems.empty()) << fmt::format("{}", fmt::join(problems, "\n"));
  problems = testing::mismatches(lint_header_fixture(pair / "good"), {});
  EXPECT_TRUE(problems.empty()) << fmt::format("{}", fmt::join(problems, "\n"));
}

INSTANTIATE_TEST_SUITE_P(H007, InlineCodeFixtureTest, ::testing::Values("inline_member_removed", "inline_body"),
                         [](const auto& info) { return info.param; });

INSTANTIATE_TEST_SUITE_P(Lint, HeaderRuleTest, ::testing::ValuesIn(header_rules()),
                         [](const auto& info) { return std::string(info.param.rule.id); });

}  // namespace
}  // namespace abicheck
