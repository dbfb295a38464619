// Regenerates the baseline of every installed release into a temporary directory and compares it
// byte for byte with the committed shim_decls/<release>/: the baselines are deterministic, and the
// committed ones are what the current code produces. About 10-45 s per release on 2 cores, of which the
// behaviour probe (compiled and run against the release's libtorch) is a few seconds.
#include <gtest/gtest.h>

#include <fstream>
#include <future>
#include <sstream>

#include "baseline/release_baseline.h"
#include "core/project_paths.h"
#include "core/scoped_temp_dir.h"
#include "core/tool_error.h"
#include "store/release_store.h"

namespace abicheck {
namespace {

std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(BaselineDriftStore, RegeneratedBaselinesMatchTheCommittedOnes) {
  std::vector<StoredRelease> releases = ReleaseStore(ReleaseStore::default_root()).releases();
  if (releases.empty()) GTEST_SKIP() << "no torch release installed in the store";
  ScopedTempDir work("baseline-drift");
  int compared = 0;
  for (const auto& release : releases) {
    std::string name = release.version.to_string();
    std::filesystem::path committed = project_root() / "shim_decls" / name;
    if (!std::filesystem::exists(committed)) {
      ADD_FAILURE() << "torch " << name << " is installed but shim_decls/" << name << " is not committed";
      continue;
    }
    BaselineBuild build = build_baseline(release.include_dir, release.lib_dir);
    EXPECT_TRUE(build.problems.empty()) << name << ": " << build.problems.front().name << " "
                                        << build.problems.front().problem;
    // The conversions' behaviour, run against the release's own libtorch (a few CPU-seconds).
    build.baseline.behaviour = release_behaviour(release.include_dir, release.lib_dir, build.baseline.inventory);
    write_baseline(build.baseline, work.path() / name);
    for (std::string_view file : {kInventoryFile, kAbiModelFile, kExportsFile, kBehaviourFile}) {
      EXPECT_EQ(read_bytes(work.path() / name / file), read_bytes(committed / file))
          << "shim_decls/" << name << "/" << file << " drifted: regenerate it with torch-abi-check baseline --torch "
          << name;
    }
    ++compared;
  }
  EXPECT_GT(compared, 0);
}

// The operator baselines need each release's own Python to import its torch, which is mostly waiting
// for the libraries to come off the disk; so every release is listed at once, not one after another.
TEST(BaselineDriftStore, OperatorSchemasMatchTheCommittedOnes) {
  std::vector<StoredRelease> releases = ReleaseStore(ReleaseStore::default_root()).releases();
  if (releases.empty()) GTEST_SKIP() << "no torch release installed in the store";
  std::vector<std::future<std::string>> dumps;
  for (const auto& release : releases) {
    dumps.push_back(std::async(std::launch::async, [&release] {
      return operator_schemas_to_text(dump_operator_schemas(release.python, release.lib_dir));
    }));
  }
  for (std::size_t i = 0; i < releases.size(); ++i) {
    std::string name = releases[i].version.to_string();
    std::istringstream dumped(dumps[i].get());
    std::istringstream committed(read_bytes(project_root() / "shim_decls" / name / kOperatorsFile));
    std::string dumped_line, committed_line;
    int line = 0;
    // The first line that differs, not two 400 KB strings.
    while (true) {
      bool more_dumped = static_cast<bool>(std::getline(dumped, dumped_line));
      bool more_committed = static_cast<bool>(std::getline(committed, committed_line));
      ++line;
      if (!more_dumped && !more_committed) break;
      if (!more_dumped) dumped_line = "(end of file)";
      if (!more_committed) committed_line = "(end of file)";
      if (more_dumped != more_committed || dumped_line != committed_line) {
        ADD_FAILURE() << "shim_decls/" << name << "/" << kOperatorsFile << " drifted at line " << line
                      << ": committed '" << committed_line << "', now '" << dumped_line
                      << "': regenerate it with torch-abi-check baseline --torch " << name;
        break;
      }
    }
  }
}

TEST(BaselineFidelity, DeclaredFunctionMissingFromTheModelOrTheLibraryIsReported) {
  ShimInventory inventory{TorchVersion{2, 11, 0},
                          {{"torch_a", DeclarationKind::Function, "", "h", 1, "", TorchVersion{2, 9, 0}},
                           {"torch_b", DeclarationKind::Function, "", "h", 2, "USE_CUDA", TorchVersion{2, 9, 0}},
                           {"torch_c", DeclarationKind::Function, "", "h", 3, "USE_XPU", TorchVersion{2, 9, 0}}}};
  ShimExports exports{{{"libtorch_cpu.so", {"torch_a"}}, {"libtorch_cuda.so", {}}}};
  auto problems = check_fidelity(inventory, {"torch_a", "torch_b", "torch_c"}, exports);
  ASSERT_EQ(problems.size(), 1u);  // torch_c's library is not in a Linux wheel: not checkable
  EXPECT_EQ(problems[0].name, "torch_b");
  EXPECT_NE(problems[0].problem.find("libtorch_cuda.so"), std::string::npos);
  problems = check_fidelity(inventory, {"torch_b", "torch_c"}, {});
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].name, "torch_a");
  EXPECT_NE(problems[0].problem.find("ABI model"), std::string::npos);
}

TEST(BaselineFiles, GzipRoundTripsAndRejectsTruncation) {
  std::string text(100000, 'x');
  std::string packed = gzip_compress(text);
  EXPECT_EQ(gzip_compress(text), packed);  // no time stamp: byte-stable
  EXPECT_EQ(gzip_decompress(packed, "t"), text);
  EXPECT_THROW(gzip_decompress(packed.substr(0, packed.size() / 2), "t"), ToolError);
}

}  // namespace
}  // namespace abicheck
