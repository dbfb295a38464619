// The operator baseline's format: torch's schema lines parsed into arguments and returns, the
// adapter lines, and the committed baselines of every release reading back.
#include "baseline/operator_schemas.h"

#include <gtest/gtest.h>

#include "core/project_paths.h"
#include "core/tool_error.h"

namespace abicheck {
namespace {

TEST(OperatorSchemaParse, ArgumentsReturnsAliasesDefaultsAndKeywordOnly) {
  OperatorSchema schema = parse_operator_schema(
      "aten::max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values) -> "
      "(Tensor(a!) values, Tensor(b!) indices)",
      "t");
  EXPECT_EQ(schema.name, "aten::max");
  EXPECT_EQ(schema.overload, "dim_max");
  EXPECT_EQ(schema.qualified_name(), "aten::max.dim_max");
  ASSERT_EQ(schema.arguments.size(), 5u);
  EXPECT_EQ(schema.arguments[2].name, "keepdim");
  EXPECT_EQ(schema.arguments[2].default_value, "False");
  EXPECT_FALSE(schema.arguments[2].kwarg_only);
  EXPECT_TRUE(schema.arguments[3].kwarg_only);
  EXPECT_EQ(schema.arguments[3].type, "Tensor");
  EXPECT_EQ(schema.arguments[3].alias, "a!");
  ASSERT_EQ(schema.returns.size(), 2u);
  EXPECT_EQ(schema.returns[1].name, "indices");
  EXPECT_EQ(schema.returns[1].alias, "b!");
}

TEST(OperatorSchemaParse, NestedTypesQuotedDefaultsAndEmptyReturns) {
  OperatorSchema schema = parse_operator_schema(
      "aten::_fixture(Dict(str, Tensor) d, str mode=\"a, b\", Tensor(a!)[] out, int[2] pad=[0, 0]) -> ()", "t");
  EXPECT_EQ(schema.overload, "");
  ASSERT_EQ(schema.arguments.size(), 4u);
  EXPECT_EQ(schema.arguments[0].type, "Dict(str, Tensor)");
  EXPECT_EQ(schema.arguments[0].name, "d");
  EXPECT_EQ(schema.arguments[1].default_value, "\"a, b\"");
  EXPECT_EQ(schema.arguments[2].type, "Tensor[]");
  EXPECT_EQ(schema.arguments[2].alias, "a!");
  EXPECT_EQ(schema.arguments[3].default_value, "[0, 0]");
  EXPECT_TRUE(schema.returns.empty());
}

TEST(OperatorSchemaParse, NotASchemaIsAToolErrorNamingTheOrigin) {
  EXPECT_THROW(parse_operator_schema("aten::abs", "f.txt"), ToolError);
  EXPECT_THROW(parse_operator_schema("abs(Tensor self) -> Tensor", "f.txt"), ToolError);
  try {
    parse_operator_schemas("aten::abs(Tensor self) -> Tensor\n", "f.txt");
    FAIL() << "a file without @release was accepted";
  } catch (const ToolError& error) {
    EXPECT_NE(std::string(error.what()).find("f.txt"), std::string::npos);
  }
}

TEST(OperatorSchemaFile, TextRoundTripsWithAdapters) {
  std::string text =
      "# comment\n@release 2.11.0\n@adapter-registry present\n@adapter aten::amax 2.11.0\n"
      "aten::abs(Tensor self) -> Tensor\n";
  OperatorSchemas schemas = parse_operator_schemas(text, "t");
  EXPECT_EQ(schemas.release, (TorchVersion{2, 11, 0}));
  EXPECT_TRUE(schemas.has_adapter_registry);
  ASSERT_EQ(schemas.adapters.size(), 1u);
  EXPECT_EQ(schemas.adapters[0].name, "aten::amax");
  EXPECT_EQ(schemas.adapters[0].applies_below, (TorchVersion{2, 11, 0}));
  EXPECT_EQ(parse_operator_schemas(operator_schemas_to_text(schemas), "t").schemas.at(0).text,
            "aten::abs(Tensor self) -> Tensor");
  EXPECT_NE(schemas.find("aten::abs"), nullptr);
}

// Every committed operator baseline parses, names its own release and holds the operators the stable
// wrappers call; the adapter registry exists from 2.10, where torch_call_dispatcher came.
TEST(OperatorSchemaFile, EveryCommittedBaselineReadsBack) {
  int read = 0;
  for (const auto& entry : std::filesystem::directory_iterator(project_root() / "shim_decls")) {
    std::filesystem::path file = entry.path() / kOperatorsFile;
    if (!std::filesystem::exists(file)) continue;
    OperatorSchemas schemas = load_operator_schemas(file);
    TorchVersion release = TorchVersion::parse(entry.path().filename().string());
    EXPECT_EQ(schemas.release.minor_release(), release) << file;
    EXPECT_GT(schemas.schemas.size(), 2000u) << file;
    EXPECT_NE(schemas.find("aten::add.Tensor"), nullptr) << file;
    EXPECT_NE(schemas.find("aten::transpose.int"), nullptr) << file;
    EXPECT_EQ(schemas.has_adapter_registry, release >= (TorchVersion{2, 10, 0})) << file;
    ++read;
  }
  EXPECT_GT(read, 0) << "no shim_decls/<release>/operators.txt committed";
}

}  // namespace
}  // namespace abicheck
