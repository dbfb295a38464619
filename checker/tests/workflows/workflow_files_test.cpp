// The CI workflow files users copy must call the CLI as it is: each parses as YAML and every
// `torch-abi-check ...` line names subcommands and flags the built CLI has (validate_workflows.py).

#include <gtest/gtest.h>

#include <fstream>

#include "core/process.h"
#include "core/project_paths.h"
#include "support/build_paths.h"

namespace abicheck {
namespace {

ProcessResult validate(const std::vector<std::string>& workflows) {
  std::vector<std::string> argv = {"python3",
                                   (project_root() / "checker/tests/workflows/validate_workflows.py").string(), "--cli",
                                   TORCH_ABI_CHECK_CLI};
  for (const auto& workflow : workflows) argv.push_back((project_root() / workflow).string());
  return run_process({.argv = argv, .timeout = std::chrono::minutes(2)});
}

TEST(WorkflowFiles, ReleaseGateCallsOnlyExistingCommandsAndFlags) {
  ProcessResult result = validate({"ci/workflows/release-gate.yml"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
}

TEST(WorkflowFiles, ReleaseGateWorkflowRunsTheReleaseGateCommand) {
  std::ifstream workflow(project_root() / "ci/workflows/release-gate.yml");
  std::string text{std::istreambuf_iterator<char>(workflow), std::istreambuf_iterator<char>()};
  EXPECT_NE(text.find("torch-abi-check release-gate --candidate"), std::string::npos)
      << "the workflow and `release-gate` must stay one thing, not two that drift apart";
}

TEST(WorkflowFiles, PreMergeCallsOnlyExistingCommandsAndFlags) {
  ProcessResult result = validate({"ci/workflows/pre-merge.yml"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
}

// Two set-ups through the action, the shards' `matrix --shard`, the whole matrix from their merged caches
// (matrix_shard_test checks that this merge gives the whole report).
TEST(WorkflowFiles, ReferenceMatrixShardsCallOnlyExistingCommandsAndFlags) {
  ProcessResult result = validate({"ci/workflows/reference-matrix.yml"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("reference-matrix.yml: 4 torch-abi-check calls, 0 problems"), std::string::npos)
      << result.output;
  std::ifstream workflow(project_root() / "ci/workflows/reference-matrix.yml");
  std::string text{std::istreambuf_iterator<char>(workflow), std::istreambuf_iterator<char>()};
  EXPECT_NE(text.find("SHARDS: 4\n"), std::string::npos);
  EXPECT_NE(text.find("shard: [1, 2, 3, 4]"), std::string::npos) << "the job matrix must list shards 1 to SHARDS";
}

// The ecosystem canary: the shards' `canary --shard` and the whole grid from their merged caches
// (CanaryShards checks that this merge gives the whole grid).
TEST(WorkflowFiles, EcosystemCanaryShardsCallOnlyExistingCommandsAndFlags) {
  ProcessResult result = validate({"ci/workflows/ecosystem-canary.yml"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("ecosystem-canary.yml: 4 torch-abi-check calls, 0 problems"), std::string::npos)
      << result.output;
  std::ifstream workflow(project_root() / "ci/workflows/ecosystem-canary.yml");
  std::string text{std::istreambuf_iterator<char>(workflow), std::istreambuf_iterator<char>()};
  EXPECT_NE(text.find("SHARDS: 4\n"), std::string::npos);
  EXPECT_NE(text.find("shard: [1, 2, 3, 4]"), std::string::npos) << "the job matrix must list shards 1 to SHARDS";
}

TEST(WorkflowFiles, GitHubActionCallsOnlyExistingCommandsAndFlags) {
  ProcessResult result = validate({"ci/action.yml"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("ci/action.yml: 5 torch-abi-check calls, 0 problems"), std::string::npos)
      << result.output;
}

TEST(WorkflowFiles, EveryWorkflowUsesTheAction) {
  for (const char* name : {"ci/workflows/pre-merge.yml", "ci/workflows/release-gate.yml",
                           "ci/workflows/reference-matrix.yml", "ci/workflows/ecosystem-canary.yml"}) {
    std::ifstream workflow(project_root() / name);
    std::string text{std::istreambuf_iterator<char>(workflow), std::istreambuf_iterator<char>()};
    EXPECT_TRUE(text.find("uses: ./ci\n") != std::string::npos ||
                text.find("/torch-abi-check/ci@") != std::string::npos)
        << name << " sets torch-abi-check up on its own instead of through ci/action.yml";
  }
}

TEST(WorkflowFiles, ValidatorRejectsAnUnknownSubcommandAndAnUnknownFlag) {
  ProcessResult result = validate({"fixtures/report/workflow-unknown-flag.yml"});
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("'torch-abi-check' has no subcommand 'no-such-command'"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("'torch-abi-check matrix' has no option --no-such-flag"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("2 torch-abi-check calls, 2 problems"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace abicheck
