// The diff of behaviour baselines on real changes planted in a copy of the newest release's headers (store
// tier): the probe run on its libtorch, or its probe extension built, against its committed behaviour.json.
#include "diff/behaviour_compare.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "baseline/behaviour_probe.h"
#include "baseline/release_baseline.h"
#include "core/file_text.h"
#include "core/project_paths.h"
#include "core/scoped_temp_dir.h"
#include "store/release_store.h"

namespace abicheck {
namespace {

// Links every entry of `from` into `to`, except along `copied` (a path relative to `from`), whose
// directories are made and whose last part is copied: a tree to change one folder of.
void link_all_but(const std::filesystem::path& from, const std::filesystem::path& to,
                  const std::filesystem::path& copied) {
  std::filesystem::create_directories(to);
  std::filesystem::path first = *copied.begin();
  std::filesystem::path rest = copied.lexically_relative(first);
  for (const auto& entry : std::filesystem::directory_iterator(from)) {
    std::filesystem::path name = entry.path().filename();
    if (name != first) {
      std::filesystem::create_symlink(entry.path(), to / name);
    } else if (rest == ".") {
      std::filesystem::copy(entry.path(), to / name, std::filesystem::copy_options::recursive);
    } else {
      link_all_but(entry.path(), to / name, rest);
    }
  }
}

// A copy of the release's wrapper headers (the rest of its include dir linked) with the C++ -> shim
// codes of Half and BFloat16 exchanged in from's mapping: the probe, run on the real libtorch, sees both
// values encoded into the other's code, and nothing else changes.
TEST(BehaviourProbeStore, ExchangedDtypeMappingIsAConversionChange) {
  ReleaseStore store(ReleaseStore::default_root());
  if (store.releases().empty()) GTEST_SKIP() << "no torch release installed in the store";
  std::optional<StoredRelease> release = store.require_newest();
  ScopedTempDir mutant("behaviour-mutant");
  link_all_but(release->include_dir, mutant.path(), "torch/csrc/stable");
  std::filesystem::path conversions = mutant.path() / "torch/csrc/stable/stableivalue_conversions.h";
  std::string text = read_file_text(conversions);
  std::size_t half = text.find("from(aoti_torch_dtype_float16())");
  std::size_t bfloat16 = text.find("from(aoti_torch_dtype_bfloat16())");
  ASSERT_NE(half, std::string::npos);
  ASSERT_NE(bfloat16, std::string::npos);
  ASSERT_LT(half, bfloat16);
  text.replace(bfloat16, 33, "from(aoti_torch_dtype_float16())");
  text.replace(half, 32, "from(aoti_torch_dtype_bfloat16())");
  std::ofstream(conversions) << text;

  std::filesystem::path committed = project_root() / "shim_decls" / release->version.minor_release().to_string();
  ShimInventory inventory = load_inventory(committed / kInventoryFile);
  BehaviourBaseline original = load_behaviour(committed / kBehaviourFile);
  BehaviourBaseline mutated = probe_behaviour(mutant.path(), release->lib_dir, inventory);
  std::vector<AbiChange> changes = compare_behaviour(original, mutated);
  std::vector<std::string> names;
  for (const auto& change : changes) {
    EXPECT_EQ(change.kind, ChangeKind::ConversionChanged) << change.name << ": " << change.detail;
    names.push_back(change.name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"from(c10::ScalarType c10::ScalarType::BFloat16)",
                                             "from(c10::ScalarType c10::ScalarType::Half)",
                                             "from(std::optional<c10::ScalarType> c10::ScalarType::Half)"}));
}

// The hidden visibility of HIDDEN_NAMESPACE_BEGIN dropped in a copy of the newest release's headers: an
// extension built with them exports the stable wrappers (torch::stable::empty_like, ...), which the
// committed probe extension of the release does not.
TEST(BehaviourProbeStore, DroppedHiddenNamespaceExportsTheWrappers) {
  ReleaseStore store(ReleaseStore::default_root());
  if (store.releases().empty()) GTEST_SKIP() << "no torch release installed in the store";
  StoredRelease release = store.require_newest();
  ScopedTempDir mutant("behaviour-mutant");
  link_all_but(release.include_dir, mutant.path(), "torch/headeronly/macros");
  std::filesystem::path macros = mutant.path() / "torch/headeronly/macros/Macros.h";
  std::string text = read_file_text(macros);
  constexpr std::string_view hidden = R"( __attribute__((visibility("hidden"))))";
  int dropped = 0;
  for (std::size_t at = text.find(hidden); at != std::string::npos; at = text.find(hidden, at)) {
    text.erase(at, hidden.size());
    ++dropped;
  }
  ASSERT_GT(dropped, 0);
  std::ofstream(macros) << text;

  std::filesystem::path committed = project_root() / "shim_decls" / release.version.minor_release().to_string();
  BehaviourBaseline original = load_behaviour(committed / kBehaviourFile);
  BehaviourBaseline mutated = original;
  mutated.extension = probe_extension_symbols(mutant.path(), original.target);
  EXPECT_EQ(mutated.extension.imports, original.extension.imports);
  std::vector<AbiChange> changes = compare_behaviour(original, mutated);
  ASSERT_FALSE(changes.empty());
  for (const auto& change : changes) EXPECT_EQ(change.kind, ChangeKind::WrapperExported) << change.name;
  EXPECT_TRUE(std::ranges::any_of(changes, [](const AbiChange& change) {
    return change.name == "_ZN5torch6stable10empty_likeERKNS0_6TensorE";  // torch::stable::empty_like
  }));
}

}  // namespace
}  // namespace abicheck
