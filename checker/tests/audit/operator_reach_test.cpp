// Operators are dated by where a binary can reach them (reaches_dispatcher_by_name): two small
// objects built here hold the strings "aten::dim" and "aten::numel", which the dispatcher registers
// only from 2.12 (shim_decls/*/operators.txt, listed from each release's dispatcher) while
// TorchScript's own registry has them on 2.9 too. One looks operators up in libtorch's dispatcher
// by name, the other only in TorchScript's registry (torch-tensorrt's shape); only the first is dated.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "audit/audit_fixture_support.h"
#include "core/process.h"

namespace abicheck::testing {
namespace {

namespace fs = std::filesystem;

fs::path build_object(const std::string& name, const std::string& source) {
  fs::path directory = audit_scratch_dir() / "operator-reach";
  fs::create_directories(directory);
  std::ofstream(directory / (name + ".cpp")) << source;
  fs::path object = directory / (name + ".so");
  ProcessResult built = run_process(
      {.argv = {"c++", "-shared", "-fPIC", "-O0", (directory / (name + ".cpp")).string(), "-o", object.string()},
       .timeout = std::chrono::minutes(2)});
  EXPECT_TRUE(built.succeeded()) << built.output;
  return object;
}

std::vector<std::string> operator_names(const nlohmann::json& binary) {
  std::vector<std::string> names;
  for (const auto& use : binary["operators"]) names.push_back(use["name"]);
  return names;
}

TEST(OperatorReach, StringsLookedUpInTheDispatcherAreDatedByIt) {
  fs::path object =
      build_object("dispatcher_lookup",
                   "namespace c10 {\n"
                   "struct OperatorHandle { void* schema; };\n"
                   "class Dispatcher { public: OperatorHandle findSchemaOrThrow(const char*, const char*); };\n"
                   "}\n"
                   "extern \"C\" void* lookup(c10::Dispatcher* d) {\n"
                   "  return d->findSchemaOrThrow(\"aten::dim\", \"\").schema ? d : "
                   "d->findSchemaOrThrow(\"aten::numel\", \"\").schema;\n"
                   "}\n");
  AuditRun run = run_audit_json({object.string()});
  ASSERT_EQ(run.exit_code, 1) << run.output;  // libtorch's C++ ABI: unstable
  const auto& binary = run.report["binaries"][0];
  EXPECT_EQ(operator_names(binary), (std::vector<std::string>{"aten::dim", "aten::numel"}));
  EXPECT_EQ(binary["min_torch"], "2.12");
}

TEST(OperatorReach, StringsOnlyTorchScriptsRegistryCanReachDateNothing) {
  fs::path object =
      build_object("jit_registry",
                   "namespace c10 { struct Symbol { unsigned value; }; }\n"
                   "namespace torch::jit { void* getAllOperatorsFor(c10::Symbol); }\n"
                   "extern \"C\" const char* patterns(int i) { return i ? \"aten::dim\" : \"aten::numel\"; }\n"
                   "extern \"C\" void* lookup() { return torch::jit::getAllOperatorsFor(c10::Symbol{1}); }\n");
  AuditRun run = run_audit_json({object.string()});
  ASSERT_EQ(run.exit_code, 1) << run.output;
  const auto& binary = run.report["binaries"][0];
  EXPECT_EQ(operator_names(binary), std::vector<std::string>{});
  EXPECT_TRUE(binary["min_torch"].is_null()) << binary.dump(2);
}

}  // namespace
}  // namespace abicheck::testing
