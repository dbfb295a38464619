#include "core/build_cache.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <thread>

namespace abicheck {
namespace {

namespace fs = std::filesystem;

class BuildCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("build-cache-test-" + std::to_string(getpid()));
    fs::remove_all(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  // A build that writes one library and counts how often it ran.
  BuildCache::Builder library_builder(bool cacheable = true) {
    return [this, cacheable](const fs::path& directory) {
      ++runs_;
      std::ofstream(directory / "libx.so") << "ELF";
      BuildOutcome outcome;
      outcome.manifest = {.built = true, .detail = "built", .seconds = 1.5, .outputs = {"libx.so"}};
      outcome.log = "$ g++ x.cpp\n";
      outcome.cacheable = cacheable;
      return outcome;
    };
  }

  fs::path root_;
  std::atomic<int> runs_ = 0;
};

TEST_F(BuildCacheTest, ASecondRunFindsTheFirstRunsEntry) {
  BuildCache cache(root_);
  CachedBuild first = cache.build("k1", false, library_builder());
  EXPECT_FALSE(first.cached);
  CachedBuild second = cache.build("k1", false, library_builder());
  EXPECT_TRUE(second.cached);
  EXPECT_EQ(runs_, 1);
  EXPECT_EQ(second.directory, root_ / "k1");
  EXPECT_TRUE(second.manifest.built);
  EXPECT_EQ(second.manifest.detail, "built");
  EXPECT_EQ(second.manifest.seconds, 1.5);
  EXPECT_EQ(second.manifest.outputs, std::vector<std::string>{"libx.so"});
  EXPECT_EQ(second.log, "$ g++ x.cpp\n");
  EXPECT_TRUE(fs::exists(second.directory / "libx.so"));
}

TEST_F(BuildCacheTest, FreshBuildsAgainAndAnotherKeyIsAnotherEntry) {
  BuildCache cache(root_);
  cache.build("k1", false, library_builder());
  EXPECT_FALSE(cache.build("k1", true, library_builder()).cached);
  EXPECT_FALSE(cache.build("k2", false, library_builder()).cached);
  EXPECT_EQ(runs_, 3);
}

TEST_F(BuildCacheTest, AnUncacheableBuildLeavesNoEntry) {
  BuildCache cache(root_);
  CachedBuild killed = cache.build("k1", false, library_builder(false));
  EXPECT_FALSE(killed.cached);
  EXPECT_FALSE(fs::exists(root_ / "k1"));
  EXPECT_FALSE(cache.build("k1", false, library_builder()).cached);
  EXPECT_EQ(runs_, 2);
}

TEST_F(BuildCacheTest, AnEntryWithoutItsManifestIsBuiltAgain) {
  fs::create_directories(root_ / "k1");
  std::ofstream(root_ / "k1" / "half-written.o") << "";
  BuildCache cache(root_);
  EXPECT_FALSE(cache.build("k1", false, library_builder()).cached);
  EXPECT_FALSE(fs::exists(root_ / "k1" / "half-written.o"));
  EXPECT_EQ(runs_, 1);
}

TEST_F(BuildCacheTest, BuildersOfOneKeyTakeTurnsAndBuildOnce) {
  BuildCache cache(root_);
  std::vector<std::thread> threads;
  std::atomic<int> cached = 0;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      if (cache.build("k1", false, library_builder()).cached) ++cached;
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(runs_, 1);
  EXPECT_EQ(cached, 3);
}

}  // namespace
}  // namespace abicheck
