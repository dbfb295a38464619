// The release history (baseline/release_history.h): which committed baselines there are, in release
// order, and since which release each declaration shipped.
#include "baseline/release_history.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/atomic_file.h"
#include "core/scoped_temp_dir.h"
#include "core/tool_error.h"
#include "inventory/inventory_collector.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

ShimDeclaration function(const std::string& name, const std::string& since, std::string backend = "") {
  return {name, DeclarationKind::Function, "void " + name + "(void)", "torch/csrc/stable/c/shim.h",
          1,    std::move(backend),        TorchVersion::parse(since)};
}

ShimInventory inventory(const std::string& release, std::vector<ShimDeclaration> declarations) {
  ShimInventory result{TorchVersion::parse(release), std::move(declarations), {}};
  result.sort();
  return result;
}

void commit(const fs::path& baselines, const ShimInventory& release_inventory) {
  fs::path directory = baselines / release_inventory.release.to_string();
  fs::create_directories(directory);
  write_file_atomically(directory / "inventory.json", inventory_to_json(release_inventory));
}

TEST(ReleaseHistory, ListsTheCommittedBaselinesInReleaseOrder) {
  ScopedTempDir work("release-history");
  fs::path baselines = work.path() / "shim_decls";
  commit(baselines, inventory("2.10", {function("a", "2.9")}));
  commit(baselines, inventory("2.9", {function("a", "2.9")}));
  commit(baselines, inventory("2.11", {function("a", "2.9"), function("b", "2.11")}));
  fs::create_directories(baselines / "2.12");       // no inventory.json yet: not a baseline
  fs::create_directories(baselines / "templates");  // not a release

  ReleaseHistory history = ReleaseHistory::open(baselines);
  ASSERT_EQ(history.releases().size(), 3u);
  EXPECT_EQ(history.releases()[0].to_string(), "2.9");
  EXPECT_EQ(history.releases()[1].to_string(), "2.10") << "2.10 comes after 2.9, not before it as text";
  EXPECT_EQ(history.releases()[2].to_string(), "2.11");
  EXPECT_EQ(history.baseline_dirs().front(), baselines / "2.9");
  EXPECT_TRUE(history.find(TorchVersion::parse("2.10")).has_value());
  EXPECT_FALSE(history.find(TorchVersion::parse("2.12")).has_value());
  EXPECT_EQ(history.baseline_dir(TorchVersion::parse("2.12")), baselines / "2.12");

  std::vector<ShimInventory> before = history.inventories_before(TorchVersion::parse("2.11"));
  ASSERT_EQ(before.size(), 2u);
  EXPECT_EQ(before[0].release.to_string(), "2.9");
  EXPECT_EQ(before[1].release.to_string(), "2.10");
  EXPECT_EQ(history.inventories().size(), 3u);
}

TEST(ReleaseHistory, APlatformsOwnExportsListWinsOverLinuxs) {
  ScopedTempDir work("release-history");
  fs::path baselines = work.path() / "shim_decls";
  commit(baselines, inventory("2.10", {function("a", "2.9")}));
  commit(baselines, inventory("2.11", {function("a", "2.9")}));
  write_file_atomically(baselines / "2.10" / "exports.json", "{}");
  write_file_atomically(baselines / "2.10" / "exports.macos.json", "{}");
  ReleaseHistory history = ReleaseHistory::open(baselines);
  const TorchVersion release = TorchVersion::parse("2.10");
  EXPECT_EQ(history.exports_file(release, "macos"), baselines / "2.10" / "exports.macos.json");
  EXPECT_EQ(history.exports_file(release, "windows"), baselines / "2.10" / "exports.json")
      << "Windows's torch exports what Linux's does: no list of its own";
  EXPECT_EQ(history.exports_file(release, "linux"), baselines / "2.10" / "exports.json");
  EXPECT_FALSE(history.exports_file(TorchVersion::parse("2.11"), "linux").has_value()) << "no exports recorded";
  EXPECT_FALSE(history.exports_file(TorchVersion::parse("2.12"), "linux").has_value()) << "no baseline";
}

