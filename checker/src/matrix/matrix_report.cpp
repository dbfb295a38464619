#include "matrix/matrix_report.h"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

namespace abicheck {
namespace {

std::string short_outcome(CellOutcome outcome) {
  switch (outcome) {
    case CellOutcome::Pass: return "pass";
    case CellOutcome::ExpectedFail: return "xfail";
    case CellOutcome::UnexpectedFail: return "FAIL";
    case CellOutcome::UnexpectedPass: return "XPASS";
    case CellOutcome::Crash: return "CRASH";
    case CellOutcome::Timeout: return "TIME";
    case CellOutcome::NotRun: return "-";
  }
  return "?";
}

// Cells grouped for a grid: (suite, backend) -> rows (build, target) -> runtime -> cell.
struct Grid {
  std::string title;
  std::set<TorchVersion> runtimes;
  std::map<std::pair<TorchVersion, TorchVersion>, std::map<TorchVersion, const MatrixCell*>> rows;
};

std::vector<Grid> grids_of(const MatrixResult& result) {
  std::vector<Grid> grids;
  std::map<std::pair<std::string, std::string>, std::size_t> index;
  for (const auto& cell : result.cells) {
    auto key = std::pair(cell.suite, backend_name(cell.backend));
    auto [found, inserted] = index.emplace(key, grids.size());
    if (inserted) grids.push_back({fmt::format("{} ({})", cell.suite, backend_name(cell.backend)), {}, {}});
    Grid& grid = grids[found->second];
    grid.runtimes.insert(cell.runtime);
    grid.rows[{cell.build, cell.target}][cell.runtime] = &cell;
  }
  return grids;
}

std::map<CellOutcome, int> counts_of(const MatrixResult& result) {
  std::map<CellOutcome, int> counts;
  for (const auto& cell : result.cells) ++counts[cell.outcome];
  return counts;
}

std::string cell_class(const MatrixCell& cell) {
  return fmt::format("matrix.{}.{}.B{}.T{}.R{}", cell.suite, backend_name(cell.backend), cell.build.to_string(),
                     cell.target.to_string(), cell.runtime.to_string());
}

}  // namespace

std::string render_matrix_json(const MatrixResult& result) {
  nlohmann::json cells = nlohmann::json::array();
  for (const auto& cell : result.cells) {
    nlohmann::json ops = nlohmann::json::array();
    for (const auto& op : cell.ops) {
      ops.push_back({{"group", op.group}, {"op", op.op}, {"test", op.name}, {"outcome", op.outcome}, {"message", op.message}});
    }
    cells.push_back({{"suite", cell.suite},
                     {"backend", backend_name(cell.backend)},
                     {"build", cell.build.to_string()},
                     {"target", cell.target.to_string()},
                     {"runtime", cell.runtime.to_string()},
                     {"expected", expectation_name(cell.expected)},
                     {"outcome", outcome_name(cell.outcome)},
                     {"reason", cell.reason},
                     {"duration_s", std::round(cell.duration_s * 100) / 100},
                     {"log", cell.log},
                     {"ops", ops}});
  }
  return nlohmann::json({{"cells", cells}}).dump(2) + "\n";
}

std::vector<JUnitCase> matrix_junit_cases(const MatrixResult& result) {
  std::vector<JUnitCase> cases;
  for (const auto& cell : result.cells) {
    const bool finding = is_finding(cell.outcome);
    bool an_op_failed = false;
    for (const auto& op : cell.ops) {
      JUnitCase junit{.class_name = cell_class(cell), .name = op.op + "." + op.name, .message = op.message};
      if (op.outcome == "failed") {
        junit.outcome = JUnitCase::Outcome::Failed;
        junit.output = cell.log;
        an_op_failed = true;
      }
      if (op.outcome == "skipped") junit.outcome = JUnitCase::Outcome::Skipped;
      cases.push_back(std::move(junit));
    }
    // The cell itself is a case when no op speaks for it: nothing ran, or every op passed in a
    // cell that should have failed.
    if (cell.ops.empty() || (finding && !an_op_failed)) {
      JUnitCase junit{.class_name = cell_class(cell), .name = "cell", .message = cell.reason, .output = cell.log,
                      .seconds = cell.duration_s};
      if (cell.outcome == CellOutcome::Crash || cell.outcome == CellOutcome::Timeout) {
        junit.outcome = JUnitCase::Outcome::Error;
      } else if (finding) {
        junit.outcome = JUnitCase::Outcome::Failed;
      } else if (cell.outcome == CellOutcome::NotRun) {
        junit.outcome = JUnitCase::Outcome::Skipped;
      }
      cases.push_back(std::move(junit));
    }
  }
  return cases;
}

std::string render_matrix_markdown(const MatrixResult& result) {
  std::string text = "# torch-abi-check matrix\n\n";
  text += "Rows: build B / target T. Columns: runtime R. pass, xfail (failed as predicted), FAIL, XPASS "
          "(passed where it must fail), CRASH, TIME (timeout), - (not run).\n";
  for (const auto& grid : grids_of(result)) {
    text += fmt::format("\n## {}\n\n| B / T |", grid.title);
    for (const auto& runtime : grid.runtimes) text += fmt::format(" R {} |", runtime.to_string());
    text += "\n|---|";
    for (std::size_t i = 0; i < grid.runtimes.size(); ++i) text += "---|";
    text += "\n";
    for (const auto& [row, by_runtime] : grid.rows) {
      text += fmt::format("| {} / {} |", row.first.to_string(), row.second.to_string());
      for (const auto& runtime : grid.runtimes) {
        auto found = by_runtime.find(runtime);
        text += found == by_runtime.end() ? " |" : fmt::format(" {} |", short_outcome(found->second->outcome));
      }
      text += "\n";
    }
  }
  std::string findings;
  for (const auto& cell : result.cells) {
    if (!is_finding(cell.outcome)) continue;
    findings += fmt::format("- `{}` {}: {}\n", cell_class(cell), outcome_name(cell.outcome), cell.reason);
  }
  text += findings.empty() ? "\nNo unexpected outcome.\n" : "\n## Unexpected outcomes\n\n" + findings;
  return text;
}

std::string render_matrix_grid(const MatrixResult& result) {
  std::string text;
  for (const auto& grid : grids_of(result)) {
    text += fmt::format("{}\n  {:<13}", grid.title, "B / T");
    for (const auto& runtime : grid.runtimes) text += fmt::format(" {:>6}", runtime.to_string());
    text += "\n";
    for (const auto& [row, by_runtime] : grid.rows) {
      text += fmt::format("  {:<13}", row.first.to_string() + " / " + row.second.to_string());
      for (const auto& runtime : grid.runtimes) {
        auto found = by_runtime.find(runtime);
        text += fmt::format(" {:>6}", found == by_runtime.end() ? "" : short_outcome(found->second->outcome));
      }
      text += "\n";
    }
    text += "\n";
  }
  for (const auto& cell : result.cells) {
    if (is_finding(cell.outcome)) {
      text += fmt::format("{} {}: {}\n", cell_class(cell), outcome_name(cell.outcome), cell.reason);
    }
  }
  std::string summary;
  for (const auto& [outcome, count] : counts_of(result)) {
    summary += fmt::format("{}{} {}", summary.empty() ? "" : ", ", count, outcome_name(outcome));
  }
  text += fmt::format("{} cells: {} ({} builds, {} cached; {} cells from cache; {:.1f} s)\n", result.cells.size(), summary,
                      result.builds_total, result.builds_cached, result.cells_cached, result.wall_s);
  return text;
}

}  // namespace abicheck
