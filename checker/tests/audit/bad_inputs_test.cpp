// Every bad input under fixtures/audit/bad/ against the exit code and message in expected.json.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/build_paths.h"
#include "support/cli.h"

namespace abicheck::testing {
namespace {

struct BadInput {
  std::string file;
  int exit_code;
  std::string message;
};

std::filesystem::path bad_inputs_dir() { return std::filesystem::path(TORCH_ABI_CHECK_FIXTURES) / "audit" / "bad"; }

std::vector<BadInput> bad_inputs() {
  std::ifstream stream(bad_inputs_dir() / "expected.json");
  auto expected = nlohmann::json::parse(stream);
  std::vector<BadInput> inputs;
  for (const auto& [file, outcome] : expected.items()) {
    if (file.starts_with("_")) continue;
    inputs.push_back({file, outcome["exit"].get<int>(), outcome["message"].get<std::string>()});
  }
  return inputs;
}

void PrintTo(const BadInput& input, std::ostream* stream) { *stream << input.file; }

class BadInputAudit : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadInputAudit, ExitsWithItsCodeAndAClearMessage) {
  const BadInput& input = GetParam();
  ProcessResult result = run_cli({"audit", (bad_inputs_dir() / input.file).string()});
  ASSERT_TRUE(result.exit_code.has_value()) << "the audit crashed: " << result.describe() << "\n" << result.output;
  EXPECT_EQ(*result.exit_code, input.exit_code) << result.output;
  EXPECT_NE(result.output.find(input.message), std::string::npos) << result.output;
  if (input.exit_code == 2) {
    EXPECT_NE(result.output.find("torch-abi-check: error: "), std::string::npos) << result.output;
    EXPECT_EQ(result.output.find("internal error"), std::string::npos) << result.output;
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, BadInputAudit, ::testing::ValuesIn(bad_inputs()), [](const auto& info) {
  std::string name = info.param.file;
  std::replace_if(
      name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return name;
});

TEST(BadInputAudit, NothingAuditableIsExitTwoAndNoReportIsWritten) {
  auto report = std::filesystem::temp_directory_path() / "audit_no_report.json";
  std::filesystem::remove(report);
  ProcessResult result = run_cli({"audit", (bad_inputs_dir() / "not_elf.so").string(),
                                  (bad_inputs_dir() / "elf32.so").string(), "--json", report.string()});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_FALSE(std::filesystem::exists(report));
}

TEST(BadInputAudit, MissingPathAndFifoAreReportedPerFile) {
  auto fifo = std::filesystem::temp_directory_path() / "audit_fifo.so";
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ProcessResult result = run_cli({"audit", "/nonexistent/lib.so", fifo.string()});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("/nonexistent/lib.so: no such file or directory"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("audit_fifo.so: not a regular file"), std::string::npos) << result.output;
  std::filesystem::remove(fifo);
}

}  // namespace
}  // namespace abicheck::testing
