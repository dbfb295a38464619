// --shard K/N: a deterministic slice of the matrix, and the merge of shards through their caches.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "core/project_paths.h"
#include "core/scoped_temp_dir.h"
#include "core/tool_error.h"
#include "matrix/matrix_runner.h"
#include "support/cli.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

std::string cell_name(const MatrixCell& cell) {
  return fmt::format("{} {} B{} T{} R{}", cell.suite, backend_name(cell.backend), cell.build.to_string(),
                     cell.target.to_string(), cell.runtime.to_full_string());
}

TEST(MatrixShard, ParsesKOfNAndRefusesAnythingElse) {
  EXPECT_EQ(MatrixShard::parse("2/4").to_string(), "2/4");
  for (const char* bad : {"0/2", "3/2", "2", "1/2/3", "a/b", "1/2x", ""})
    EXPECT_THROW(MatrixShard::parse(bad), ToolError) << bad;
  auto result = testing::run_cli({"matrix", "--shard", "3/2"});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_EQ(result.tail(1), result.tail(5)) << "more than one line: " << result.output;
  EXPECT_NE(result.output.find("--shard 3/2: expected K/N"), std::string::npos) << result.output;
}

// The default plan in three shards: every cell in exactly one, every build (suite, backend, build,
// target) in one shard only, so no shard builds what another builds; and the same slices every time.
TEST(MatrixShard, ShardsOfTheDefaultPlanAreDisjointAndKeepEachBuildWhole) {
  ReleaseStore store(ReleaseStore::default_root());
  if (store.releases().size() < 2) GTEST_SKIP() << "the torch store has fewer than two releases";
  const MatrixSpec spec = load_matrix_spec(project_root() / "matrix" / "default.toml");
  std::multiset<std::string> whole;
  for (const auto& cell : plan_matrix(spec, store, {})) whole.insert(cell_name(cell));

  std::multiset<std::string> joined;
  std::map<std::string, unsigned> shard_of_build;
  for (unsigned k = 1; k <= 3; ++k) {
    MatrixOptions options;
    options.shard = MatrixShard{.index = k, .count = 3};
    const auto cells = plan_matrix(spec, store, options);
    EXPECT_FALSE(cells.empty()) << "shard " << k;
    for (const auto& cell : cells) {
      joined.insert(cell_name(cell));
      const std::string build = fmt::format("{} {} B{} T{}", cell.suite, backend_name(cell.backend),
                                            cell.build.to_string(), cell.target.to_string());
      auto [found, inserted] = shard_of_build.emplace(build, k);
      EXPECT_EQ(found->second, k) << build << " is in two shards";
    }
    std::vector<std::string> again;
    for (const auto& cell : plan_matrix(spec, store, options)) again.push_back(cell_name(cell));
    std::vector<std::string> first;
    for (const auto& cell : cells) first.push_back(cell_name(cell));
    EXPECT_EQ(again, first) << "shard " << k << " is not deterministic";
  }
  EXPECT_EQ(joined, whole);
}

// Two shards run into their own caches; a plain run over the two caches copied into one runs
// nothing and reports every cell as the shards did.
TEST(MatrixShard, AMergedCacheGivesTheWholeReportWithoutRunningAnything) {
  ReleaseStore store(ReleaseStore::default_root());
  if (!store.find("2.14") || !store.find("2.15")) GTEST_SKIP() << "the torch store lacks 2.14 or 2.15";
  ScopedTempDir work{"matrix-shards"};
  const fs::path spec = work.path() / "spec.toml";
  std::ofstream(spec) << "[[suite]]\nname = \"abiref\"\nsources = \"" << (project_root() / "kernels").string()
                      << "\"\napi = \"stable\"\nbackends = [\"cpu\"]\nbuilds = [\"2.15\"]\ntargets = [\"2.14\", "
                         "\"2.15\"]\nruntimes = [\"2.15\"]\n";
  auto run = [&](const std::string& cache, const std::vector<std::string>& extra) {
    std::vector<std::string> argv = {"matrix",
                                     "--spec",
                                     spec.string(),
                                     "--cache-dir",
                                     (work.path() / cache).string(),
                                     "--json",
                                     (work.path() / (cache + ".json")).string(),
                                     "-j",
                                     "2"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    auto result = testing::run_cli(argv);
    EXPECT_EQ(result.exit_code, 0) << result.output;
    return std::pair{result.output, nlohmann::json::parse(std::ifstream(work.path() / (cache + ".json")))};
  };
  auto [first_output, first] = run("first", {"--shard", "1/2"});
  auto [second_output, second] = run("second", {"--shard", "2/2"});
  ASSERT_EQ(first["matrix"]["cells"].size(), 1u);
  ASSERT_EQ(second["matrix"]["cells"].size(), 1u);
  EXPECT_NE(first["title"].get<std::string>().find("shard 1/2"), std::string::npos);

  fs::copy(work.path() / "first", work.path() / "merged", fs::copy_options::recursive);
  fs::copy(work.path() / "second", work.path() / "merged",
           fs::copy_options::recursive | fs::copy_options::skip_existing);
  auto [merged_output, merged] = run("merged", {});
  EXPECT_NE(merged_output.find("(2 builds, 2 cached; 2 cells from cache;"), std::string::npos) << merged_output;
  const auto& cells = merged["matrix"]["cells"];
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[0], first["matrix"]["cells"][0]);
  EXPECT_EQ(cells[1], second["matrix"]["cells"][0]);
  EXPECT_EQ(merged["verdict"]["lines"][0], "matrix: 2 cells, 0 unexpected, 0 not run");
  // The coverage of the whole is measured over both shards' cells: the union of what each called.
  const auto& whole = merged["matrix"]["coverage"]["releases"][0];
  for (const auto* shard : {&first, &second}) {
    const auto& part = (*shard)["matrix"]["coverage"]["releases"][0];
    EXPECT_GE(whole["hand_written_called"].get<int>(), part["hand_written_called"].get<int>());
    for (const auto& name : whole["hand_written_imported_not_called"]) {
      EXPECT_NE(std::ranges::find(part["hand_written_imported_not_called"], name),
                part["hand_written_imported_not_called"].end())
          << name << " is called in a shard but not in the merged report";
    }
  }
}

}  // namespace
}  // namespace abicheck
