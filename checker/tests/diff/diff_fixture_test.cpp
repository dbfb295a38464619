// One test per planted change under fixtures/diff/<case>/: old/ and new/ are header trees, and
// expected.json beside them lists the changes the diff must report, with their verdicts.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/scoped_temp_dir.h"
#include "core/process.h"
#include "diff/baseline_diff.h"
#include "diff/baseline_source.h"
#include "diff/diff_judgement.h"

namespace abicheck {
namespace {

const std::filesystem::path kDiffFixtures = std::filesystem::path(TORCH_ABI_CHECK_FIXTURES) / "diff";

std::vector<std::string> fixture_cases() {
  std::vector<std::string> cases;
  for (const auto& entry : std::filesystem::directory_iterator(kDiffFixtures)) {
    if (std::filesystem::exists(entry.path() / "expected.json")) cases.push_back(entry.path().filename().string());
  }
  std::ranges::sort(cases);
  return cases;
}

// A tree whose new/ carries a libtorch_cpu.c gets that library built into new/lib/, in a copy.
std::filesystem::path prepare_new_tree(const std::filesystem::path& fixture, const ScopedTempDir& work) {
  std::filesystem::path source = fixture / "new" / "libtorch_cpu.c";
  if (!std::filesystem::exists(source)) return fixture / "new";
  std::filesystem::path copy = work.path() / "new";
  std::filesystem::copy(fixture / "new", copy, std::filesystem::copy_options::recursive);
  std::filesystem::create_directories(copy / "lib");
  ProcessResult built = run_process(
      {.argv = {"cc", "-shared", "-fPIC", "-o", (copy / "lib" / "libtorch_cpu.so").string(), source.string()}});
  EXPECT_TRUE(built.succeeded()) << built.output;
  return copy;
}

class DiffFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(DiffFixture, ReportsThePlantedChangeWithItsVerdict) {
  std::filesystem::path fixture = kDiffFixtures / GetParam();
  auto expected = nlohmann::json::parse(std::ifstream(fixture / "expected.json"));
  ScopedTempDir work("diff-fixture");
  AbiDiff diff = diff_baselines(obtain_baseline((fixture / "old").string(), {}),
                                obtain_baseline(prepare_new_tree(fixture, work).string(), {}));

  std::set<std::pair<std::string, std::string>> expected_keys;
  for (const auto& item : expected.at("changes")) {
    std::string name = item.at("name"), kind = item.at("kind");
    expected_keys.insert({name, kind});
    auto found = std::ranges::find_if(diff.changes, [&](const AbiChange& c) {
      return c.name == name && to_string(c.kind) == kind;
    });
    ASSERT_NE(found, diff.changes.end()) << "missing " << kind << " of " << name;
    EXPECT_EQ(to_string(found->verdict()), item.at("verdict").get<std::string>()) << name;
    EXPECT_NE(found->detail.find(item.at("detail_contains").get<std::string>()), std::string::npos)
        << name << ": " << found->detail;
  }
  // Nothing else needs attention: only the planted change, plus compatible additions such as the
  // new release's TORCH_VERSION macro.
  for (const auto& change : diff.changes) {
    if (change.verdict() == Verdict::Compatible) continue;
    EXPECT_TRUE(expected_keys.contains({change.name, std::string(to_string(change.kind))}))
        << "unexpected " << to_string(change.kind) << " of " << change.name << ": " << change.detail;
  }
  EXPECT_EQ(static_cast<int>(judge_diff(diff).exit_code()), expected.at("exit").get<int>());
}

INSTANTIATE_TEST_SUITE_P(Fixtures, DiffFixture, ::testing::ValuesIn(fixture_cases()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace abicheck
