// The behaviour baseline: its file (round trip, bad input, the committed files against their schema),
// which conversions a header tree specialises, and (store tier) the probe of a real release against
// its committed behaviour.json.
#include "baseline/behaviour_probe.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "baseline/release_baseline.h"
#include "core/file_text.h"
#include "core/project_paths.h"
#include "core/scoped_temp_dir.h"
#include "core/tool_error.h"
#include "inventory/inventory_collector.h"
#include "store/release_store.h"
#include "support/cli.h"

namespace abicheck {
namespace {

void write_header_text(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

TEST(BehaviourBaselineFile, RoundTripsSortedAndRejectsBadInput) {
  BehaviourBaseline behaviour{
      TorchVersion{2, 15, 0},
      TorchVersion{2, 15, 0},
      {{"bool", "true", "0x0000000000000001", "true"}, {"c10::ScalarType", "c10::ScalarType::QInt8", "refused", ""}}};
  std::string text = behaviour_to_json(behaviour);
  BehaviourBaseline read = parse_behaviour(text, "b.json");
  EXPECT_EQ(read.conversions, behaviour.conversions);
  EXPECT_EQ(behaviour_to_json(read), text);
  ASSERT_NE(read.find("c10::ScalarType", "c10::ScalarType::QInt8"), nullptr);
  EXPECT_EQ(read.find("bool", "false"), nullptr);
  EXPECT_THROW(
      parse_behaviour(R"({"schema_version": 2, "release": "2.15", "target": "2.15", "conversions": []})", "b.json"),
      ToolError);
  try {
    parse_behaviour(R"({"schema_version": 1, "release": "x", "target": "2.15", "conversions": []})", "b.json");
    ADD_FAILURE() << "a release that is no version was read";
  } catch (const ToolError& error) {
    EXPECT_NE(std::string(error.what()).find("b.json"), std::string::npos) << error.what();
  }
  EXPECT_THROW(parse_behaviour(R"({"schema_version": 1, "release": "2.15", "target": "2.15", "conversions": [
      {"type": "bool", "value": "true", "from": "0x1"}, {"type": "bool", "value": "true", "from": "0x1"}]})",
                               "b.json"),
               ToolError);
}

TEST(BehaviourEncoding, ShimCodesAgreeByGetterAndEverythingElseBitForBit) {
  EXPECT_TRUE(same_encoding("0x0000000000000080", "0x0000000000000080"));
  EXPECT_FALSE(same_encoding("0x0000000000000080", "0x8000000000000000"));
  // libtorch renumbered the code the same getter returns: an extension built before asks it at run time.
  EXPECT_TRUE(
      same_encoding("torch_tag_inplace_view() = 0x0000000000000006", "torch_tag_inplace_view() = 0x0000000000000007"));
  EXPECT_TRUE(same_encoding("pointer to torch_tag_out_variant() = 0x000000000000000d",
                            "pointer to torch_tag_out_variant() = 0x000000000000000f"));
  // Another getter: the mapping of the headers changed.
  EXPECT_FALSE(same_encoding("aoti_torch_dtype_float16() = 0x0000000000000005",
                             "aoti_torch_dtype_bfloat16() = 0x000000000000000f"));
  EXPECT_FALSE(same_encoding("aoti_torch_dtype_float16() = 0x0000000000000005", "0x0000000000000005"));
  // A getter added beside the one that returned the code keeps it; one of two that is gone does not.
  EXPECT_TRUE(same_encoding("torch_dtype_float8_e8m0fnu() = 0x000000000000002c",
                            "aoti_torch_dtype_float8_e8m0fnu() or torch_dtype_float8_e8m0fnu() = 0x000000000000002c"));
  EXPECT_FALSE(same_encoding("aoti_torch_dtype_float8_e8m0fnu() or torch_dtype_float8_e8m0fnu() = 0x000000000000002c",
                             "torch_dtype_float8_e8m0fnu() = 0x000000000000002c"));
  // A device: the type's getter and the index must both stay.
  EXPECT_TRUE(same_encoding("aoti_torch_device_type_cuda() << 32 | 0x00000007 = 0x0000000100000007",
                            "aoti_torch_device_type_cuda() << 32 | 0x00000007 = 0x0000000200000007"));
  EXPECT_FALSE(same_encoding("aoti_torch_device_type_cuda() << 32 | 0x00000007 = 0x0000000100000007",
                             "aoti_torch_device_type_cuda() << 32 | 0x00000000 = 0x0000000100000000"));
  EXPECT_FALSE(same_encoding("aoti_torch_device_type_cuda() << 32 | 0x00000000 = 0x0000000100000000",
                             "aoti_torch_device_type_cpu() << 32 | 0x00000001 = 0x0000000000000001"));
}

TEST(BehaviourBaselineFile, CommittedFilesFollowTheSchema) {
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(project_root() / "shim_decls")) {
    std::filesystem::path file = entry.path() / kBehaviourFile;
    if (!std::filesystem::exists(file)) continue;
    EXPECT_EQ(testing::schema_errors("behaviour", file), "") << file;
    EXPECT_NO_THROW(load_behaviour(file)) << file;
    ++checked;
  }
  EXPECT_GE(checked, 7);
}

TEST(ConversionSpecializations, AreFoundByFamilyInTheWrapperHeaders) {
  ScopedTempDir tree("conversion-specializations");
  write_header_text(tree.path() / "torch/csrc/stable/stableivalue_conversions.h", R"(
HIDDEN_NAMESPACE_BEGIN(torch, stable, detail)
template <typename T>
struct FromImpl {
};
template <typename T>
struct FromImpl<std::optional<T>> {
};
template <typename T>
struct FromImpl<torch::headeronly::HeaderOnlyArrayRef<T>> {
};
template <>
struct ToImpl<ScalarType> {
};
HIDDEN_NAMESPACE_END(torch, stable, detail)
)");
  // A specialisation outside the wrappers' tree is no conversion of the calling convention.
  write_header_text(tree.path() / "torch/headeronly/other.h", "template <> struct FromImpl<Layout> {};\n");
  ConversionSpecializations found = find_conversion_specializations(tree.path());
  EXPECT_EQ(found.from, (std::set<std::string>{"generic", "optional", "HeaderOnlyArrayRef"}));
  EXPECT_EQ(found.to, (std::set<std::string>{"ScalarType"}));
  EXPECT_TRUE(found.in_detail_namespace);
  write_header_text(tree.path() / "torch/csrc/stable/stableivalue_conversions.h",
                    "namespace {\nstruct ToImpl {\n};\n}\n");
  found = find_conversion_specializations(tree.path());
  EXPECT_EQ(found.to, (std::set<std::string>{"generic"}));
  EXPECT_FALSE(found.in_detail_namespace);
}

TEST(BehaviourProbeStore, NewestReleaseGivesItsCommittedBehaviour) {
  ReleaseStore store(ReleaseStore::default_root());
  if (store.releases().empty()) GTEST_SKIP() << "no torch release installed in the store";
  std::optional<StoredRelease> release = store.require_newest();
  std::filesystem::path committed = project_root() / "shim_decls" / release->version.minor_release().to_string();
  ShimInventory inventory = load_inventory(committed / kInventoryFile);
  BehaviourBaseline probed = probe_behaviour(release->include_dir, release->lib_dir, inventory);
  EXPECT_EQ(behaviour_to_json(probed), read_file_text(committed / kBehaviourFile))
      << "regenerate with torch-abi-check baseline --torch " << release->version.to_string();
}

}  // namespace
}  // namespace abicheck
