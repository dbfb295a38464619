// The release-day drill (issue 46): the day a torch release is out, it is in the store and nothing in
// the tree knows it yet, neither a committed baseline nor an entry of a table. The drill makes the
// newest stored release that release: each command runs once with the committed baselines and once
// with a copy that withholds the newest release's (--baselines), and must judge the same; where a
// command needs what the withheld baseline held, it says it computed it from the store. The newest
// release is the store's, never named here, so the drill holds for whatever release comes next.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "baseline/release_history.h"
#include "core/project_paths.h"
#include "store/release_store.h"
#include "support/build_paths.h"
#include "support/cli.h"
#include "support/files.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const fs::path fixtures = fs::path(TORCH_ABI_CHECK_FIXTURES);
// In the build tree, so a re-run reuses the matrix's cells and the check's builds.
const fs::path drill_cache = fs::path(TORCH_ABI_CHECK_CLI).parent_path() / "release-day-drill-cache";

using testing::read_json;

// One command's judgement: its exit code and the report document's verdict (lines and findings).
struct Judged {
  int exit_code = -1;
  json verdict;
  json document;
  std::string output;
};

class ReleaseDayDrill : public ::testing::Test {
 protected:
  void SetUp() override {
    auto releases = ReleaseStore(ReleaseStore::default_root()).releases();
    const ReleaseHistory committed = ReleaseHistory::open(project_baselines_dir());
    if (releases.size() < 2) GTEST_SKIP() << "the torch store holds fewer than two releases";
    newest_ = releases.back().version.minor_release();
    if (!committed.has(newest_)) {
      GTEST_SKIP() << "the newest stored release, " << newest_.to_string()
                   << ", has no committed baseline: it is release day for real, not a drill";
    }
    output_ = fs::temp_directory_path() / ("release-day-drill-" + std::to_string(getpid()));
    withheld_ = output_ / "withheld";
    fs::create_directories(withheld_);
    for (const auto& release : committed.releases()) {
      if (release != newest_)
        fs::create_directory_symlink(committed.baseline_dir(release), withheld_ / release.to_string());
    }
  }
  void TearDown() override { fs::remove_all(output_); }

  // Runs `arguments` with the baselines given, writing its report to `name`.json.
  Judged run(std::vector<std::string> arguments, const fs::path& baselines, const std::string& name) {
    const fs::path report = output_ / (name + ".json");
    arguments.insert(arguments.end(), {"--baselines", baselines.string(), "--json", report.string()});
    ProcessResult result = testing::run_cli(arguments);
    Judged judged{result.exit_code.value_or(-1), json(), json(), result.output};
    if (fs::exists(report)) {
      judged.document = read_json(report);
      judged.verdict = judged.document["verdict"];
    }
    return judged;
  }

  // The command run with the newest release known and withheld: both judge, and the same.
  std::pair<Judged, Judged> run_both(const std::vector<std::string>& arguments, const std::string& name) {
    Judged known = run(arguments, project_baselines_dir(), name + "-known");
    Judged withheld = run(arguments, withheld_, name + "-withheld");
    EXPECT_TRUE(known.exit_code == 0 || known.exit_code == 1) << known.output;
    EXPECT_EQ(withheld.exit_code, known.exit_code) << withheld.output;
    EXPECT_FALSE(known.verdict.is_null()) << known.output;
    EXPECT_EQ(withheld.verdict, known.verdict) << "known:\n"
                                               << known.verdict.dump(1) << "\nwithheld:\n"
                                               << withheld.verdict.dump(1);
    return {std::move(known), std::move(withheld)};
  }

  TorchVersion newest_;
  fs::path output_;
  fs::path withheld_;
};

// The main job diffs the newest release against the last committed baseline with a baseline built from
// the store, and lints its headers with the inventory that build collected.
TEST_F(ReleaseDayDrill, MainJobDiffsAndLintsTheNewestReleaseBuiltFromTheStore) {
  const fs::path cache = testing::with_shared_builds(drill_cache / "ci");
  auto [known, withheld] =
      run_both({"ci", "--spec", (fixtures / "report" / "tiny-matrix.toml").string(), "--no-canary", "--no-aoti",
                "--cache-dir", cache.string(), "--out", (output_ / "reports").string()},
               "ci");
  EXPECT_NE(withheld.output.find("diff: no committed baseline of " + newest_.to_string() + " in " + withheld_.string() +
                                 ": built from the store's torch"),
            std::string::npos)
      << withheld.output;
  for (const Judged* job : {&known, &withheld}) {
    ASSERT_FALSE(job->document["diffs"].empty()) << job->output;
    EXPECT_EQ(job->document["diffs"].back()["new"], newest_.to_string());
  }
}

// The gate never reads the candidate's own baseline: a candidate that has none is judged the same.
TEST_F(ReleaseDayDrill, ReleaseGateOfTheNewestReleaseNeedsNoBaselineOfIt) {
  const fs::path cache = testing::with_shared_builds(drill_cache / "gate");
  auto [known, withheld] = run_both(
      {"release-gate", "--candidate", newest_.to_string(), "--spec", (fixtures / "gate" / "small-matrix.toml").string(),
       "--no-canary", "--no-aoti", "--cache-dir", cache.string()},
      "gate");
  EXPECT_EQ(withheld.document["gate"]["last"], known.document["gate"]["last"]);
}

