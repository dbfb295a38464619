// One test per planted change under fixtures/diff/<case>/: old/ and new/ are header trees, and
// expected.json beside them lists the changes the diff must report, with their verdicts. A case may
// also carry a suppressions.toml, passed to the diff as `--suppressions` would pass it (on a fixed
// day, kFixtureToday), and then lists in "suppression_problems" the entries that are stale or expired.
// An operator case (operators_*) has an operators.txt on each side instead of a header tree: a header
// tree has no Python to list operators, so those cases compare the two operator baselines. Every kind
// of change must be planted by at least one case. A behaviour case (behaviour_*) has a behaviour.json
// on each side: what the probe of the conversions printed (behaviour_probe.h), which needs a libtorch.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "baseline/release_history.h"
#include "core/process.h"
#include "core/scoped_temp_dir.h"
#include "diff/baseline_diff.h"
#include "diff/baseline_source.h"
#include "diff/behaviour_compare.h"
#include "diff/diff_judgement.h"
#include "diff/operator_compare.h"
#include "diff/suppressions.h"
#include "support/build_paths.h"

namespace abicheck {
namespace {

std::vector<std::string> fixture_cases() {
  std::vector<std::string> cases;
  for (const auto& entry : std::filesystem::directory_iterator(testing::diff_fixtures())) {
    if (std::filesystem::exists(entry.path() / "expected.json")) cases.push_back(entry.path().filename().string());
  }
  std::ranges::sort(cases);
  return cases;
}

nlohmann::json read_expected(const std::string& fixture_case) {
  return nlohmann::json::parse(std::ifstream(testing::diff_fixtures() / fixture_case / "expected.json"));
}

// The names of every ChangeKind (all_change_kinds: the build checks that list is complete).
std::vector<std::string> every_change_kind_name() {
  std::vector<std::string> names;
  for (ChangeKind kind : all_change_kinds()) names.emplace_back(to_string(kind));
  return names;
}

// A side (old/ or new/) that carries lib*.c sources (libtorch_cpu.c, libtorch_cuda.c) gets each built
// into <side>/lib/lib*.so, in a copy: the fixture itself holds no binaries.
std::filesystem::path prepare_tree(const std::filesystem::path& fixture, const std::string& side,
                                   const ScopedTempDir& work) {
  std::vector<std::filesystem::path> sources;
  for (const auto& entry : std::filesystem::directory_iterator(fixture / side)) {
    std::string name = entry.path().filename().string();
    if (name.starts_with("lib") && entry.path().extension() == ".c") sources.push_back(entry.path());
  }
  if (sources.empty()) return fixture / side;
  std::filesystem::path copy = work.path() / side;
  std::filesystem::copy(fixture / side, copy, std::filesystem::copy_options::recursive);
  std::filesystem::create_directories(copy / "lib");
  for (const auto& source : sources) {
    std::filesystem::path library = copy / "lib" / source.filename().replace_extension(".so");
    ProcessResult built = run_process({.argv = {"cc", "-shared", "-fPIC", "-o", library.string(), source.string()}});
    EXPECT_TRUE(built.succeeded()) << built.output;
  }
  return copy;
}

constexpr CalendarDay kFixtureToday{2026, 6, 1};

std::optional<SuppressionFile> fixture_suppressions(const std::filesystem::path& fixture) {
  std::filesystem::path path = fixture / "suppressions.toml";
  if (!std::filesystem::exists(path)) return std::nullopt;
  return load_suppressions(path, kFixtureToday);
}

AbiDiff suppressed(AbiDiff diff, SuppressionFile* suppressions) {
  if (suppressions) {
    apply_suppressions(*suppressions, diff.changes);
    diff.suppression_problems = suppressions->problems();
  }
  return diff;
}

AbiDiff diff_fixture(const std::filesystem::path& fixture, const ScopedTempDir& work, SuppressionFile* suppressions) {
  if (std::filesystem::exists(fixture / "old" / kOperatorsFile)) {
    OperatorSchemas old_schemas = load_operator_schemas(fixture / "old" / kOperatorsFile);
    OperatorSchemas new_schemas = load_operator_schemas(fixture / "new" / kOperatorsFile);
    return suppressed({old_schemas.release, new_schemas.release, compare_operator_schemas(old_schemas, new_schemas)},
                      suppressions);
  }
  if (std::filesystem::exists(fixture / "old" / kBehaviourFile)) {
    BehaviourBaseline old_behaviour = load_behaviour(fixture / "old" / kBehaviourFile);
    BehaviourBaseline new_behaviour = load_behaviour(fixture / "new" / kBehaviourFile);
    return suppressed({old_behaviour.release, new_behaviour.release, compare_behaviour(old_behaviour, new_behaviour)},
                      suppressions);
  }
  // A case may carry a release history (baselines/<release>/inventory.json): what first shipped when.
  HistoryFacts history;
  if (std::filesystem::exists(fixture / "baselines")) {
    history.first_shipped = first_shipped_releases(ReleaseHistory::open(fixture / "baselines").inventories());
  }
  return diff_baselines(obtain_baseline(prepare_tree(fixture, "old", work).string(), {}),
                        obtain_baseline(prepare_tree(fixture, "new", work).string(), {}), suppressions, "OLD", "NEW",
                        history);
}

class DiffFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(DiffFixture, ReportsThePlantedChangeWithItsVerdict) {
  std::filesystem::path fixture = testing::diff_fixtures() / GetParam();
  auto expected = read_expected(GetParam());
  ScopedTempDir work("diff-fixture");
  std::optional<SuppressionFile> suppressions = fixture_suppressions(fixture);
  AbiDiff diff = diff_fixture(fixture, work, suppressions ? &*suppressions : nullptr);

