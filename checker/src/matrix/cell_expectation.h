#pragma once

#include <functional>
#include <optional>
#include <string>

#include "core/torch_version.h"
#include "matrix/matrix_spec.h"

namespace abicheck {

// What the version rules predict for a cell (build B, target T, runtime R).
enum class Expectation {
  Pass,         // T <= min(B, R)
  BuildFail,    // T > B: the headers of B cannot provide what T needs
  LoadFail,     // T > R: the loader must refuse a shim newer than R
  NoGuarantee,  // an unstable-API extension under a runtime other than its build
};

// What really happened, judged against the expectation.
// LoadedNotExecuted: a GPU library loaded without a GPU, its ops registered for the device, no test
// run; never a pass.
enum class CellOutcome {
  Pass,
  ExpectedFail,
  UnexpectedFail,
  UnexpectedPass,
  Crash,
  Timeout,
  NotRun,
  LoadedNotExecuted
};

// What went wrong in a cell, kept apart whatever the expectation made of it: the loader refused the
// library (undefined symbol), its op registration failed (an exception, or an abort while loading),
// it crashed (a signal after loading), an op gave a wrong result, an op raised, it hung.
enum class CellFailure { None, Build, Load, Registration, Crash, WrongResult, OpError, Timeout };

std::string expectation_name(Expectation expectation);
std::string outcome_name(CellOutcome outcome);
std::string failure_name(CellFailure failure);
// An outcome that differs from the expectation: the matrix exits 1 when any cell has one.
bool is_finding(CellOutcome outcome);

// Versions compare per minor release: the stable ABI does not change within one.
Expectation expected_outcome(ExtensionApi api, TorchVersion build, TorchVersion target, TorchVersion runtime);

// How the build of a cell's library ended.
struct BuildStatus {
  enum class Kind { Built, Failed, Unavailable };  // Unavailable: no compiler for this backend here
  Kind kind = Kind::Built;
  std::string detail;  // "exit 1", "signal 9 (Killed)", "timed out after 900 s", "nvcc not found"
};

// What runs once the library has loaded: the matrix's op tests (counted in the runner's result
// file), or a project's smoke test (`check`: one command, passed or failed by its exit status).
enum class CellTests { OpTests, SmokeTest };

// How the cell's process ended and what its result file said.
struct CellRun {
  CellTests tests = CellTests::OpTests;
  std::optional<int> exit_code;
  std::optional<int> term_signal;
  bool timed_out = false;
  std::string describe;         // ProcessResult::describe()
  bool result_written = false;  // the runner wrote its JSON (it did not die first)
  bool load_started = false;    // it was still loading the library when it ended (its last word)
  bool loaded = false;
  bool registration_failed = false;  // the library loaded but registering its ops raised
  std::string load_error;            // the loader's (or the registration's) message when !loaded
  bool load_only = false;            // a GPU library without a GPU: loaded and registration checked only
  int cases_passed = 0;
  int cases_failed = 0;
  int cases_wrong = 0;           // of the failed: the op answered wrongly (the others raised)
  std::string last_output_line;  // the last line the cell printed (why a smoke test or the runner failed)
};

struct CellVerdict {
  CellOutcome outcome = CellOutcome::NotRun;
  std::string reason;  // one line: why this outcome
  CellFailure failure = CellFailure::None;
};

// The first store release whose libtorch exports a symbol, or nothing when none does.
using FirstExportingRelease = std::function<std::optional<TorchVersion>(const std::string& symbol)>;

// "undefined symbol: torch_from_blob" anywhere in a loader message -> "torch_from_blob".
std::optional<std::string> undefined_symbol_in(const std::string& loader_message);

// A cell whose library cannot be loaded into its runtime at all (a ROCm build under a CUDA torch):
// not run, with the reason.
CellVerdict unloadable_cell(const std::string& reason);

// Judges one cell. `run` is empty when the cell was not run (build failed, no device). Without a
// device a GPU cell's `run` may be a load-only run (CellRun::load_only).
CellVerdict classify_cell(Expectation expectation, TorchVersion runtime, const BuildStatus& build,
                          bool device_available, const std::optional<CellRun>& run,
                          const FirstExportingRelease& first_exporting);

}  // namespace abicheck
