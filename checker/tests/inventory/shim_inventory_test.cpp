#include "inventory/shim_inventory.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/tool_error.h"

namespace abicheck {
namespace {

std::filesystem::path write_temp(const std::string& name, const std::string& content) {
  auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << content;
  return path;
}

TEST(ShimInventory, JsonRoundTripsEveryField) {
  ShimInventory inventory{
      TorchVersion{2, 10, 0},
      {{"torch_get_num_threads", DeclarationKind::Function, "AOTITorchError torch_get_num_threads(uint32_t *)",
        "torch/csrc/stable/c/shim.h", 42, "", TorchVersion{2, 10, 0}},
       {"TORCH_VERSION_2_10_0", DeclarationKind::Macro, "0x020A000000000000", "torch/csrc/stable/version.h", 7,
        "USE_CUDA", TorchVersion{2, 9, 0}}}};
  // A baseline file carries the compile failures, so that a diff from it sees an error of one target.
  inventory.compile_failures = {
      {std::nullopt, "no TORCH_TARGET_VERSION", "torch/csrc/stable/ops.h:3: no matching function"},
      {TorchVersion{2, 9, 0}, "TORCH_TARGET_VERSION=2.9",
       "torch/csrc/stable/macros.h:135: use of undeclared identifier"}};
  auto path = write_temp("inventory_roundtrip.json", inventory_to_json(inventory));
  ShimInventory loaded = load_inventory(path);
  EXPECT_EQ(loaded.release, inventory.release);
  EXPECT_EQ(loaded.declarations, inventory.declarations);
  EXPECT_EQ(loaded.compile_failures, inventory.compile_failures);
  ASSERT_NE(loaded.find("TORCH_VERSION_2_10_0", DeclarationKind::Macro), nullptr);
  EXPECT_EQ(loaded.find("TORCH_VERSION_2_10_0"), nullptr);  // a macro is not a function
}

TEST(ShimInventory, TruncatedFileIsAToolErrorNamingTheFile) {
  auto path = write_temp("inventory_truncated.json", R"({"release": "2.10", "declarations": [{"name": "a")");
  try {
    load_inventory(path);
    FAIL() << "a truncated inventory was accepted";
  } catch (const ToolError& error) {
    EXPECT_NE(std::string(error.what()).find("inventory_truncated.json"), std::string::npos);
  }
}

TEST(ShimInventory, UnknownKindIsRejected) {
  auto path = write_temp("inventory_kind.json", R"({"release": "2.10", "declarations": [{"name": "a", "kind": "class",
      "signature": "", "header": "h", "line": 1, "backend": "", "since": "2.10"}]})");
  EXPECT_THROW(load_inventory(path), ToolError);
}

}  // namespace
}  // namespace abicheck