  std::set<std::pair<std::string, std::string>> expected_keys;
  for (const auto& item : expected.at("changes")) {
    std::string name = item.at("name"), kind = item.at("kind");
    expected_keys.insert({name, kind});
    auto found = std::ranges::find_if(diff.changes,
                                      [&](const AbiChange& c) { return c.name == name && to_string(c.kind) == kind; });
    ASSERT_NE(found, diff.changes.end()) << "missing " << kind << " of " << name;
    EXPECT_EQ(to_string(found->verdict()), item.at("verdict").get<std::string>()) << name;
    EXPECT_NE(found->detail.find(item.at("detail_contains").get<std::string>()), std::string::npos)
        << name << ": " << found->detail;
    // A change some suppression or schema adapter accepted names why; one nothing accepted names nothing.
    std::string suppressed = item.value("suppressed_contains", "");
    if (suppressed.empty()) {
      EXPECT_EQ(found->suppressed_because, "") << name;
    } else {
      EXPECT_NE(found->suppressed_because.find(suppressed), std::string::npos)
          << name << ": " << found->suppressed_because;
    }
  }
  // Nothing else needs attention: only the planted change, plus compatible additions such as the
  // new release's TORCH_VERSION macro.
  for (const auto& change : diff.changes) {
    if (change.verdict() == Verdict::Compatible) continue;
    EXPECT_TRUE(expected_keys.contains({change.name, std::string(to_string(change.kind))}))
        << "unexpected " << to_string(change.kind) << " of " << change.name << ": " << change.detail;
  }
  std::vector<std::pair<std::string, int>> problems, expected_problems;
  for (const auto& problem : diff.suppression_problems) problems.emplace_back(problem.kind_name(), problem.line);
  for (const auto& item : expected.value("suppression_problems", nlohmann::json::array())) {
    expected_problems.emplace_back(item.at("kind"), item.at("line"));
  }
  EXPECT_EQ(problems, expected_problems);
  EXPECT_EQ(static_cast<int>(judge_diff(diff).exit_code()), expected.at("exit").get<int>());
}

// The way `baseline` then `diff` goes (the header mutation benchmark's): the new side read back from
// its baseline file still has the error that shows at one target only (fixture macro_in_inline_body),
// and an error the new side's release shipped with (its committed baseline's) is no finding.
TEST(DiffFromBaselineFiles, KeepsACompileErrorOfOneTarget) {
  std::filesystem::path fixture = testing::diff_fixtures() / "macro_in_inline_body";
  ScopedTempDir work("diff-from-files");
  write_baseline(obtain_baseline((fixture / "new").string(), {}), work.path() / "new");
  ReleaseBaseline old_baseline = obtain_baseline((fixture / "old").string(), {});
  ReleaseBaseline new_baseline = load_baseline(work.path() / "new");
  auto is_failure = [](const AbiChange& c) { return c.kind == ChangeKind::HeadersDoNotCompile; };
  std::vector<AbiChange> changes = diff_baselines(old_baseline, new_baseline).changes;
  ASSERT_EQ(std::ranges::count_if(changes, is_failure), 1);
  EXPECT_NE(std::ranges::find_if(changes, is_failure)->detail.find("at target 2.10: torch/csrc/stable/exception.h:9"),
            std::string::npos);
  changes = diff_baselines(old_baseline, new_baseline, {}, "OLD", "NEW",
                           {new_baseline.inventory.compile_error_identities(), {}})
                .changes;
  EXPECT_EQ(std::ranges::count_if(changes, is_failure), 0);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, DiffFixture, ::testing::ValuesIn(fixture_cases()),
                         [](const auto& info) { return info.param; });

// A kind no fixture plants is a kind nothing proves the diff can still report. DiffFixture checks that
// each case's expected.json is what the diff reports, so naming the kind there is enough here.
class DiffFixtureCoverage : public ::testing::TestWithParam<std::string> {};

TEST_P(DiffFixtureCoverage, SomeFixturePlantsTheKind) {
  const std::string& kind = GetParam();
  std::vector<std::string> cases = fixture_cases();
  bool planted = std::ranges::any_of(cases, [&](const std::string& fixture_case) {
    return std::ranges::any_of(read_expected(fixture_case).at("changes"),
                               [&](const nlohmann::json& item) { return item.at("kind") == kind; });
  });
  EXPECT_TRUE(planted) << "no fixtures/diff/<case>/expected.json plants a '" << kind << "' change";
}

INSTANTIATE_TEST_SUITE_P(ChangeKinds, DiffFixtureCoverage, ::testing::ValuesIn(every_change_kind_name()),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::ranges::replace(name, '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace abicheck
