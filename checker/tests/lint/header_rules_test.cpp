#include "lint/headers/header_rules.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>

namespace abicheck {
namespace {

ShimDeclaration function(std::string name, const std::string& since, std::string signature = "void f(void)") {
  return {
      std::move(name),           DeclarationKind::Function, std::move(signature), "torch/csrc/stable/c/shim.h", 10, "",
      TorchVersion::parse(since)};
}

ShimInventory inventory(const std::string& release, std::vector<ShimDeclaration> declarations) {
  return {TorchVersion::parse(release), std::move(declarations)};
}

std::vector<std::string> rules_found(const HeaderLintInput& input) {
  std::vector<std::string> rules;
  for (const auto& d : run_header_rules(input))
    rules.push_back(d.rule + " " + d.message.substr(1, d.message.find('\'', 1) - 1));
  std::ranges::sort(rules);
  return rules;
}

// Baselines 2.9, 2.10 and 2.11; the candidate 2.12 plants one fault of each rule next to clean declarations.
TEST(HeaderRules, FindEachPlantedFaultAndNothingElse) {
  HeaderLintInput input;
  input.include_dir = "/tree";
  input.earlier = {
      inventory("2.9", {function("old_shim", "2.9")}),
      inventory("2.10", {function("old_shim", "2.9"), function("torch_a", "2.10"), function("torch_removed", "2.10")}),
      inventory("2.11", {function("old_shim", "2.9"), function("torch_a", "2.10"), function("torch_removed", "2.10"),
                         function("torch_b", "2.11"), function("torch_resigned", "2.11", "int g(int)")})};
  input.candidate = inventory("2.12", {function("old_shim", "2.9"), function("torch_a", "2.9"),  // H001: guard lost
                                       function("torch_b", "2.12"),                              // H002: guard too new
                                       function("torch_resigned", "2.11", "int g(long)"),        // H003: signature
                                       function("torch_new_ok", "2.12"), function("torch_new_bad", "2.11")});  // H006
  EXPECT_EQ(rules_found(input), (std::vector<std::string>{"H001 torch_a", "H002 torch_b", "H003 torch_removed",
                                                          "H003 torch_resigned", "H006 torch_new_bad"}));
}

TEST(HeaderRules, CleanTreeHasNoFinding) {
  HeaderLintInput input;
  input.earlier = {inventory("2.9", {function("old_shim", "2.9")}),
                   inventory("2.10", {function("old_shim", "2.9"), function("torch_a", "2.10")})};
  input.candidate =
      inventory("2.11", {function("old_shim", "2.9"), function("torch_a", "2.10"), function("torch_new", "2.11")});
  EXPECT_TRUE(run_header_rules(input).empty());
}

// A tree whose version.h encodes 2.11 as 2.10, and whose shim guards on a macro nobody defines.
TEST(HeaderRules, VersionMacrosMustBeDefinedWithTheirOwnValue) {
  namespace fs = std::filesystem;
  fs::path tree = fs::temp_directory_path() / fmt::format("header-rules-test-{}", ::getpid());
  fs::create_directories(tree / "torch/csrc/stable/c");
  std::ofstream(tree / "torch/csrc/stable/version.h")
      << "#define TORCH_VERSION_2_10_0 (((0ULL + 2) << 56) | ((0ULL + 10) << 48))\n"
      << "#define TORCH_VERSION_2_11_0 (((0ULL + 2) << 56) | ((0ULL + 10) << 48))\n";
  std::ofstream(tree / "torch/csrc/stable/c/shim.h")
      << "#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0\nvoid torch_a(void);\n#endif\n"
      << "#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_12_0 && defined(USE_CUDA)\nvoid torch_b(void);\n#endif\n";
  HeaderLintInput input;
  input.include_dir = tree;
  input.candidate = inventory("2.12", {});
  auto found = run_header_rules(input);
  fs::remove_all(tree);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].where.file.filename(), "shim.h");
  EXPECT_EQ(found[0].where.line, 4);
  EXPECT_NE(found[0].message.find("TORCH_VERSION_2_12_0 is used in a guard but never defined"), std::string::npos);
  EXPECT_EQ(found[1].where.file.filename(), "version.h");
  EXPECT_EQ(found[1].where.line, 2);
  EXPECT_NE(found[1].message.find("TORCH_VERSION_2_11_0 is defined as 2.10.0"), std::string::npos);
}

}  // namespace
}  // namespace abicheck
