// The report in a real browser: a small real matrix run (the reference kernels, CPU, from the store)
// is rendered with `report --html`, loaded into headless chromium, and the DOM after the page's
// script ran must hold the grid with one coloured cell per matrix cell and the linked log opened.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "report/headless_chromium.h"
#include "support/build_paths.h"
#include "support/cli.h"
#include "support/files.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;
using testing::find_chromium;
using testing::run_chromium;

using testing::read_text;

TEST(BrowserReport, GridOfARealMatrixRunShowsInHeadlessChromium) {
  fs::path chromium = find_chromium();
  if (chromium.empty()) GTEST_SKIP() << "no chromium (ci/setup.sh installs it on Debian)";

  // Kept in the build tree so that a re-run reuses the matrix cache and does no build.
  fs::path work = fs::current_path() / "browser-report";
  fs::create_directories(work);
  fs::path matrix_json = work / "matrix.json";
  fs::path html = work / "report.html";
  ProcessResult matrix = testing::run_cli({"matrix", std::string(TORCH_ABI_CHECK_FIXTURES) + "/report/tiny-matrix.toml",
                                           "--json", matrix_json.string(), "--cache-dir", (work / "cache").string()});
  ASSERT_TRUE(matrix.exit_code == 0 || matrix.exit_code == 1) << matrix.describe() << "\n" << matrix.output;
  ProcessResult report =
      testing::run_cli({"report", matrix_json.string(), "--html", html.string(), "--title", "tiny matrix"});
  ASSERT_TRUE(report.exit_code == 0 || report.exit_code == 1) << report.describe() << "\n" << report.output;

  auto cells = nlohmann::json::parse(read_text(matrix_json))["matrix"]["cells"];
  ASSERT_FALSE(cells.empty());

  // Opened at #log-0: the page's script must open that cell's log.
  ProcessResult dom = run_chromium(chromium, work / "profile", {"--dump-dom", "file://" + html.string() + "#log-0"});
  ASSERT_TRUE(dom.succeeded()) << dom.describe() << "\n" << dom.output;

  std::regex grid_cell(R"re(<td class="cell outcome-([a-z-]+)" data-outcome="([a-z-]+)")re");
  std::map<std::string, int> dom_outcomes;
  for (auto match = std::sregex_iterator(dom.output.begin(), dom.output.end(), grid_cell);
       match != std::sregex_iterator(); ++match) {
    EXPECT_EQ((*match)[1], (*match)[2]);
    ++dom_outcomes[(*match)[2]];
  }
  std::map<std::string, int> json_outcomes;
  for (const auto& cell : cells) ++json_outcomes[cell["outcome"].get<std::string>()];
  EXPECT_EQ(dom_outcomes, json_outcomes);
  EXPECT_TRUE(std::regex_search(dom.output, std::regex(R"re(<details class="log" id="log-0" open="")re")))
      << "the script did not open the log the page was opened at";
  EXPECT_NE(dom.output.find(R"(<table class="grid" data-backend="cpu">)"), std::string::npos);

  fs::path screenshot = work / "report.png";
  fs::remove(screenshot);
  ProcessResult shot =
      run_chromium(chromium, work / "profile", {"--screenshot=" + screenshot.string(), "file://" + html.string()});
  ASSERT_TRUE(shot.succeeded()) << shot.describe() << "\n" << shot.output;
  EXPECT_GT(fs::file_size(screenshot), 10'000u);
}

}  // namespace
}  // namespace abicheck
