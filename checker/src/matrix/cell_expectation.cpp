#include "matrix/cell_expectation.h"

#include <fmt/format.h>

namespace abicheck {
namespace {

bool is_shim_symbol(const std::string& symbol) {
  return symbol.starts_with("torch_") || symbol.starts_with("aoti_torch_");
}

CellVerdict judge_build_failure(Expectation expectation, const BuildStatus& build) {
  if (build.kind == BuildStatus::Kind::Unavailable) return {CellOutcome::NotRun, build.detail};
  if (expectation == Expectation::BuildFail) {
    return {CellOutcome::ExpectedFail,
            fmt::format("build failed as predicted for a target newer than the build ({})", build.detail)};
  }
  return {CellOutcome::UnexpectedFail, fmt::format("build failed ({})", build.detail)};
}

CellVerdict judge_load_failure(Expectation expectation, TorchVersion runtime, const CellRun& run,
                               const FirstExportingRelease& first_exporting) {
  auto symbol = undefined_symbol_in(run.load_error);
  if (expectation == Expectation::NoGuarantee) {
    if (symbol)
      return {CellOutcome::ExpectedFail, fmt::format("unstable ABI broke at load: undefined symbol {}", *symbol)};
    return {CellOutcome::UnexpectedFail, fmt::format("load failed: {}", run.load_error)};
  }
  if (expectation != Expectation::LoadFail) {
    // A shim the runtime lacks: say which release has it, the fix an author needs.
    if (symbol && is_shim_symbol(*symbol)) {
      auto introduced = first_exporting(*symbol);
      return {CellOutcome::UnexpectedFail,
              fmt::format("load failed: undefined symbol {} ({})", *symbol,
                          introduced ? fmt::format("first exported by torch {}", introduced->to_string())
                                     : std::string("exported by no stored release"))};
    }
    return {CellOutcome::UnexpectedFail, fmt::format("load failed: {}", run.load_error)};
  }
  if (!symbol) {
    return {CellOutcome::UnexpectedFail,
            fmt::format("load failed, but not with an undefined symbol: {}", run.load_error)};
  }
  if (!is_shim_symbol(*symbol)) {
    return {CellOutcome::UnexpectedFail, fmt::format("load failed on {}, which is not a stable shim", *symbol)};
  }
  auto introduced = first_exporting(*symbol);
  if (!introduced) {
    return {CellOutcome::UnexpectedFail, fmt::format("load failed on {}, which no stored release exports", *symbol)};
  }
  if (introduced->minor_release() <= runtime.minor_release()) {
    return {CellOutcome::UnexpectedFail, fmt::format("load failed on {}, which {} already exports (since {})", *symbol,
                                                     runtime.to_string(), introduced->to_string())};
  }
  return {CellOutcome::ExpectedFail, fmt::format("refused at load as predicted: undefined symbol {} (a {} shim)",
                                                 *symbol, introduced->to_string())};
}

}  // namespace

std::string expectation_name(Expectation expectation) {
  switch (expectation) {
    case Expectation::Pass: return "pass";
    case Expectation::BuildFail: return "build-fail";
    case Expectation::LoadFail: return "load-fail";
    case Expectation::NoGuarantee: return "no-guarantee";
  }
  return "?";
}

std::string outcome_name(CellOutcome outcome) {
  switch (outcome) {
    case CellOutcome::Pass: return "pass";
    case CellOutcome::ExpectedFail: return "expected-fail";
    case CellOutcome::UnexpectedFail: return "unexpected-fail";
    case CellOutcome::UnexpectedPass: return "unexpected-pass";
    case CellOutcome::Crash: return "crash";
    case CellOutcome::Timeout: return "timeout";
    case CellOutcome::NotRun: return "not-run";
    case CellOutcome::LoadedNotExecuted: return "loaded-not-executed";
  }
  return "?";
}

std::string failure_name(CellFailure failure) {
  switch (failure) {
    case CellFailure::None: return "none";
    case CellFailure::Build: return "build";
    case CellFailure::Load: return "load";
    case CellFailure::Registration: return "registration";
    case CellFailure::Crash: return "crash";
    case CellFailure::WrongResult: return "wrong-result";
    case CellFailure::OpError: return "op-error";
    case CellFailure::Timeout: return "timeout";
  }
  return "?";
}

CellVerdict unloadable_cell(const std::string& reason) {
  return {CellOutcome::NotRun, fmt::format("not loadable: {}", reason)};
}

bool is_finding(CellOutcome outcome) {
  return outcome == CellOutcome::UnexpectedFail || outcome == CellOutcome::UnexpectedPass ||
         outcome == CellOutcome::Crash || outcome == CellOutcome::Timeout;
}

Expectation expected_outcome(ExtensionApi api, TorchVersion build, TorchVersion target, TorchVersion runtime) {
  build = build.minor_release();
  target = target.minor_release();
  runtime = runtime.minor_release();
  if (api == ExtensionApi::Unstable) return runtime == build ? Expectation::Pass : Expectation::NoGuarantee;
  if (target > build) return Expectation::BuildFail;
  if (target > runtime) return Expectation::LoadFail;
  return Expectation::Pass;
}

std::optional<std::string> undefined_symbol_in(const std::string& loader_message) {
  static const std::string marker = "undefined symbol: ";
  auto start = loader_message.find(marker);
  if (start == std::string::npos) return std::nullopt;
  start += marker.size();
  auto end = loader_message.find_first_of(" \t\n'\",)", start);
  std::string symbol = loader_message.substr(start, end == std::string::npos ? std::string::npos : end - start);
  if (symbol.empty()) return std::nullopt;
  return symbol;
}

namespace {

CellVerdict judge_run(Expectation expectation, TorchVersion runtime, const CellRun& run,
                      const FirstExportingRelease& first_exporting) {
  if (run.timed_out) return {CellOutcome::Timeout, run.describe, CellFailure::Timeout};
  // Died while loading: registration aborted in the library's static initialisers. A load failure.
  if (run.result_written && run.load_started && !run.loaded) {
    CellVerdict verdict = judge_load_failure(expectation, runtime, run, first_exporting);
    verdict.failure = CellFailure::Registration;
    return verdict;
  }
  if (run.term_signal) return {CellOutcome::Crash, run.describe, CellFailure::Crash};
  if (!run.result_written) {
    return {CellOutcome::Crash, fmt::format("the cell runner ended without a result ({})", run.describe),
            CellFailure::Crash};
  }
  if (!run.loaded) {
    CellVerdict verdict = judge_load_failure(expectation, runtime, run, first_exporting);
    verdict.failure = run.registration_failed ? CellFailure::Registration : CellFailure::Load;
    return verdict;
  }
  if (expectation == Expectation::LoadFail) {
    return {CellOutcome::UnexpectedPass, "loaded although the target is newer than the runtime"};
  }
  if (run.load_only) {
    const int ops = run.cases_passed + run.cases_failed;
    if (run.cases_failed > 0) {
      return {CellOutcome::UnexpectedFail,
              fmt::format("loaded without a device, but {} of {} ops have no kernel registered for it",
                          run.cases_failed, ops),
              CellFailure::Registration};
    }
    return {CellOutcome::LoadedNotExecuted,
            fmt::format("loaded, not executed (no device): {} ops registered for the device", ops)};
  }
  if (run.cases_failed > 0) {
    if (run.tests == CellTests::SmokeTest) {
      return {CellOutcome::UnexpectedFail,
              fmt::format("smoke test failed ({}): {}", run.describe, run.last_output_line), CellFailure::OpError};
    }
    const int raised = run.cases_failed - run.cases_wrong;
    return {CellOutcome::UnexpectedFail,
            fmt::format("{} of {} op tests failed ({} wrong result, {} raised)", run.cases_failed,
                        run.cases_failed + run.cases_passed, run.cases_wrong, raised),
            run.cases_wrong > 0 ? CellFailure::WrongResult : CellFailure::OpError};
  }
  // The runner failed without a failed case (a test module that does not import, an exception in
  // the harness): its tests did not all run, so nothing it reports is a pass.
  if (run.tests == CellTests::OpTests && run.exit_code && *run.exit_code != 0) {
    return {CellOutcome::UnexpectedFail,
            fmt::format("the cell's tests did not run to the end ({}): {}", run.describe, run.last_output_line),
            CellFailure::OpError};
  }
  return {};
}

}  // namespace

CellVerdict classify_cell(Expectation expectation, TorchVersion runtime, const BuildStatus& build,
                          bool device_available, const std::optional<CellRun>& run,
                          const FirstExportingRelease& first_exporting) {
  if (build.kind != BuildStatus::Kind::Built) {
    CellVerdict verdict = judge_build_failure(expectation, build);
    if (build.kind == BuildStatus::Kind::Failed) verdict.failure = CellFailure::Build;
    return verdict;
  }
  if (expectation == Expectation::BuildFail) {
    return {CellOutcome::UnexpectedPass,
            "silent over-target: the build succeeded although the target is newer than the build's headers"};
  }
  if (!run) return {CellOutcome::NotRun, device_available ? "not run" : "no device"};
  if (CellVerdict verdict = judge_run(expectation, runtime, *run, first_exporting);
      verdict.outcome != CellOutcome::NotRun) {
    return verdict;
  }
  if (run->tests == CellTests::SmokeTest) return {CellOutcome::Pass, "smoke test passed"};
  if (expectation == Expectation::NoGuarantee) {
    return {CellOutcome::Pass,
            fmt::format("{} op tests passed (unstable ABI: worked, not guaranteed)", run->cases_passed)};
  }
  return {CellOutcome::Pass, fmt::format("{} op tests passed", run->cases_passed)};
}

}  // namespace abicheck
