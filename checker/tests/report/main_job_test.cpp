// The README main command: ci/main.sh run with the built CLI (no set-up, build or store install),
// which runs `torch-abi-check ci` with the tiny matrix instead of the default one, into a temporary
// directory. It must write the report (matrix, the diff of every pair of consecutive committed
// baselines, the newest release's header lint), end with a one-screen summary naming the report,
// and exit 1, since the real baselines have breaking changes; `report` on its JSON exits 1 too.
// The --html flags of matrix and diff are checked here too.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>

#include "baseline/release_history.h"
#include "core/project_paths.h"
#include "report/headless_chromium.h"
#include "store/release_store.h"
#include "support/build_paths.h"
#include "support/cli.h"
#include "support/files.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

// Shared by the tests here and kept in the build tree: a re-run builds nothing.
const fs::path job_cache = fs::path(TORCH_ABI_CHECK_CLI).parent_path() / "main-job-cache";
const fs::path tiny_matrix = fs::path(TORCH_ABI_CHECK_FIXTURES) / "report" / "tiny-matrix.toml";
const fs::path tiny_canary = fs::path(TORCH_ABI_CHECK_FIXTURES) / "canary" / "tiny" / "canary.toml";

using testing::read_text;

ProcessResult run_main_job(const std::vector<std::string>& arguments) {
  std::vector<std::string> argv = {"bash", (project_root() / "ci" / "main.sh").string(), "--cli", TORCH_ABI_CHECK_CLI};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return run_process({.argv = argv, .timeout = std::chrono::minutes(20)});
}

class MainJob : public ::testing::Test {
 protected:
  void SetUp() override {
    ReleaseStore store(ReleaseStore::default_root());
    if (!store.find("2.9") || store.releases().size() < 2)
      GTEST_SKIP() << "the torch store lacks 2.9 and a newer release";
    testing::with_shared_builds(job_cache);
    output_ = fs::temp_directory_path() / ("main-job-test-" + std::to_string(getpid()));
    fs::create_directories(output_);
  }
  void TearDown() override { fs::remove_all(output_); }
  fs::path output_;
};

TEST_F(MainJob, WritesOneReportOfEveryStageAndEndsWithASummary) {
  fs::path out = output_ / "reports";
  // The aoti suite's reference models compiled by the newest release alone (a compile per release is
  // minutes), loaded under it.
  const std::string newest = ReleaseStore(ReleaseStore::default_root()).releases().back().version.to_full_string();
  ProcessResult job = run_main_job({"--spec", tiny_matrix.string(), "--canary-spec", tiny_canary.string(), "--out",
                                    out.string(), "--cache-dir", job_cache.string(), "--aoti-torch", newest});
  ASSERT_EQ(job.exit_code, 1) << job.describe() << "\n" << job.output;

  auto document = nlohmann::json::parse(read_text(out / "report.json"));
  EXPECT_EQ(testing::schema_errors("report", out / "report.json"), "");
  EXPECT_EQ(document["command"], "ci");
  EXPECT_EQ(testing::run_cli({"report", (out / "report.json").string()}).exit_code, 1);
  EXPECT_EQ(document["matrix"]["cells"].size(), 4u) << "tiny matrix: 2 builds x 2 runtimes";
  auto baselines = ReleaseHistory::open(project_baselines_dir()).baseline_dirs();
  ASSERT_EQ(document["diffs"].size(), baselines.size() - 1);
  for (std::size_t i = 0; i + 1 < baselines.size(); ++i) {
    EXPECT_EQ(document["diffs"][i]["old"], baselines[i].filename().string());
    EXPECT_EQ(document["diffs"][i]["new"], baselines[i + 1].filename().string());
  }
  EXPECT_FALSE(document["lint"]["diagnostics"].empty());
  // The canary: one package that loads under every stored release, its grid printed before the summary.
  ASSERT_EQ(document["canary"]["packages"].size(), 1u);
  const auto& canary_cells = document["canary"]["packages"][0]["cells"];
  EXPECT_EQ(canary_cells.size(), ReleaseStore(ReleaseStore::default_root()).releases().size());
  for (const auto& cell : canary_cells) EXPECT_EQ(cell["observed"], "loaded") << cell.dump();
  EXPECT_NE(job.output.find("canary: what each package did under each release"), std::string::npos) << job.output;
  // The aoti suite: every reference model compiled by the newest release, loaded under it by both
  // loaders and matching eager there (fixtures/aoti/expected.json: what loading showed), predicted only
  // under the others.
  const auto aoti_expected =
      nlohmann::json::parse(read_text(fs::path(TORCH_ABI_CHECK_FIXTURES) / "aoti" / "expected.json"));
  ASSERT_FALSE(document["aoti"]["packages"].empty()) << job.output;
  for (const auto& package : document["aoti"]["packages"]) {
    EXPECT_EQ(package["build"], newest);
    EXPECT_EQ(package["compile_error"], "") << package.dump(1);
    std::map<std::string, int> ran;  // loader -> cells run
    for (const auto& cell : package["cells"]) {
      EXPECT_EQ(cell["ran"].get<bool>(), cell["release"] == newest) << cell.dump();
      if (!cell["ran"].get<bool>()) continue;
      ++ran[cell["loader"].get<std::string>()];
      if (cell["loader"] == "cpp") {
        EXPECT_EQ(cell["outcome"], aoti_expected["cpp_loader"]["default_outcome"]) << cell.dump(1);
      } else if (!aoti_expected["runtimes"].contains(newest)) {
        EXPECT_EQ(cell["outcome"], aoti_expected["default_outcome"]) << cell.dump(1);
      }
    }
    EXPECT_EQ(ran, (std::map<std::string, int>{{"cpp", 1}, {"python", 1}})) << package["model"];
  }
  EXPECT_GT(document["aoti"]["coverage"]["shims"].get<int>(), 0);

  // The summary is the last screen: it names the report and fits in 24 lines.
  auto summary_start = job.output.rfind("== torch-abi-check main job");
  ASSERT_NE(summary_start, std::string::npos) << job.output;
  std::string summary = job.output.substr(summary_start);
  EXPECT_LE(std::ranges::count(summary, '\n'), 24) << summary;
  EXPECT_NE(summary.find("report: " + (out / "report.html").string()), std::string::npos) << summary;
  EXPECT_NE(summary.find("verdict: findings"), std::string::npos) << summary;
  std::string last_pair = "diff " + baselines[baselines.size() - 2].filename().string() + " -> " +
                          baselines.back().filename().string() + ":";
  EXPECT_NE(summary.find(last_pair), std::string::npos) << summary;

  std::string html = read_text(out / "report.html");
  EXPECT_NE(html.find(R"(<section id="matrix">)"), std::string::npos);
  EXPECT_NE(html.find(R"(<section id="lint">)"), std::string::npos);
  EXPECT_NE(html.find(R"(<section id="canary">)"), std::string::npos);
  EXPECT_NE(html.find(R"(<section id="aoti">)"), std::string::npos);

  // In a real browser: the grid and one diff table per release pair.
  fs::path chromium = testing::find_chromium();
  if (chromium.empty()) GTEST_SKIP() << "no chromium (ci/setup.sh installs it on Debian)";
  ProcessResult dom =
      testing::run_chromium(chromium, output_ / "profile", {"--dump-dom", "file://" + (out / "report.html").string()});
  ASSERT_TRUE(dom.succeeded()) << dom.describe() << "\n" << dom.output;
  EXPECT_NE(dom.output.find(R"(<table class="grid" data-backend="cpu">)"), std::string::npos);
  std::regex pair_heading(R"re(<h3>[0-9.]+ -&gt; [0-9.]+</h3>)re");
  auto headings =
      std::distance(std::sregex_iterator(dom.output.begin(), dom.output.end(), pair_heading), std::sregex_iterator());
  EXPECT_EQ(static_cast<std::size_t>(headings), baselines.size() - 1);
}

