#include "inventory/declaration_name.h"

#include <gtest/gtest.h>

namespace abicheck {
namespace {

// Keys as the committed inventories spell them (shim_decls/2.15/inventory.json).
TEST(DeclarationName, AWrappersNameIsBeforeItsParameterList) {
  DeclarationName to =
      declaration_name("torch::stable::to(const torch::stable::Tensor &, torch::stable::Device, bool, bool)");
  EXPECT_EQ(to.scope, "torch::stable");
  EXPECT_EQ(to.name, "to");
  EXPECT_EQ(to.qualified(), "torch::stable::to");
  EXPECT_TRUE(to.has_parameter_list);
  EXPECT_EQ(to.parameter_types,
            (std::vector<std::string>{"const torch::stable::Tensor &", "torch::stable::Device", "bool", "bool"}));
}

TEST(DeclarationName, AMembersScopeIsItsClass) {
  DeclarationName size = declaration_name("torch::stable::Tensor::size(long) const");
  EXPECT_EQ(size.scope, "torch::stable::Tensor");
  EXPECT_EQ(size.name, "size");
  EXPECT_EQ(size.parameter_types, std::vector<std::string>{"long"});
  DeclarationName dim = declaration_name("torch::stable::Tensor::dim() const");
  EXPECT_TRUE(dim.has_parameter_list);
  EXPECT_TRUE(dim.parameter_types.empty());
  DeclarationName constructor = declaration_name("torch::stable::Device::Device(c10::DeviceType, int)");
  EXPECT_EQ(constructor.scope, "torch::stable::Device");
  EXPECT_EQ(constructor.name, "Device");
}

TEST(DeclarationName, TemplateArgumentsAreNotPartOfTheName) {
  DeclarationName from_blob = declaration_name(
      "torch::stable::from_blob<typename, typename enable_if<std::is_invocable_v<F, void *>, int>::type>(void *, "
      "c10::HeaderOnlyArrayRef<long>, c10::HeaderOnlyArrayRef<long>, torch::stable::Device, c10::ScalarType, "
      "type-parameter-0-0, long, c10::Layout)");
  EXPECT_EQ(from_blob.qualified(), "torch::stable::from_blob");
  EXPECT_EQ(from_blob.parameter_types.size(), 8u);
  EXPECT_EQ(declaration_name("torch::stable::Tensor::mutable_data_ptr<typename>() const").name, "mutable_data_ptr");
}

TEST(DeclarationName, OperatorsKeepTheirSymbols) {
  DeclarationName equal = declaration_name("torch::stable::Device::operator==(const torch::stable::Device &) const");
  EXPECT_EQ(equal.scope, "torch::stable::Device");
  EXPECT_EQ(equal.name, "operator==");
  DeclarationName call = declaration_name("f::operator()(int, int)");
  EXPECT_EQ(call.name, "operator()");
  EXPECT_EQ(call.parameter_types.size(), 2u);
  EXPECT_EQ(declaration_name("g::operator<(int)").name, "operator<");
  EXPECT_EQ(declaration_name("h::operator_like(int)").name, "operator_like") << "an identifier, not an operator";
}

TEST(DeclarationName, AnAnonymousNamespaceIsLeftOutOfTheScope) {
  DeclarationName guard = declaration_name("torch::stable::accelerator::::delete_device_guard(void *)");
  EXPECT_EQ(guard.scope, "torch::stable::accelerator");
  EXPECT_EQ(guard.name, "delete_device_guard");
}

TEST(DeclarationName, PlainNamesAndEnumeratorsHaveNoParameterList) {
  DeclarationName shim = declaration_name("aoti_torch_empty_strided");
  EXPECT_EQ(shim.scope, "");
  EXPECT_EQ(shim.name, "aoti_torch_empty_strided");
  EXPECT_EQ(shim.qualified(), "aoti_torch_empty_strided");
  EXPECT_FALSE(shim.has_parameter_list);
  DeclarationName enumerator = declaration_name("c10::ScalarType::Float");
  EXPECT_EQ(enumerator.scope, "c10::ScalarType");
  EXPECT_EQ(enumerator.name, "Float");
}

TEST(DeclarationName, ParametersSplitAtTopLevelCommasOnly) {
  DeclarationName f = declaration_name("f(std::pair<int, int>, void (*)(int, int))");
  EXPECT_EQ(f.parameter_types, (std::vector<std::string>{"std::pair<int, int>", "void (*)(int, int)"}));
  EXPECT_EQ(declaration_name("torch::stable::pad(const torch::stable::Tensor &, std::vector<long>, "
                             "const std::basic_string<char> &, double)")
                .parameter_types,
            (std::vector<std::string>{"const torch::stable::Tensor &", "std::vector<long>",
                                      "const std::basic_string<char> &", "double"}));
}

TEST(DeclarationName, AScopeAsACompilerSpellsItMatchesAnInlineNamespaceAside) {
  DeclarationName size = declaration_name("torch::stable::Tensor::size(long) const");
  EXPECT_TRUE(size.is_in_scope("torch::stable::Tensor"));
  EXPECT_TRUE(size.is_in_scope("torch::stable::v2::Tensor"));
  EXPECT_FALSE(size.is_in_scope("torch::stable"));
  EXPECT_FALSE(size.is_in_scope("mylib::Tensor"));
  EXPECT_FALSE(size.is_in_scope(""));
  EXPECT_TRUE(declaration_name("aoti_torch_empty_strided").is_in_scope(""));
}

}  // namespace
}  // namespace abicheck
