// The one comparison of two releases' declarations (inventory/declaration_pairing.h) that the diff
// and the header rules share.
#include "inventory/declaration_pairing.h"

#include <gtest/gtest.h>

#include "inventory/inventory_collector.h"

namespace abicheck {
namespace {

ShimDeclaration declaration(const std::string& name, DeclarationKind kind, const std::string& signature,
                            std::string backend = "") {
  return {name, kind, signature, "torch/csrc/stable/c/shim.h", 1, std::move(backend), TorchVersion::parse("2.10")};
}

std::vector<std::string> names(const std::vector<const ShimDeclaration*>& declarations) {
  std::vector<std::string> result;
  for (const auto* d : declarations) result.push_back(d->name);
  return result;
}

TEST(DeclarationPairing, ParameterNamesByPosition) {
  // As the inventory writes a signature: each parameter's type as libclang spells it, then its name.
  EXPECT_EQ(
      parameter_names(declaration(
          "torch_parallel_for", DeclarationKind::Function,
          "AOTITorchError torch_parallel_for(int64_t begin, int64_t end, void (*)(long, long) func, void * ctx)")),
      (std::vector<std::string>{"begin", "end", "func", "ctx"}));
  EXPECT_EQ(parameter_names(declaration("f", DeclarationKind::Function, "int f(AtenTensorHandle * ret, int64_t)")),
            (std::vector<std::string>{"ret", ""}))
      << "an unnamed parameter has no name";
  EXPECT_EQ(parameter_names(declaration("g", DeclarationKind::Function, "int g()")), std::vector<std::string>{});
  EXPECT_EQ(parameter_names(declaration("S", DeclarationKind::Struct, "struct S { int x; }")),
            std::vector<std::string>{});
}

TEST(DeclarationPairing, PairsByNameAndKind) {
  ShimInventory before{TorchVersion::parse("2.10"),
                       {declaration("kept", DeclarationKind::Function, "void kept(int)"),
                        declaration("gone", DeclarationKind::Function, "void gone(void)"),
                        declaration("Both", DeclarationKind::Struct, "struct Both")},
                       {}};
  ShimInventory after{TorchVersion::parse("2.11"),
                      {declaration("kept", DeclarationKind::Function, "void  kept( int )"),
                       declaration("Both", DeclarationKind::Typedef, "typedef struct X Both"),
                       declaration("new_one", DeclarationKind::Function, "void new_one(void)")},
                      {}};
  DeclarationPairing pairing = pair_declarations(before, after);
  EXPECT_EQ(names(pairing.removed), (std::vector<std::string>{"Both", "gone"})) << "a struct is not its typedef";
  EXPECT_EQ(names(pairing.added), (std::vector<std::string>{"Both", "new_one"}));
  ASSERT_EQ(pairing.kept.size(), 1u);
  EXPECT_EQ(pairing.kept[0].first->name, "kept");
  EXPECT_EQ(normal_signature(pairing.kept[0].first->signature), "void kept(int)");
  EXPECT_EQ(normal_signature("void  kept(\n  int )"), "void kept( int )") << "only whitespace runs are made one space";
}

TEST(DeclarationPairing, AFilterLeavesDeclarationsOutOfBothSides) {
  ShimInventory before{
      TorchVersion::parse("2.10"),
      {declaration("untargeted", DeclarationKind::Function, "void untargeted(void)", std::string(kUntargetedOnly))},
      {}};
  ShimInventory after{TorchVersion::parse("2.11"), {}, {}};
  EXPECT_EQ(pair_declarations(before, after).removed.size(), 1u);
  EXPECT_TRUE(pair_declarations(before, after, is_targeted).removed.empty());
}

ShimDeclaration method(const std::string& key, const std::string& abi_type, const std::string& since = "2.9") {
  return {key, DeclarationKind::Method, "", "torch/csrc/stable/ops.h", 1, "", TorchVersion::parse(since), abi_type};
}

// 2.10 replaced 2.9's std::vector<int64_t> parameter of amax by HeaderOnlyArrayRef<int64_t> (the real
// inventories' keys and ABI types): the old overload is replaced, not removed.
TEST(DeclarationPairing, AnOverloadThatTookAGoneOnesPlaceReplacesIt) {
  const std::string result = "torch::stable::Tensor ";
  ShimDeclaration by_vector = method("torch::stable::amax(const torch::stable::Tensor &, std::vector<long>, bool)",
                                     result + "(const torch::stable::Tensor &, std::vector<long>, bool)");
  ShimDeclaration by_ref =
      method("torch::stable::amax(const torch::stable::Tensor &, c10::HeaderOnlyArrayRef<long>, bool)",
             result + "(const torch::stable::Tensor &, c10::HeaderOnlyArrayRef<long>, bool)");
  ShimDeclaration single = method("torch::stable::amax(const torch::stable::Tensor &, long, bool)",
                                  result + "(const torch::stable::Tensor &, long, bool)");
  ShimInventory before{TorchVersion::parse("2.9"), {by_vector, single}, {}};
  ShimInventory after{TorchVersion::parse("2.10"), {by_ref, single}, {}};
  DeclarationPairing pairing = pair_declarations(before, after);
  EXPECT_TRUE(pairing.removed.empty());
  ASSERT_EQ(pairing.replaced.size(), 1u);
  EXPECT_EQ(pairing.replaced[0].first->name, by_vector.name);
  EXPECT_EQ(pairing.replaced[0].second->name, by_ref.name);
  EXPECT_EQ(names(pairing.added), std::vector<std::string>{by_ref.name}) << "the new overload is still new";

  // Not in its place: visible only at later targets, with another result type, or more parameters.
  for (const ShimDeclaration& other :
       {method(by_ref.name, by_ref.abi_type, "2.10"),
        method(by_ref.name, "long (const torch::stable::Tensor &, c10::HeaderOnlyArrayRef<long>, bool)"),
        method("torch::stable::amax(const torch::stable::Tensor &, c10::HeaderOnlyArrayRef<long>)",
               result + "(const torch::stable::Tensor &, c10::HeaderOnlyArrayRef<long>)")}) {
    ShimInventory changed{TorchVersion::parse("2.10"), {other, single}, {}};
    DeclarationPairing elsewhere = pair_declarations(before, changed);
    EXPECT_EQ(names(elsewhere.removed), std::vector<std::string>{by_vector.name})
        << other.name << " " << other.abi_type;
    EXPECT_TRUE(elsewhere.replaced.empty());
  }
}

}  // namespace
}  // namespace abicheck