TEST_F(MainJob, UnknownArgumentIsOneLineAndExitTwo) {
  ProcessResult job = run_main_job({"--no-such-option"});
  EXPECT_EQ(job.exit_code, 2) << job.output;
  EXPECT_EQ(std::ranges::count(job.output, '\n'), 1) << job.output;
}

TEST(HtmlFlag, DiffWritesTheSelfContainedReportOfOneReleasePair) {
  fs::path html = fs::temp_directory_path() / ("diff-html-" + std::to_string(getpid()) + ".html");
  ProcessResult diff = testing::run_cli({"diff", (project_root() / "shim_decls" / "2.14").string(),
                                         (project_root() / "shim_decls" / "2.15").string(), "--html", html.string()});
  ASSERT_EQ(diff.exit_code, 1) << diff.output;
  std::string page = read_text(html);
  EXPECT_NE(page.find("<h3>2.14 -&gt; 2.15</h3>"), std::string::npos);
  EXPECT_NE(page.find(R"(<td class="finding">breaking</td>)"), std::string::npos);
  EXPECT_NE(page.find(R"(<script type="application/json" id="report-data">)"), std::string::npos);
  fs::remove(html);
}

TEST(HtmlFlag, MatrixWritesTheGridWithEveryCellsLog) {
  if (!ReleaseStore(ReleaseStore::default_root()).find("2.9")) GTEST_SKIP() << "the torch store lacks 2.9";
  fs::path html = fs::temp_directory_path() / ("matrix-html-" + std::to_string(getpid()) + ".html");
  ProcessResult matrix = testing::run_cli({"matrix", "--spec", tiny_matrix.string(), "--cache-dir",
                                           testing::with_shared_builds(job_cache).string(), "--html", html.string()});
  ASSERT_EQ(matrix.exit_code, 0) << matrix.output;
  std::string page = read_text(html);
  EXPECT_NE(page.find(R"(<table class="grid" data-backend="cpu">)"), std::string::npos);
  for (int cell = 0; cell < 4; ++cell) {
    EXPECT_NE(page.find("<details class=\"log\" id=\"log-" + std::to_string(cell) + "\">"), std::string::npos) << cell;
  }
  fs::remove(html);
}

}  // namespace
}  // namespace abicheck
