// The compiled-in shim index (generate_shim_index.py at build time) must date every shim exactly as
// reading the inventories does, and must be what the audit uses for the project's shim_decls/.
#include "audit/shim_catalog.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "audit/embedded_shim_index.h"
#include "core/project_paths.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

TEST(ShimCatalog, EmbeddedIndexDescribesTheProjectsShimDecls) {
  EXPECT_TRUE(embedded_shim_index_describes(ReleaseHistory::open(project_root() / "shim_decls")));
}

TEST(ShimCatalog, EmbeddedIndexDatesEveryShimAsTheInventoriesDo) {
  // A copy lives elsewhere, so the catalog reads its JSON instead of the compiled-in index.
  const fs::path copy = fs::temp_directory_path() / ("shim-decls-copy-" + std::to_string(getpid()));
  for (const auto& release : fs::directory_iterator(project_root() / "shim_decls")) {
    if (!fs::exists(release.path() / "inventory.json")) continue;
    fs::create_directories(copy / release.path().filename());
    fs::copy_file(release.path() / "inventory.json", copy / release.path().filename() / "inventory.json");
  }
  ASSERT_FALSE(embedded_shim_index_describes(ReleaseHistory::open(copy)));
  ShimCatalog from_json = ShimCatalog::load_directory(copy);
  fs::remove_all(copy);
  ShimCatalog embedded = ShimCatalog::load_directory(project_root() / "shim_decls");

  EXPECT_EQ(embedded.releases(), from_json.releases());
  ASSERT_GT(kEmbeddedShimCount, 0u);
  for (std::size_t i = 0; i < kEmbeddedShimCount; ++i) {
    const char* name = kEmbeddedShims[i].name;
    const ShimOrigin* expected = from_json.find(name);
    const ShimOrigin* actual = embedded.find(name);
    ASSERT_NE(expected, nullptr) << name;
    ASSERT_NE(actual, nullptr) << name;
    EXPECT_EQ(actual->introduced, expected->introduced) << name;
    EXPECT_EQ(actual->backend, expected->backend) << name;
  }
}

}  // namespace
}  // namespace abicheck
