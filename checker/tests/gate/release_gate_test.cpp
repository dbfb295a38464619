// The release gate run for real: 2.15's torch package directory from the store stands in for a
// candidate that is not a store release, checked against 2.14 with a two-cell CPU matrix (the
// builds of 2.9 and 2.14 loaded into it). What it must find is what the committed baselines and
// `lint headers` say about 2.15: two generated shims added without a guard, and the H001 errors.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/project_paths.h"
#include "store/release_store.h"
#include "support/build_paths.h"
#include "support/cli.h"
#include "support/files.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

const fs::path gate_fixtures = fs::path(TORCH_ABI_CHECK_FIXTURES) / "gate";
// In the build tree, so a re-run reuses the two builds and cells.
const fs::path gate_cache = fs::path(TORCH_ABI_CHECK_CLI).parent_path() / "gate-test-cache";

using testing::read_json;
using testing::read_text;

class ReleaseGate : public ::testing::Test {
 protected:
  void SetUp() override {
    ReleaseStore store(ReleaseStore::default_root());
    auto candidate = store.find("2.15");
    if (!candidate || !store.find("2.9") || !store.find("2.14"))
      GTEST_SKIP() << "the torch store lacks 2.9, 2.14 or 2.15";
    candidate_dir_ = candidate->torch_dir;
    testing::with_shared_builds(gate_cache);
    output_ = fs::temp_directory_path() / ("release-gate-test-" + std::to_string(getpid()));
    fs::create_directories(output_);
  }
  void TearDown() override { fs::remove_all(output_); }

  fs::path candidate_dir_;
  fs::path output_;
};

TEST_F(ReleaseGate, TorchDirCandidateAgainstTheLastReleaseFindsWhatTheBaselinesSay) {
  ProcessResult gate =
      testing::run_cli({"release-gate", "--candidate", candidate_dir_.string(), "--last", "2.14", "--spec",
                        (gate_fixtures / "small-matrix.toml").string(), "--canary-spec",
                        (fs::path(TORCH_ABI_CHECK_FIXTURES) / "canary/tiny/canary.toml").string(), "--cache-dir",
                        gate_cache.string(), "--json", (output_ / "gate.json").string(), "--html",
                        (output_ / "gate.html").string(), "--junit", (output_ / "gate.xml").string(), "--no-aoti"});
  ASSERT_EQ(gate.exit_code, 1) << gate.describe() << "\n" << gate.output;
  EXPECT_NE(gate.output.find("release gate: torch 2.15.0 against 2.14: fails (diff, lint)"), std::string::npos)
      << gate.output;

  nlohmann::json document = read_json(output_ / "gate.json");
  EXPECT_FALSE(document.contains("aoti")) << "--no-aoti";
  EXPECT_EQ(document["gate"]["candidate"], "2.15.0");
  EXPECT_EQ(document["gate"]["last"], "2.14");
  ASSERT_TRUE(document.contains("canary"));
  EXPECT_EQ(document["canary"]["releases"], nlohmann::json::array({"2.15.0"})) << "the candidate alone";
  EXPECT_EQ(document["canary"]["packages"][0]["cells"][0]["observed"], "loaded");
  EXPECT_EQ(document["gate"]["from_store"], false);

  // The diff of the candidate's own headers and libraries equals the diff of the committed baselines.
  ProcessResult committed = testing::run_cli({"diff", (project_root() / "shim_decls/2.14").string(),
                                              (project_root() / "shim_decls/2.15").string(), "--json",
                                              (output_ / "committed-diff.json").string()});
  ASSERT_EQ(committed.exit_code, 1) << committed.output;
  ASSERT_EQ(document["diffs"].size(), 1u);
  EXPECT_EQ(document["diffs"][0], read_json(output_ / "committed-diff.json")["diffs"][0]);

  // The header lint is `lint headers` of 2.15, paths relative to the candidate's include dir.
  const auto& diagnostics = document["lint"]["diagnostics"];
  ASSERT_FALSE(diagnostics.empty());
  EXPECT_TRUE(std::ranges::any_of(diagnostics, [](const nlohmann::json& d) {
    return d["rule"] == "H001" && d["file"] == "torch/csrc/inductor/aoti_torch/c/shim.h";
  })) << diagnostics.dump(1);

  // Old builds loaded into the candidate: 2.9 and the last release ("newest" inside the gate), both pass.
  const auto& cells = document["matrix"]["cells"];
  ASSERT_EQ(cells.size(), 2u) << cells.dump(1);
  EXPECT_EQ(cells[0]["build"], "2.9");
  EXPECT_EQ(cells[1]["build"], "2.14");
  for (const auto& cell : cells) {
    EXPECT_EQ(cell["runtime"], "2.15");
    EXPECT_EQ(cell["outcome"], "pass") << cell.dump(1);
  }

  std::string html = read_text(output_ / "gate.html");
  for (const char* part : {"<h1>torch 2.15.0 release gate</h1>", R"(<section id="matrix">)", R"(<section id="diff">)",
                           R"(<section id="lint">)", "<h3>2.14 -&gt; 2.15</h3>",
                           "release gate: torch 2.15.0 against 2.14: fails (diff, lint)"}) {
    EXPECT_NE(html.find(part), std::string::npos) << part;
  }
  std::string junit = read_text(output_ / "gate.xml");
  EXPECT_NE(junit.find(R"(classname="release-gate.diff")"), std::string::npos);
  EXPECT_NE(junit.find(R"(classname="release-gate.lint")"), std::string::npos);
  EXPECT_NE(junit.find("<failure"), std::string::npos);
}

