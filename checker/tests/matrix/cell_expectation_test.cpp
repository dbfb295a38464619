#include "matrix/cell_expectation.h"

#include <gtest/gtest.h>
#include <signal.h>

namespace abicheck {
namespace {

const TorchVersion v2_9{2, 9, 1};
const TorchVersion v2_10{2, 10, 0};
const TorchVersion v2_12{2, 12, 1};
const TorchVersion v2_15{2, 15, 0};

// Shims as the store would date them.
std::optional<TorchVersion> first_exporting(const std::string& symbol) {
  if (symbol == "aoti_torch_call_dispatcher") return TorchVersion{2, 9, 1};
  if (symbol == "torch_list_size") return TorchVersion{2, 10, 0};
  if (symbol == "torch_from_blob") return TorchVersion{2, 11, 0};
  return std::nullopt;
}

const BuildStatus built{BuildStatus::Kind::Built, "built"};

CellRun load_failure(const std::string& message) {
  return CellRun{.exit_code = 3, .describe = "exit 3", .result_written = true, .loaded = false, .load_error = message};
}

std::string exit_description(int exit_code) { return "exit " + std::to_string(exit_code); }

CellRun completed(int passed, int failed) {
  return CellRun{.exit_code = failed ? 1 : 0,
                 .describe = "exit 0",
                 .result_written = true,
                 .loaded = true,
                 .cases_passed = passed,
                 .cases_failed = failed};
}

TEST(MatrixExpectation, PassWhenTargetIsAtMostBuildAndRuntime) {
  EXPECT_EQ(expected_outcome(ExtensionApi::Stable, v2_15, v2_9, v2_9), Expectation::Pass);
  EXPECT_EQ(expected_outcome(ExtensionApi::Stable, v2_15, v2_12, v2_15), Expectation::Pass);
  EXPECT_EQ(expected_outcome(ExtensionApi::Stable, v2_9, v2_9, v2_15), Expectation::Pass);
}

TEST(MatrixExpectation, TargetNewerThanRuntimeMustFailAtLoad) {
  EXPECT_EQ(expected_outcome(ExtensionApi::Stable, v2_15, v2_12, v2_10), Expectation::LoadFail);
}

TEST(MatrixExpectation, TargetNewerThanBuildMustFailToBuild) {
  EXPECT_EQ(expected_outcome(ExtensionApi::Stable, v2_9, v2_12, v2_15), Expectation::BuildFail);
}

TEST(MatrixExpectation, PatchReleasesCountAsTheirMinor) {
  EXPECT_EQ(expected_outcome(ExtensionApi::Stable, TorchVersion{2, 12, 0}, v2_12, TorchVersion{2, 12, 0}),
            Expectation::Pass);
}

TEST(MatrixExpectation, UnstableExtensionIsOnlyGuaranteedOnItsBuild) {
  EXPECT_EQ(expected_outcome(ExtensionApi::Unstable, v2_9, v2_9, v2_9), Expectation::Pass);
  EXPECT_EQ(expected_outcome(ExtensionApi::Unstable, v2_9, v2_9, v2_12), Expectation::NoGuarantee);
}

TEST(MatrixClassification, FindsTheUndefinedSymbolInALoaderMessage) {
  EXPECT_EQ(undefined_symbol_in("/x/lib.so: undefined symbol: torch_list_size"), "torch_list_size");
  EXPECT_EQ(undefined_symbol_in("OSError('/x.so: undefined symbol: _ZN3c104Half')"), "_ZN3c104Half");
  EXPECT_EQ(undefined_symbol_in("cannot open shared object file"), std::nullopt);
}

TEST(MatrixClassification, AllOpsPassingIsAPass) {
  auto verdict = classify_cell(Expectation::Pass, v2_12, built, true, completed(12, 0), first_exporting);
  EXPECT_EQ(verdict.outcome, CellOutcome::Pass);
  EXPECT_EQ(verdict.reason, "12 op tests passed");
}

TEST(MatrixClassification, AFailingOpIsAnUnexpectedFailure) {
  auto verdict = classify_cell(Expectation::Pass, v2_12, built, true, completed(11, 1), first_exporting);
  EXPECT_EQ(verdict.outcome, CellOutcome::UnexpectedFail);
  EXPECT_TRUE(is_finding(verdict.outcome));
}

// A test module that does not import ends the runner in error before any case ran: not a pass.
TEST(MatrixClassification, ARunnerThatFailedWithoutAFailedCaseIsNeverAPass) {
  CellRun run = completed(0, 0);
  run.exit_code = 70;
  run.describe = "exit 70";
  run.last_output_line = "ImportError: cannot import name 'heap_in_use' from 'harness'";
  auto verdict = classify_cell(Expectation::Pass, v2_12, built, true, run, first_exporting);
  EXPECT_EQ(verdict.outcome, CellOutcome::UnexpectedFail);
  EXPECT_EQ(verdict.failure, CellFailure::OpError);
  EXPECT_NE(verdict.reason.find("ImportError: cannot import name"), std::string::npos) << verdict.reason;
  EXPECT_EQ(classify_cell(Expectation::Pass, v2_12, built, true, completed(3, 0), first_exporting).outcome,
            CellOutcome::Pass);
}

TEST(MatrixClassification, LoadRefusalOnANewerShimIsTheExpectedFailure) {
  auto verdict = classify_cell(Expectation::LoadFail, v2_9, built, true,
                               load_failure("lib.so: undefined symbol: torch_list_size"), first_exporting);
  EXPECT_EQ(verdict.outcome, CellOutcome::ExpectedFail);
  EXPECT_NE(verdict.reason.find("torch_list_size (a 2.10 shim)"), std::string::npos);
}

TEST(MatrixClassification, LoadRefusalOnAShimTheRuntimeHasIsUnexpected) {
  auto verdict = classify_cell(Expectation::LoadFail, v2_10, built, true,
                               load_failure("lib.so: undefined symbol: torch_list_size"), first_exporting);
  EXPECT_EQ(verdict.outcome, CellOutcome::UnexpectedFail);
}

TEST(MatrixClassification, LoadRefusalForAnotherReasonIsUnexpected) {
  EXPECT_EQ(classify_cell(Expectation::LoadFail, v2_9, built, true, load_failure("lib.so: cannot open shared object"),
                          first_exporting)
                .outcome,
            CellOutcome::UnexpectedFail);
  EXPECT_EQ(classify_cell(Expectation::LoadFail, v2_9, built, true,
                          load_failure("lib.so: undefined symbol: _ZN3c1010TensorImpl"), first_exporting)
                .outcome,
            CellOutcome::UnexpectedFail);
}

TEST(MatrixClassification, LoadingWhereTheLoaderMustRefuseIsAnUnexpectedPass) {
  auto verdict = classify_cell(Expectation::LoadFail, v2_9, built, true, completed(3, 0), first_exporting);
  EXPECT_EQ(verdict.outcome, CellOutcome::UnexpectedPass);
}

TEST(MatrixClassification, BuildFailureIsExpectedOnlyForOverTargets) {
  BuildStatus failed{BuildStatus::Kind::Failed, "exit 1"};
  EXPECT_EQ(classify_cell(Expectation::BuildFail, v2_15, failed, true, std::nullopt, first_exporting).outcome,
            CellOutcome::ExpectedFail);
  EXPECT_EQ(classify_cell(Expectation::Pass, v2_15, failed, true, std::nullopt, first_exporting).outcome,
            CellOutcome::UnexpectedFail);
}

TEST(MatrixClassification, AnOverTargetThatBuildsIsASilentOverTarget) {
  auto verdict = classify_cell(Expectation::BuildFail, v2_15, built, true, std::nullopt, first_exporting);
  EXPECT_EQ(verdict.outcome, CellOutcome::UnexpectedPass);
  EXPECT_NE(verdict.reason.find("silent over-target"), std::string::npos);
}

TEST(MatrixClassification, SignalAndTimeoutAreCrashAndTimeout) {
  CellRun crashed{.term_signal = SIGSEGV, .describe = "signal 11 (Segmentation fault)"};
  auto verdict = classify_cell(Expectation::Pass, v2_10, built, true, crashed, first_exporting);
  EXPECT_EQ(verdict.outcome, CellOutcome::Crash);
  EXPECT_EQ(verdict.reason, "signal 11 (Segmentation fault)");
  CellRun hung{.term_signal = SIGKILL, .timed_out = true, .describe = "timed out after 40 s"};
  EXPECT_EQ(classify_cell(Expectation::Pass, v2_10, built, true, hung, first_exporting).outcome, CellOutcome::Timeout);
}

TEST(MatrixClassification, ARunnerThatDiedWithoutAResultIsACrash) {
  CellRun died{.exit_code = 134, .describe = "exit 134"};
  EXPECT_EQ(classify_cell(Expectation::Pass, v2_10, built, true, died, first_exporting).outcome, CellOutcome::Crash);
}

TEST(MatrixClassification, NoDeviceMeansNotRunNeverPass) {
  auto verdict = classify_cell(Expectation::Pass, v2_10, built, false, std::nullopt, first_exporting);
  EXPECT_EQ(verdict.outcome, CellOutcome::NotRun);
  EXPECT_EQ(verdict.reason, "no device");
  EXPECT_FALSE(is_finding(verdict.outcome));
}

TEST(MatrixClassification, FailuresAreKeptApart) {
  CellRun crashed{.term_signal = SIGSEGV, .describe = "signal 11 (Segmentation fault)"};
  EXPECT_EQ(classify_cell(Expectation::Pass, v2_10, built, true, crashed, first_exporting).failure, CellFailure::Crash);
  CellRun hung{.term_signal = SIGKILL, .timed_out = true, .describe = "timed out after 40 s"};
  EXPECT_EQ(classify_cell(Expectation::Pass, v2_10, built, true, hung, first_exporting).failure, CellFailure::Timeout);
  EXPECT_EQ(classify_cell(Expectation::Pass, v2_9, built, true,
                          load_failure("lib.so: undefined symbol: torch_from_blob"), first_exporting)
                .failure,
            CellFailure::Load);
  CellRun wrong = completed(3, 2);
  wrong.cases_wrong = 1;
  auto verdict = classify_cell(Expectation::Pass, v2_10, built, true, wrong, first_exporting);
  EXPECT_EQ(verdict.failure, CellFailure::WrongResult);
  EXPECT_EQ(verdict.reason, "2 of 5 op tests failed (1 wrong result, 1 raised)");
  EXPECT_EQ(classify_cell(Expectation::Pass, v2_10, built, true, completed(3, 2), first_exporting).failure,
            CellFailure::OpError);
}

TEST(MatrixClassification, ARegistrationThatAbortsTheLoadIsALoadFailureNotACrash) {
  CellRun aborted{.term_signal = SIGABRT,
                  .describe = "signal 6 (Aborted)",
                  .result_written = true,
                  .load_started = true,
                  .registration_failed = true,
                  .load_error = "aborted while loading (signal 6 (Aborted)):   what():  schema parse error"};
  auto verdict = classify_cell(Expectation::Pass, v2_10, built, true, aborted, first_exporting);
  EXPECT_EQ(verdict.outcome, CellOutcome::UnexpectedFail);
  EXPECT_EQ(verdict.failure, CellFailure::Registration);
  EXPECT_NE(verdict.reason.find("schema parse error"), std::string::npos);
  // A signal once the library has loaded stays a crash.
  CellRun crashed_later{
      .term_signal = SIGABRT, .describe = "signal 6 (Aborted)", .result_written = true, .loaded = true};
  EXPECT_EQ(classify_cell(Expectation::Pass, v2_10, built, true, crashed_later, first_exporting).outcome,
            CellOutcome::Crash);
}

TEST(MatrixClassification, AGpuLibraryLoadedWithoutADeviceIsLoadedNotExecutedNeverPass) {
  CellRun loaded = completed(2, 0);
  loaded.load_only = true;
  auto verdict = classify_cell(Expectation::Pass, v2_10, built, false, loaded, first_exporting);
  EXPECT_EQ(verdict.outcome, CellOutcome::LoadedNotExecuted);
  EXPECT_FALSE(is_finding(verdict.outcome));
  CellRun unregistered = completed(1, 1);
  unregistered.load_only = true;
  auto missing = classify_cell(Expectation::Pass, v2_10, built, false, unregistered, first_exporting);
  EXPECT_EQ(missing.outcome, CellOutcome::UnexpectedFail);
  EXPECT_EQ(missing.failure, CellFailure::Registration);
  EXPECT_EQ(unloadable_cell("a rocm build needs a ROCm torch").outcome, CellOutcome::NotRun);
}

TEST(MatrixClassification, UnstableBreakAtLoadIsExpectedAndWorkingIsAPass) {
  auto broke = classify_cell(Expectation::NoGuarantee, v2_12, built, true,
                             load_failure("x.so: undefined symbol: _ZNR5torch7Library4_defE"), first_exporting);
  EXPECT_EQ(broke.outcome, CellOutcome::ExpectedFail);
  auto worked = classify_cell(Expectation::NoGuarantee, v2_10, built, true, completed(1, 0), first_exporting);
  EXPECT_EQ(worked.outcome, CellOutcome::Pass);
  EXPECT_NE(worked.reason.find("not guaranteed"), std::string::npos);
}

// A project's smoke test (check) is judged by the same classifier: one command, no result file.
CellRun smoke(int exit_code, const std::string& last_line) {
  return CellRun{.tests = CellTests::SmokeTest,
                 .exit_code = exit_code,
                 .describe = exit_description(exit_code),
                 .result_written = true,
                 .loaded = true,
                 .cases_passed = exit_code == 0 ? 1 : 0,
                 .cases_failed = exit_code == 0 ? 0 : 1,
                 .last_output_line = last_line};
}

TEST(MatrixClassification, SmokeTestPassesAndFailsByItsExitStatus) {
  auto passed = classify_cell(Expectation::Pass, v2_12, built, true, smoke(0, "ok"), first_exporting);
  EXPECT_EQ(passed.outcome, CellOutcome::Pass);
  EXPECT_EQ(passed.reason, "smoke test passed");
  auto failed =
      classify_cell(Expectation::Pass, v2_12, built, true, smoke(1, "AssertionError: 3 != 4"), first_exporting);
  EXPECT_EQ(failed.outcome, CellOutcome::UnexpectedFail);
  EXPECT_EQ(failed.reason, "smoke test failed (exit 1): AssertionError: 3 != 4");
}

TEST(MatrixClassification, AnUnexpectedLoadFailureNamesTheReleaseThatHasTheShim) {
  auto verdict = classify_cell(Expectation::Pass, v2_9, built, true,
                               load_failure("lib.so: undefined symbol: torch_from_blob"), first_exporting);
  EXPECT_EQ(verdict.outcome, CellOutcome::UnexpectedFail);
  EXPECT_EQ(verdict.reason, "load failed: undefined symbol torch_from_blob (first exported by torch 2.11)");
  auto unknown = classify_cell(Expectation::Pass, v2_9, built, true,
                               load_failure("lib.so: undefined symbol: torch_not_a_shim_yet"), first_exporting);
  EXPECT_EQ(unknown.reason, "load failed: undefined symbol torch_not_a_shim_yet (exported by no stored release)");
  auto not_a_shim = classify_cell(Expectation::Pass, v2_9, built, true,
                                  load_failure("lib.so: undefined symbol: _ZN3c104Half"), first_exporting);
  EXPECT_EQ(not_a_shim.reason, "load failed: lib.so: undefined symbol: _ZN3c104Half");
}

}  // namespace
}  // namespace abicheck