// check builds with the newest release and lints with it as B: E011 needs B's operator schemas, which
// the lint lists with the release's own Python when its baseline is withheld.
TEST_F(ReleaseDayDrill, CheckOfAProjectBuiltWithTheNewestReleaseComputesWhatItsBaselineHeld) {
  const std::string project = "operator_changed";
  const fs::path work = testing::with_shared_builds(drill_cache / "check" / project);
  auto [known, withheld] =
      run_both({"check", (fixtures / "check" / project).string(), "--work-dir", work.string()}, "check");
  const std::string computed = "lint: " + withheld_.string() + ": no baseline of " + newest_.to_string() +
                               "; its inventory and operator schemas computed from";
  EXPECT_TRUE(std::ranges::any_of(withheld.document["check"]["notes"], [&](const json& note) {
    return note.get<std::string>().starts_with(computed);
  })) << withheld.document["check"]["notes"].dump(1);
  EXPECT_TRUE(std::ranges::any_of(known.verdict["findings"], [](const json& f) { return f["kind"] == "E011"; }))
      << "the drill needs a finding that reads B's baseline: " << known.verdict.dump(1);
}

// The header lint collects the newest release's inventory from its headers instead of reusing the
// committed one, and compares it with the same earlier baselines.
TEST_F(ReleaseDayDrill, LintHeadersOfTheNewestReleaseCollectsItsInventory) {
  auto [known, withheld] = run_both({"lint", "headers", "--torch", newest_.to_string()}, "headers");
  EXPECT_NE(withheld.output.find("inventory: collected from the headers"), std::string::npos) << withheld.output;
}

// The extension lint, built with the newest release, computes its inventory and operator schemas: E003,
// E010 and E011 judge as with the baseline, and a target of the newest release is still a known release,
// taken from the store (E005 reads 0x0210 as a mistyped 2.10 when 2.16 is no known release).
TEST_F(ReleaseDayDrill, LintExtensionBuiltWithTheNewestReleaseComputesWhatItsBaselineHeld) {
  const fs::path project = output_ / "extension";
  fs::create_directories(project);
  for (const char* rule : {"E003", "E005", "E010", "E011"}) {
    fs::copy(fixtures / "lint" / "extension" / rule / "bad", project / rule, fs::copy_options::recursive);
  }
  std::ofstream(project / "targets_newest.cpp")
      << "#define TORCH_TARGET_VERSION " << newest_.to_abi_hex() << "\n#include <torch/csrc/stable/version.h>\n";
  auto [extension_known, extension_withheld] =
      run_both({"lint", "extension", project.string(), "--torch", newest_.to_string()}, "extension");
  EXPECT_NE(extension_withheld.output.find("no baseline of " + newest_.to_string() +
                                           "; its inventory and operator schemas computed from"),
            std::string::npos)
      << extension_withheld.output;
  std::map<std::string, int> kinds;
  for (const auto& finding : extension_known.verdict["findings"]) {
    ++kinds[finding["kind"].get<std::string>()];
    const bool at_newest_target = finding["where"].get<std::string>().find("targets_newest.cpp") != std::string::npos;
    EXPECT_FALSE(at_newest_target && finding["kind"] == "E005") << finding.dump();
  }
  for (const char* rule : {"E003", "E010", "E011"}) EXPECT_GT(kinds[rule], 0) << rule << " needs B's baseline";
}

// Nothing in the tool's code names the newest release: not a version literal, not an ABI value. Words in
// comments are history, not knowledge.
TEST_F(ReleaseDayDrill, NoCodeNamesTheNewestRelease) {
  const std::string minor = std::to_string(newest_.minor);
  const std::regex names_it("\\{\\s*" + std::to_string(newest_.major) + ",\\s*" + minor + "\\b|\"" +
                                std::to_string(newest_.major) + "\\." + minor + "(\\.\\d+)?\"|" +
                                newest_.to_abi_hex().substr(0, 6),
                            std::regex::icase);
  std::vector<std::string> naming;
  for (const fs::path& folder : {project_root() / "checker" / "src", project_root() / "matrix"}) {
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
      const std::string extension = entry.path().extension().string();
      const bool hash_comments = extension == ".py" || extension == ".toml";
      if (!hash_comments && extension != ".cpp" && extension != ".h" && extension != ".c") continue;
      std::ifstream stream(entry.path());
      std::string line;
      for (int number = 1; std::getline(stream, line); ++number) {
        std::string code = line.substr(0, line.find(hash_comments ? "#" : "//"));
        if (std::regex_search(code, names_it)) naming.push_back(entry.path().string() + ":" + std::to_string(number));
      }
    }
  }
  EXPECT_TRUE(naming.empty()) << "names " << newest_.to_string() << ": " << ::testing::PrintToString(naming);
}

}  // namespace
}  // namespace abicheck
