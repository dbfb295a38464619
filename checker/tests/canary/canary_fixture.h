#pragma once

// A canary fixture (fixtures/canary/NAME: canary.toml, make_wheels.py, expected.json) made ready in a
// private work folder: the spec copied beside the wheels that the fixture's script builds, and run
// under two stored releases the way a user runs `canary`.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "core/process.h"
#include "core/project_paths.h"
#include "store/release_store.h"
#include "support/build_paths.h"
#include "support/cli.h"

namespace abicheck::testing {

class CanaryFixtureTest : public ::testing::Test {
 protected:
  // Skips unless the store has both releases; otherwise builds the fixture's wheels into work_.
  void prepare(const std::string& fixture, const std::string& older, const std::string& newer) {
    fixture_ = std::filesystem::path(TORCH_ABI_CHECK_FIXTURES) / "canary" / fixture;
    older_ = older;
    newer_ = newer;
    ReleaseStore store(ReleaseStore::default_root());
    if (!store.find(older) || !store.find(newer)) GTEST_SKIP() << "the torch store lacks " << older << " or " << newer;
    work_ = std::filesystem::temp_directory_path() / ("canary-" + fixture + "-" + std::to_string(getpid()));
    std::filesystem::remove_all(work_);
    std::filesystem::create_directories(work_);
    std::filesystem::copy_file(fixture_ / "canary.toml", work_ / "canary.toml");
    ProcessResult made = run_process({.argv = {host_python(), (fixture_ / "make_wheels.py").string(), work_.string()}});
    ASSERT_TRUE(made.succeeded()) << made.output;
  }
  void TearDown() override {
    if (!work_.empty()) std::filesystem::remove_all(work_);
  }

  // `canary` on the fixture's spec under both releases, with a cache of its own; the report document.
  nlohmann::json run_fixture(ProcessResult& run) {
    const std::filesystem::path report = work_ / "canary.json";
    run = run_cli({"canary", "--spec", (work_ / "canary.toml").string(), "--torch", older_, "--torch", newer_,
                   "--cache-dir", (work_ / "cache").string(), "-j", "2", "--json", report.string()});
    return std::filesystem::exists(report) ? nlohmann::json::parse(std::ifstream(report)) : nlohmann::json();
  }

  // Calls `check` with each cell of every package named in expected.json's "cells" (its release as
  // "2.N"), and fails for a package the report lacks.
  void for_each_expected_cell(
      const nlohmann::json& section, const nlohmann::json& expected, const std::string& output,
      const std::function<void(const std::string& name, const nlohmann::json& by_release, const std::string& release,
                               const nlohmann::json& cell)>& check) {
    for (const auto& [name, by_release] : expected["cells"].items()) {
      bool found = false;
      for (const auto& package : section["packages"]) {
        if (package["name"] != name) continue;
        found = true;
        for (const auto& cell : package["cells"]) {
          const std::string full = cell["release"].get<std::string>();
          check(name, by_release, full.substr(0, full.rfind('.')), cell);
        }
      }
      EXPECT_TRUE(found) << name << "\n" << output;
    }
  }

  std::filesystem::path fixture_;
  std::filesystem::path work_;
  std::string older_;
  std::string newer_;
};

}  // namespace abicheck::testing
