// An install killed half-way must never be listed and must be redone by the next install; two
// installs into one store at once must not corrupt it. Runs against a scratch store that borrows
// the default store's shared CUDA libraries (hard links), so only torch itself is downloaded. An
// install leaves bytecode for every module, and an older release without it gets it.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/process.h"
#include "store/release_store.h"
#include "support/build_paths.h"
#include "support/cli.h"

namespace fs = std::filesystem;

namespace abicheck {
namespace {

using namespace std::chrono_literals;
using testing::run_cli;

class ScratchStore : public ::testing::Test {
 protected:
  void SetUp() override {
    ReleaseStore defaults(ReleaseStore::default_root());
    auto oldest = defaults.find("2.9");
    if (!oldest || !oldest->cuda_major) GTEST_SKIP() << "needs torch 2.9 in the default store";
    root_ = fs::path(::testing::TempDir()) / fmt::format("scratch-store-{}", getpid());
    fs::remove_all(root_);
    fs::create_directories(root_ / "cuda");
    auto shared = fmt::format("cu{}", *oldest->cuda_major);
    auto linked = run_process(
        {.argv = {"cp", "-al", (defaults.root() / "cuda" / shared).string(), (root_ / "cuda" / shared).string()}});
    ASSERT_TRUE(linked.succeeded()) << linked.output;
  }
  void TearDown() override { fs::remove_all(root_); }

  std::vector<StoredRelease> listed() const { return ReleaseStore(root_).releases(); }

  // How many of the modules of the release's site-packages that `import torch._inductor` loads have no
  // bytecode beside them (each of them is compiled from source by every process that imports it):
  // torch's own, and the dependencies the store links to one shared copy (sympy, networkx...).
  static std::string modules_imported_from_source(const StoredRelease& release) {
    auto probe = run_process({.argv = {release.python.string(), "-c",
                                       "import os, sys, torch, torch._inductor, sympy, networkx\n"
                                       "site = os.path.dirname(os.path.dirname(torch.__file__))\n"
                                       "cached = [getattr(m, '__cached__', None) for m in list(sys.modules.values()) "
                                       "if (getattr(m, '__file__', None) or '').startswith(site)]\n"
                                       "print(sum(1 for c in cached if isinstance(c, str) and not os.path.exists(c)))"},
                              .extra_env = {{"PYTHONDONTWRITEBYTECODE", "1"}}});
    return probe.succeeded() ? probe.tail(1) : probe.output;
  }

  fs::path root_;
};

// One scenario, so that torch is installed once (each install is about a minute of unpacking and
// bytecode on 2 cores; two tests of their own installed it twice more, bench/HISTORY.md, issue 29).
TEST_F(ScratchStore, AKilledInstallIsNotListedAndOfTwoConcurrentRepairsOneRedoesItWhileTheOtherWaits) {
  // setsid puts the CLI, the store script and pip in one new process group, so one kill reaches
  // them all, as a machine going down would.
  fs::path half_installed = root_ / "releases/2.9.1/venv/lib/python3.11/site-packages/torch";
  std::string script = fmt::format(
      "setsid {cli} --store {root} store install 2.9 >/dev/null 2>&1 & pid=$!\n"
      "for i in $(seq 600); do [ -d {marker} ] && break; sleep 0.2; done\n"
      "sleep 1; kill -KILL -- -$pid; wait $pid; [ -d {marker} ]",
      fmt::arg("cli", TORCH_ABI_CHECK_CLI), fmt::arg("root", root_.string()),
      fmt::arg("marker", half_installed.string()));
  auto killed = run_process({.argv = {"bash", "-c", script}, .timeout = 5min});
  ASSERT_TRUE(killed.succeeded()) << "the install never reached the torch wheel: " << killed.output;
  EXPECT_TRUE(listed().empty()) << "a killed install was listed as installed";

  // Two installs at once into the store the kill left: one takes the lock and redoes the release,
  // the other waits for it and then finds the release installed. Which one is first is up to the
  // scheduler, so the two outputs are read together.
  ProcessResult first, second;
  std::thread racer([&] { first = run_cli({"--store", root_.string(), "store", "install", "2.9"}); });
  std::this_thread::sleep_for(200ms);
  second = run_cli({"--store", root_.string(), "store", "install", "2.9"});
  racer.join();
  ASSERT_TRUE(first.succeeded()) << first.output;
  ASSERT_TRUE(second.succeeded()) << second.output;
  std::string both = first.output + second.output;
  EXPECT_NE(both.find("interrupted earlier"), std::string::npos) << both;
  EXPECT_NE(both.find("waiting for another"), std::string::npos) << both;
  EXPECT_NE(both.find("already installed"), std::string::npos) << both;
  auto releases = listed();
  ASSERT_EQ(releases.size(), 1u);
  EXPECT_EQ(releases[0].version.to_full_string(), "2.9.1");
  auto imported = run_process({.argv = {releases[0].python.string(), "-c", "import torch; print(torch.__version__)"}});
  EXPECT_EQ(imported.tail(1).substr(0, imported.tail(1).find('+')), "2.9.1") << imported.output;
  EXPECT_EQ(modules_imported_from_source(releases[0]), "0");

  // A release installed before the store compiled bytecode gets it from the next install.
  fs::remove_all(releases[0].torch_dir / "__pycache__");
  fs::remove_all(releases[0].torch_dir / "_inductor" / "__pycache__");
  const fs::path manifest = root_ / "releases" / "2.9.1" / "release.json";
  nlohmann::json record = nlohmann::json::parse(std::ifstream(manifest));
  record.erase("bytecode");
  std::ofstream(manifest) << record.dump(2);
  EXPECT_NE(modules_imported_from_source(releases[0]), "0");
  auto upgraded = run_cli({"--store", root_.string(), "store", "install", "2.9"});
  ASSERT_TRUE(upgraded.succeeded()) << upgraded.output;
  EXPECT_NE(upgraded.output.find("already installed"), std::string::npos) << upgraded.output;
  EXPECT_EQ(modules_imported_from_source(releases[0]), "0") << upgraded.output;
}

}  // namespace
}  // namespace abicheck
