#include "matrix/matrix_judgement.h"

#include <fmt/format.h>

#include <algorithm>

namespace abicheck {
namespace {

// The outcomes that are findings (outcome_name), what each means and what to do.
constexpr KindRow kMatrixKinds[] = {
    {"unexpected-fail",
     "A reference kernel built at B for target T failed under a runtime R it is promised "
     "to run on: a break of the stable ABI.",
     "Read the cell's log: the first missing symbol or wrong result names the change."},
    {"unexpected-pass",
     "A cell expected to fail (a target newer than the build or runtime) passed: a guard "
     "does not hide what it should.",
     "Check the version guards of what the kernel used."},
    {"crash", "The cell's process died of a signal: memory corruption across the ABI is likely.",
     "Reproduce the cell (its log gives the command) under a debugger."},
    {"timeout", "The cell did not finish in time.",
     "Rerun it alone; a hang in the load or an op is a finding of its own."},
};

// What an unexpected failure of a cell did, as the report counts it: its build, its load, or its ops.
Consequence consequence_of(CellFailure failure) {
  switch (failure) {
    case CellFailure::Build: return Consequence::DoesNotCompile;
    case CellFailure::Load: return Consequence::DoesNotLoad;
    case CellFailure::Registration:
    case CellFailure::Crash:
    case CellFailure::WrongResult:
    case CellFailure::OpError: return Consequence::FailsAtCallTime;
    case CellFailure::None:
    case CellFailure::Timeout: break;
  }
  return Consequence::Unstated;
}

}  // namespace

std::string cell_label(const MatrixCell& cell) {
  return fmt::format("{} {} B{} T{} R{}", cell.suite, backend_name(cell.backend), cell.build.to_string(),
                     cell.target.to_string(), cell.runtime.to_string());
}

std::optional<KindText> matrix_kind_text(std::string_view kind) { return find_kind_text(kMatrixKinds, kind); }

Judgement judge_matrix(const MatrixResult& result) {
  Judgement judgement;
  for (const auto& cell : result.cells) {
    if (!is_finding(cell.outcome)) continue;
    judgement.findings.push_back({.stage = "matrix",
                                  .kind = outcome_name(cell.outcome),
                                  .where = cell_label(cell),
                                  .message = cell.reason,
                                  .consequence = consequence_of(cell.failure)});
  }
  judgement.explain_kinds("matrix", matrix_kind_text);
  auto not_run = std::ranges::count(result.cells, CellOutcome::NotRun, &MatrixCell::outcome);
  judgement.lines.push_back(fmt::format("matrix: {} cells, {} unexpected, {} not run", result.cells.size(),
                                        judgement.findings.size(), not_run));
  return judgement;
}

}  // namespace abicheck
