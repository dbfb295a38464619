// The C++ standard torch's cpp_extension gives an extension that names none, read from each stored
// release's own cpp_extension.py: C++17 up to 2.11, C++20 from 2.12 (the lint parses with it).
#include <gtest/gtest.h>

#include "core/scoped_temp_dir.h"
#include "store/release_build_setup.h"
#include "store/release_store.h"

namespace abicheck {
namespace {

TEST(CppExtensionStandard, EachStoredReleaseSaysItsOwn) {
  auto releases = ReleaseStore(ReleaseStore::default_root()).releases();
  ASSERT_FALSE(releases.empty()) << "run `torch-abi-check store install` first";
  for (const auto& release : releases) {
    SCOPED_TRACE(release.version.to_full_string());
    EXPECT_EQ(cpp_extension_standard(release.include_dir),
              release.version.minor_release() >= TorchVersion::parse("2.12") ? "c++20" : "c++17");
  }
}

TEST(CppExtensionStandard, AHeaderTreeWithoutCppExtensionIsCpp17) {
  ScopedTempDir tree("header-tree");
  EXPECT_EQ(cpp_extension_standard(tree.path() / "include"), "c++17");
}

}  // namespace
}  // namespace abicheck