// The .pt2 packages of an earlier release loaded into the candidate: the reference models compiled by
// 2.9.1, loaded into 2.10.0 as a candidate by both loaders. What loading them showed by hand
// (fixtures/aoti/expected.json, held by the AotiPackages test too) is what the gate must say: 2.10.0's
// Python loader break, a gate finding with its cause and its verified workaround; the C++ loader (a
// runner built against the candidate) runs every package and matches eager, so no finding of its own.
TEST_F(ReleaseGate, PackagesOfAnEarlierReleaseThatNoLongerLoadAreTheCandidatesFinding) {
  ReleaseStore store(ReleaseStore::default_root());
  if (!store.find("2.9.1") || !store.find("2.10.0")) GTEST_SKIP() << "the torch store lacks 2.9.1 or 2.10.0";
  const nlohmann::json expected = read_json(fs::path(TORCH_ABI_CHECK_FIXTURES) / "aoti" / "expected.json");
  const nlohmann::json& rule = expected["runtimes"]["2.10.0"];
  ProcessResult gate = testing::run_cli({"release-gate", "--candidate", "2.10.0", "--last", "2.9", "--spec",
                                         (gate_fixtures / "small-matrix.toml").string(), "--no-canary", "--aoti-torch",
                                         "2.9.1", "--cache-dir", gate_cache.string(), "--json",
                                         (output_ / "gate.json").string(), "--html", (output_ / "gate.html").string()});
  ASSERT_EQ(gate.exit_code, 1) << gate.describe() << "\n" << gate.output;
  nlohmann::json document = read_json(output_ / "gate.json");
  ASSERT_TRUE(document.contains("aoti")) << gate.output;
  const nlohmann::json& aoti = document["aoti"];
  EXPECT_EQ(aoti["releases"], nlohmann::json::array({"2.10.0"})) << "the candidate alone";
  ASSERT_FALSE(aoti["packages"].empty());
  for (const auto& package : aoti["packages"]) {
    EXPECT_EQ(package["build"], "2.9.1");
    EXPECT_EQ(package["compile_error"], "") << package.dump(1);
    ASSERT_EQ(package["cells"].size(), 2u) << "a cell per loader under the candidate";
    const nlohmann::json& cpp = package["cells"][1];
    EXPECT_EQ(cpp["loader"], "cpp");
    EXPECT_TRUE(cpp["ran"].get<bool>());
    EXPECT_EQ(cpp["outcome"], expected["cpp_loader"]["default_outcome"]) << cpp.dump(1);
    const nlohmann::json& cell = package["cells"][0];
    EXPECT_EQ(cell["loader"], "python");
    EXPECT_TRUE(cell["ran"].get<bool>());
    EXPECT_EQ(cell["outcome"], rule["outcome"]) << cell.dump(1);
    for (const char* field : {"detail", "cause", "workaround"}) {
      EXPECT_NE(cell[field].get<std::string>().find(rule[std::string(field) + "_contains"].get<std::string>()),
                std::string::npos)
          << cell.dump(1);
    }
    EXPECT_EQ(cell["workaround_verified"], rule["workaround_verified"]) << cell.dump(1);
  }
  bool found = false;
  for (const auto& finding : document["verdict"]["findings"]) {
    found = found ||
            (finding["stage"] == "aoti" && finding["kind"] == "aoti-load-failed" && finding["where"] == "torch 2.10.0");
    EXPECT_EQ(finding["where"].get<std::string>().find("C++ loader"), std::string::npos) << finding.dump(1);
  }
  EXPECT_TRUE(found) << document["verdict"].dump(1);
  EXPECT_NE(gate.output.find("fails ("), std::string::npos);
  EXPECT_NE(gate.output.find("aoti)"), std::string::npos) << gate.output;
  EXPECT_NE(read_text(output_ / "gate.html").find(R"(<section id="aoti">)"), std::string::npos);
}

