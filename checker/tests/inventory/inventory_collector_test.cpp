#include "inventory/inventory_collector.h"

#include <gtest/gtest.h>

#include "core/tool_error.h"
#include "inventory/stable_header_tree.h"
#include "store/release_store.h"
#include "support/build_paths.h"

namespace abicheck {
namespace {

const ShimDeclaration& require(const ShimInventory& inventory, std::string_view name,
                               DeclarationKind kind = DeclarationKind::Function) {
  const ShimDeclaration* found = inventory.find(name, kind);
  if (!found) throw std::runtime_error("not in the inventory: " + std::string(name));
  return *found;
}

TEST(InventoryCollector, AndCombinedGuardGivesTheVersionAndTheBackend) {
  ShimInventory inventory = collect_inventory(testing::diff_fixtures() / "and_combined_guard" / "new");
  EXPECT_EQ(inventory.release, (TorchVersion{2, 12, 0}));
  const auto& cuda = require(inventory, "torch_cuda_device_synchronize");
  EXPECT_EQ(cuda.since, (TorchVersion{2, 12, 0}));
  EXPECT_EQ(cuda.backend, "USE_CUDA");
  const auto& blob = require(inventory, "torch_from_blob");
  EXPECT_EQ(blob.since, (TorchVersion{2, 11, 0}));
  EXPECT_EQ(blob.backend, "");
  EXPECT_EQ(require(inventory, "aoti_torch_get_numel").since, (TorchVersion{2, 9, 0}));
  EXPECT_EQ(require(inventory, "TORCH_VERSION_2_12_0", DeclarationKind::Macro).signature, "0x020C000000000000");
  EXPECT_EQ(require(inventory, "c10::ScalarType::Float", DeclarationKind::EnumConstant).signature, "6");
  EXPECT_EQ(require(inventory, "AtenTensorHandle", DeclarationKind::Typedef).signature,
            "using AtenTensorHandle = AtenTensorOpaque *");
}

TEST(InventoryCollector, ReleaseIsReadFromTheHeaders) {
  EXPECT_EQ(read_release_from_headers(testing::diff_fixtures() / "removed_function" / "old"), (TorchVersion{2, 11, 0}));
}

TEST(InventoryCollector, HeaderThatDoesNotParseNamesTheHeaderAndLine) {
  try {
    collect_inventory(testing::diff_fixtures() / "bad_input" / "header_does_not_parse");
    FAIL() << "a broken header was accepted";
  } catch (const ToolError& error) {
    EXPECT_NE(std::string(error.what()).find("torch/csrc/inductor/aoti_torch/c/shim.h:"), std::string::npos)
        << error.what();
  }
}

// The real 2.11 wheel: facts read off its headers by hand.
TEST(InventoryCollectorStore, Release211MatchesItsHeaders) {
  auto release = ReleaseStore(ReleaseStore::default_root()).find("2.11");
  if (!release) GTEST_SKIP() << "torch 2.11 is not installed in the store";
  ShimInventory inventory = collect_inventory(release->include_dir);
  EXPECT_EQ(inventory.release, (TorchVersion{2, 11, 0}));
  EXPECT_EQ(require(inventory, "torch_from_blob").since, (TorchVersion{2, 11, 0}));
  EXPECT_EQ(require(inventory, "torch_call_dispatcher").since, (TorchVersion{2, 10, 0}));
  EXPECT_EQ(require(inventory, "aoti_torch_call_dispatcher").since, (TorchVersion{2, 9, 0}));
  const auto& blas = require(inventory, "torch_get_current_cuda_blas_handle");
  EXPECT_EQ(blas.backend, "USE_CUDA");
  EXPECT_EQ(blas.since, (TorchVersion{2, 10, 0}));
  EXPECT_EQ(require(inventory, "aoti_torch_cuda__adaptive_avg_pool2d").backend, "USE_CUDA");
  // shim_cpu.h includes ATen/Config.h, which refuses TORCH_TARGET_VERSION: its MKLDNN shims are
  // only visible to an untargeted build.
  EXPECT_EQ(require(inventory, "aoti_torch_cpu_mkldnn_rnn_layer").backend, kUntargetedOnly);
  EXPECT_EQ(require(inventory, "TORCH_VERSION_2_11_0", DeclarationKind::Macro).signature, "0x020B000000000000");
  EXPECT_FALSE(inventory.notes.empty());
}

}  // namespace
}  // namespace abicheck
