#include "lint/extension/extension_rules.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "baseline/release_history.h"
#include "core/project_paths.h"
#include "inventory/shim_inventory.h"
#include "lint/extension/extension_parser.h"
#include "lint/extension/extension_sources.h"
#include "lint/lint_expectations.h"
#include "store/release_store.h"
#include "support/build_paths.h"

namespace abicheck {

// Test names and ctest listings show the rule's id, not the bytes of the parameter.
void PrintTo(const ExtensionRule& rule, std::ostream* out) { *out << rule.rule.id; }

namespace {

namespace fs = std::filesystem;

// The fixtures are written against the real headers of this release of the store.
constexpr const char* kFixtureTorch = "2.11";

fs::path fixture_dir(std::string_view rule_id, std::string_view half) {
  return fs::path(TORCH_ABI_CHECK_FIXTURES) / "lint" / "extension" / rule_id / half;
}

std::vector<LintDiagnostic> lint_fixture(const fs::path& directory) {
  ReleaseStore store(ReleaseStore::default_root());
  StoredRelease build = store.require(kFixtureTorch);
  ExtensionSources sources = find_extension_sources(directory);
  ParseEnvironment environment{build.include_dir, find_cuda_include_dirs(store.root(), build.cuda_major.value_or(12)),
                               sources.root};
  ExtensionFacts facts = collect_extension_facts(sources, environment);
  fs::path inventory_path = project_root() / "shim_decls" / kFixtureTorch / "inventory.json";
  std::optional<ShimInventory> inventory;
  if (fs::exists(inventory_path)) inventory = load_inventory(inventory_path);
  std::vector<TorchVersion> known;
  for (const auto& release : store.releases()) known.push_back(release.version.minor_release());
  ExtensionLintContext context{build.version.minor_release(), known, inventory ? &*inventory : nullptr};
  if (inventory) {
    context.released_names =
        first_declaring_releases_by_name(ReleaseHistory::open(project_root() / "shim_decls").inventories());
  }
  context.operator_schemas = ReleaseHistory::open(project_root() / "shim_decls").operator_schemas();
  return run_extension_rules(facts, context);
}

class ExtensionRuleTest : public ::testing::TestWithParam<ExtensionRule> {};

// Every planted fault is found at its line, and nothing else is reported.
TEST_P(ExtensionRuleTest, FindsEveryPlantedFaultOfItsBadFixture) {
  const LintRule& rule = GetParam().rule;
  if (rule.id == "E003" || rule.id == "E010") {
    ASSERT_TRUE(fs::exists(project_root() / "shim_decls" / kFixtureTorch / "inventory.json"))
        << rule.id << " needs the committed baseline shim_decls/" << kFixtureTorch << "/inventory.json";
  }
  fs::path bad = fixture_dir(rule.id, "bad");
  auto expected = testing::read_expectations(bad);
  ASSERT_TRUE(std::ranges::any_of(expected, [&](const auto& e) { return e.rule == rule.id; }))
      << bad << " plants no fault of " << rule.id;
  auto problems = testing::mismatches(lint_fixture(bad), expected);
  EXPECT_TRUE(problems.empty()) << fmt::format("{}", fmt::join(problems, "\n"));
}

TEST_P(ExtensionRuleTest, ReportsNothingOnItsGoodFixture) {
  fs::path good = fixture_dir(GetParam().rule.id, "good");
  ASSERT_TRUE(fs::is_directory(good));
  auto problems = testing::mismatches(lint_fixture(good), {});
  EXPECT_TRUE(problems.empty()) << fmt::format("{}", fmt::join(problems, "\n"));
}

TEST_P(ExtensionRuleTest, IsDocumented) {
  EXPECT_TRUE(testing::has_documentation_section(GetParam().rule.id))
      << "docs/lint-rules.md has no section for " << GetParam().rule.id;
}

// The report heads a rule's group of findings with these two sentences.
TEST_P(ExtensionRuleTest, SaysWhatItFindsAndWhatToDo) {
  EXPECT_FALSE(GetParam().rule.summary.empty());
  EXPECT_FALSE(GetParam().rule.remedy.empty()) << GetParam().rule.id << " has no remedy";
}

INSTANTIATE_TEST_SUITE_P(Lint, ExtensionRuleTest, ::testing::ValuesIn(extension_rules()),
                         [](const auto& info) { return std::string(info.param.rule.id); });

}  // namespace
}  // namespace abicheck
