#include "matrix/matrix_judgement.h"

#include <fmt/format.h>

#include <algorithm>

namespace abicheck {

std::string cell_label(const MatrixCell& cell) {
  return fmt::format("{} {} B{} T{} R{}", cell.suite, backend_name(cell.backend), cell.build.to_string(),
                     cell.target.to_string(), cell.runtime.to_string());
}

Judgement judge_matrix(const MatrixResult& result) {
  Judgement judgement;
  for (const auto& cell : result.cells) {
    if (!is_finding(cell.outcome)) continue;
    judgement.findings.push_back(
        {.stage = "matrix", .kind = outcome_name(cell.outcome), .where = cell_label(cell), .message = cell.reason});
  }
  auto not_run = std::ranges::count(result.cells, CellOutcome::NotRun, &MatrixCell::outcome);
  judgement.lines.push_back(fmt::format("matrix: {} cells, {} unexpected, {} not run", result.cells.size(),
                                        judgement.findings.size(), not_run));
  return judgement;
}

}  // namespace abicheck
