#include "lint/missing_declaration.h"

#include <gtest/gtest.h>

namespace abicheck {
namespace {

// Messages as libclang (15) gives them for uses of a newer release's API at an older target.
TEST(MissingDeclaration, AnUndeclaredNameWithTheScopeItWasLookedUpIn) {
  MissingDeclaration to = missing_declaration_in("no member named 'to' in namespace 'torch::stable'", {});
  EXPECT_EQ(to.name, "to");
  EXPECT_EQ(to.scope, "torch::stable");
  EXPECT_FALSE(to.overload_missing);
  MissingDeclaration member = missing_declaration_in("no member named 'has_storage' in 'torch::stable::Tensor'", {});
  EXPECT_EQ(member.name, "has_storage");
  EXPECT_EQ(member.scope, "torch::stable::Tensor");
  MissingDeclaration shim = missing_declaration_in("use of undeclared identifier 'torch_foo'", {});
  EXPECT_EQ(shim.name, "torch_foo");
  EXPECT_EQ(shim.scope, "");
  EXPECT_EQ(missing_declaration_in("unknown type name 'StableIValue'", {}).name, "StableIValue");
}

TEST(MissingDeclaration, ACallNoOverloadFitsNamesTheFunction) {
  MissingDeclaration call = missing_declaration_in("no matching function for call to 'new_empty'", {});
  EXPECT_EQ(call.name, "new_empty");
  EXPECT_TRUE(call.overload_missing);
  EXPECT_FALSE(call.arguments);
  MissingDeclaration counted = missing_declaration_in("too many arguments to function call, expected at most 3, have 6",
                                                      {"'new_empty' declared here"});
  EXPECT_EQ(counted.name, "new_empty");
  EXPECT_TRUE(counted.overload_missing);
  EXPECT_EQ(counted.arguments, 6u);
  MissingDeclaration constructor =
      missing_declaration_in("no matching constructor for initialization of 'torch::stable::Device'", {});
  EXPECT_EQ(constructor.name, "Device");
  EXPECT_EQ(constructor.scope, "torch::stable::Device");
  MissingDeclaration cast = missing_declaration_in(
      "no matching conversion for functional-style cast from 'const std::basic_string<char>' to "
      "'torch::stable::Device'",
      {});
  EXPECT_EQ(cast.name, "Device");
  EXPECT_EQ(cast.scope, "torch::stable::Device");
  EXPECT_TRUE(cast.overload_missing);
}

TEST(MissingDeclaration, OtherErrorsNameNothing) {
  EXPECT_TRUE(missing_declaration_in("expected ';' after expression", {}).name.empty());
  EXPECT_TRUE(missing_declaration_in("too many arguments to function call, expected 1, have 2", {}).name.empty())
      << "without the note that names the function";
}

}  // namespace
}  // namespace abicheck