TEST(ReleaseHistory, AMissingDirectoryIsAnEmptyHistory) {
  ScopedTempDir work("release-history");
  ReleaseHistory history = ReleaseHistory::open(work.path() / "nothing-here");
  EXPECT_TRUE(history.empty());
  EXPECT_TRUE(history.inventories_before(TorchVersion::parse("2.15")).empty());
}

TEST(ReleaseHistory, AMalformedInventoryIsAnErrorNamingItsFile) {
  ScopedTempDir work("release-history");
  fs::create_directories(work.path() / "2.10");
  write_file_atomically(work.path() / "2.10" / "inventory.json", "{\"release\": ");
  ReleaseHistory history = ReleaseHistory::open(work.path());
  try {
    history.inventories();
    FAIL() << "a truncated inventory was read";
  } catch (const ToolError& error) {
    EXPECT_NE(std::string(error.what()).find("2.10/inventory.json"), std::string::npos) << error.what();
  }
}

TEST(ReleaseHistory, FirstShippedIsTheOldestReleaseThatDeclaresItForTargets) {
  std::vector<ShimInventory> oldest_first = {
      inventory("2.9", {function("a", "2.9"), function("hidden", "2.9", std::string(kUntargetedOnly))}),
      inventory("2.10", {function("a", "2.9"), function("b", "2.10"), function("hidden", "2.10")}),
  };
  auto first = first_shipped_releases(oldest_first);
  EXPECT_EQ(first.at({"a", DeclarationKind::Function}).to_string(), "2.9");
  EXPECT_EQ(first.at({"b", DeclarationKind::Function}).to_string(), "2.10");
  EXPECT_EQ(first.at({"hidden", DeclarationKind::Function}).to_string(), "2.10")
      << "only an untargeted build saw it in 2.9: it shipped to targets in 2.10";
}

// What a compiler's "no member named 'x' in 'scope'" is looked up by (E010): the qualified name as a use
// spells it, overloads together, declared at all.
TEST(ReleaseHistory, FirstDeclaringByNameCountsEveryDeclarationByItsQualifiedName) {
  ShimDeclaration enum_constant = function("c10::DeviceType::CPU", "2.9");
  enum_constant.kind = DeclarationKind::EnumConstant;
  ShimDeclaration old_to = function("torch::stable::to(const torch::stable::Tensor &, torch::stable::Device)", "2.10");
  old_to.kind = DeclarationKind::Method;
  ShimDeclaration new_to = function("torch::stable::to(const torch::stable::Tensor &, c10::ScalarType)", "2.11");
  new_to.kind = DeclarationKind::Method;
  std::vector<ShimInventory> oldest_first = {
      inventory("2.9", {function("hidden", "2.9", std::string(kUntargetedOnly)), enum_constant}),
      inventory("2.10", {function("hidden", "2.10"), function("cuda_only", "2.10", "USE_CUDA"), old_to}),
      inventory("2.11", {old_to, new_to}),
  };
  auto first = first_declaring_releases_by_name(oldest_first);
  EXPECT_EQ(first.at({"hidden", DeclarationKind::Function}).to_string(), "2.9")
      << "declared in 2.9, if only for untargeted builds";
  EXPECT_EQ(first.at({"c10::DeviceType::CPU", DeclarationKind::EnumConstant}).to_string(), "2.9");
  EXPECT_EQ(first.at({"cuda_only", DeclarationKind::Function}).to_string(), "2.10");
  EXPECT_EQ(first.at({"torch::stable::to", DeclarationKind::Method}).to_string(), "2.10")
      << "the oldest overload declares the name";
  EXPECT_FALSE(first.contains({"CPU", DeclarationKind::EnumConstant}));
  EXPECT_EQ(first.size(), 4u);
}

}  // namespace
}  // namespace abicheck
