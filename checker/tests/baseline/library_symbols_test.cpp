// What a library gives the loader (baseline/library_symbols.h): its NEEDED and its exported names,
// read once and cached per file; where this machine's loader finds a soname; which system runtime
// defines a plain C name.
#include "baseline/library_symbols.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/process.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

class LibrarySymbolsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_ = fs::temp_directory_path() / ("library-symbols-" + std::to_string(getpid()));
    fs::remove_all(scratch_);
    fs::create_directories(scratch_);
    std::ofstream(scratch_ / "lib.cpp") << "extern \"C\" int exported_here() { return 1; }\n"
                                        << "namespace { int hidden() { return 2; } }\n"
                                        << "extern \"C\" __attribute__((visibility(\"hidden\"))) int not_exported() {\n"
                                        << "  return hidden();\n"
                                        << "}\n";
    ProcessResult built = run_process({.argv = {"c++", "-shared", "-fPIC", "-Wl,--no-as-needed", "-lm",
                                                (scratch_ / "lib.cpp").string(), "-o", library().string()},
                                       .timeout = std::chrono::minutes(2)});
    ASSERT_TRUE(built.succeeded()) << built.output;
  }
  void TearDown() override { fs::remove_all(scratch_); }

  fs::path library() const { return scratch_ / "libsample.so"; }

  fs::path scratch_;
};

TEST_F(LibrarySymbolsTest, ReadsWhatTheLoaderBindsAndWhatItOpensNext) {
  LibrarySymbols symbols = LibrarySymbols::read(library());
  EXPECT_TRUE(symbols.exports("exported_here"));
  EXPECT_FALSE(symbols.exports("not_exported"));
  EXPECT_FALSE(symbols.exports("nobody_defines_this"));
  EXPECT_NE(std::ranges::find(symbols.needed(), "libm.so.6"), symbols.needed().end());
  EXPECT_NE(std::ranges::find(symbols.needed(), "libc.so.6"), symbols.needed().end());
}

TEST_F(LibrarySymbolsTest, TheCacheFileGivesBackTheSameSymbolsAndATruncatedOneIsRefused) {
  fs::path cache = scratch_ / "cache";
  auto read = library_symbols(library(), cache);
  ASSERT_EQ(std::distance(fs::directory_iterator(cache), fs::directory_iterator()), 1);
  fs::path file = fs::directory_iterator(cache)->path();
  std::string bytes = read->serialize();
  auto back = LibrarySymbols::deserialize(bytes);
  ASSERT_TRUE(back);
  EXPECT_TRUE(back->exports("exported_here"));
  EXPECT_EQ(back->needed(), read->needed());
  EXPECT_FALSE(LibrarySymbols::deserialize(bytes.substr(0, bytes.size() - 3)));
  EXPECT_FALSE(LibrarySymbols::deserialize("another format\n"));
  // Asked again in the same process, the library is neither read nor its cache file opened.
  fs::remove(file);
  EXPECT_EQ(library_symbols(library(), cache), read);
}

TEST(SystemLibraries, TheLoaderCacheFindsTheCRuntimeAndItsPlainCNamesAreTheSystems) {
  std::optional<fs::path> libc = find_system_library("libc.so.6");
  ASSERT_TRUE(libc);
  EXPECT_TRUE(library_symbols(*libc)->exports("malloc"));
  EXPECT_FALSE(find_system_library("libnobody-has-this.so.7"));
  // libc's since glibc 2.34, librt's before: a system symbol on either.
  std::string shm = system_runtime_library_defining("shm_open");
  EXPECT_TRUE(shm == "libc.so.6" || shm == "librt.so.1") << shm;
  EXPECT_EQ(system_runtime_library_defining("nobody_defines_this"), "");
}

}  // namespace
}  // namespace abicheck