// Bad input stops the gate before any stage runs: one error line, exit 2, no report file.
struct BadGateInput {
  const char* name;
  std::vector<std::string> arguments;  // after --candidate's value
  std::string candidate;               // "" = 2.15's torch dir
  std::string expected_message;
};

class ReleaseGateBadInput : public ReleaseGate {};

TEST_F(ReleaseGateBadInput, EachIsOneLineAndExitTwo) {
  fs::path no_python = output_ / "env" / "lib" / "python3.11" / "site-packages" / "torch";
  fs::create_directories(no_python / "include" / "torch");
  std::ofstream(no_python / "version.py") << "__version__ = '2.16.0a0+git0123abc'\ncuda: Optional[str] = None\n";

  const fs::path no_baselines = output_ / "no-baselines";  // a directory without one
  fs::create_directories(no_baselines);
  const std::vector<BadGateInput> cases = {
      {"neither a path nor a version",
       {},
       "no/such/torch",
       "no/such/torch: neither a torch version (2.10, 2.10.1, newest) nor an existing torch directory"},
      {"a directory that is not torch", {}, gate_fixtures.string(), "not a torch package directory"},
      {"an environment without python", {}, no_python.string(), "no python for this torch"},
      {"last release not older", {"--last", "2.15"}, "", "--last 2.15: not older than the candidate 2.15"},
      {"no baseline of the last release",
       {"--last", "2.8", "--baselines", no_baselines.string()},
       "",
       "no committed baseline of the last release 2.8"},
      {"no baseline older than the candidate",
       {"--baselines", no_baselines.string()},
       "",
       "no committed baseline older than the candidate 2.15"},
      {"a bad last version", {"--last", "two"}, "", "two"},
      {"an aoti build not older",
       {"--aoti-torch", "2.15"},
       "",
       "--aoti-torch 2.15.0: not older than the candidate 2.15"},
      {"a bad spec",
       {"--spec", (fs::path(TORCH_ABI_CHECK_FIXTURES) / "report" / "truncated.json").string()},
       "",
       "truncated.json"},
  };
  for (const auto& bad : cases) {
    fs::path report = output_ / "gate.json";
    std::vector<std::string> arguments = {
        "release-gate",     "--candidate",   bad.candidate.empty() ? candidate_dir_.string() : bad.candidate,
        "--json",           report.string(), "--cache-dir",
        gate_cache.string()};
    arguments.insert(arguments.end(), bad.arguments.begin(), bad.arguments.end());
    ProcessResult result = testing::run_cli(arguments);
    EXPECT_EQ(result.exit_code, 2) << bad.name << "\n" << result.output;
    EXPECT_EQ(std::ranges::count(result.output, '\n'), 1) << bad.name << "\n" << result.output;
    EXPECT_TRUE(result.output.starts_with("torch-abi-check: error: ")) << bad.name << "\n" << result.output;
    EXPECT_NE(result.output.find(bad.expected_message), std::string::npos) << bad.name << "\n" << result.output;
    EXPECT_FALSE(fs::exists(report)) << bad.name;
  }
}

}  // namespace
}  // namespace abicheck
