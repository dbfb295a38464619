#include "report/matrix_render.h"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "report/release_order.h"

namespace abicheck {
namespace {

using json = nlohmann::json;

// The grid label of each outcome the matrix writes; the label carries the outcome, so a grid reads
// without colour. `unexpected` marks the outcomes that the matrix judged findings.
struct OutcomeLabel {
  std::string_view outcome;
  std::string_view label;
  bool unexpected;
};
constexpr OutcomeLabel kOutcomeLabels[] = {
    {"pass", "pass", false},           {"expected-fail", "xfail", false},
    {"unexpected-fail", "FAIL", true}, {"unexpected-pass", "XPASS", true},
    {"crash", "CRASH", true},          {"timeout", "TIME", true},
    {"not-run", "-", false},           {"loaded-not-executed", "load", false},
};

const OutcomeLabel* label_of(const std::string& outcome) {
  for (const auto& label : kOutcomeLabels) {
    if (label.outcome == outcome) return &label;
  }
  return nullptr;
}

std::string short_outcome(const std::string& outcome) {
  const OutcomeLabel* label = label_of(outcome);
  return label != nullptr ? std::string(label->label) : "?";
}

bool is_unexpected(const std::string& outcome) {
  const OutcomeLabel* label = label_of(outcome);
  return label == nullptr || label->unexpected;
}

struct RowKey {
  std::string build;
  std::string target;
  bool operator<(const RowKey& other) const {
    if (build != other.build) return release_text_less(build, other.build);
    return release_text_less(target, other.target);
  }
};

// Cells grouped for a grid: (suite, backend) -> rows (build, target) -> runtime -> cell.
struct Grid {
  std::string title;
  std::set<std::string, ReleaseTextLess> runtimes;
  std::map<RowKey, std::map<std::string, const json*, ReleaseTextLess>> rows;
};

std::string text(const json& cell, const char* key) { return cell.value(key, ""); }

std::vector<Grid> grids_of(const json& section) {
  std::vector<Grid> grids;
  std::map<std::pair<std::string, std::string>, std::size_t> index;
  for (const auto& cell : section.at("cells")) {
    auto key = std::pair(text(cell, "suite"), text(cell, "backend"));
    auto [found, inserted] = index.emplace(key, grids.size());
    if (inserted) grids.push_back({fmt::format("{} ({})", key.first, key.second), {}, {}});
    Grid& grid = grids[found->second];
    grid.runtimes.insert(text(cell, "runtime"));
    grid.rows[{text(cell, "build"), text(cell, "target")}][text(cell, "runtime")] = &cell;
  }
  return grids;
}

std::string matrix_cell_class(const json& cell) {
  return fmt::format("matrix.{}.{}.B{}.T{}.R{}", text(cell, "suite"), text(cell, "backend"), text(cell, "build"),
                     text(cell, "target"), text(cell, "runtime"));
}

json coverage_section(const ShimCoverage& coverage) {
  json releases = json::array();
  for (const auto& release : coverage.releases) {
    json not_applicable = json::array();
    for (const auto& shim : release.hand_written_not_applicable) {
      not_applicable.push_back({{"name", shim.name}, {"needs", shim.needs}});
    }
    releases.push_back({{"release", release.release.to_string()},
                        {"declared", release.declared},
                        {"imported", release.imported},
                        {"called", release.called},
                        {"hand_written_declared", release.hand_written_declared},
                        {"hand_written_imported", release.hand_written_imported},
                        {"hand_written_called", release.hand_written_called},
                        {"hand_written_not_imported", release.hand_written_not_imported},
                        {"hand_written_imported_not_called", release.hand_written_imported_not_called},
                        {"hand_written_not_applicable", not_applicable}});
  }
  return {{"calls_measured", coverage.calls_measured}, {"note", coverage.note}, {"releases", releases}};
}

std::string percent(int part, int whole) {
  return whole == 0 ? std::string("-") : fmt::format("{:.0f}%", 100.0 * part / whole);
}

// One line of figures per release: "2.15  hand-written 94/274 imported (34%), 61/94 called (65%); ...".
std::vector<std::string> coverage_lines(const json& coverage) {
  std::vector<std::string> lines;
  const bool measured = coverage.value("calls_measured", false);
  for (const auto& release : coverage.value("releases", json::array())) {
    const int declared = release.value("hand_written_declared", 0);
    const int imported = release.value("hand_written_imported", 0);
    const int called = release.value("hand_written_called", 0);
    std::string line = fmt::format("{}: hand-written shims {} declared, {} imported ({})", text(release, "release"),
                                   declared, imported, percent(imported, declared));
    const auto not_applicable = release.value("hand_written_not_applicable", json::array()).size();
    if (not_applicable > 0) line += fmt::format(" ({} more not applicable here)", not_applicable);
    if (measured) line += fmt::format(", {} called ({} of imported)", called, percent(called, imported));
    line +=
        fmt::format("; all shims {} declared, {} imported", release.value("declared", 0), release.value("imported", 0));
    if (measured) line += fmt::format(", {} called", release.value("called", 0));
    lines.push_back(std::move(line));
  }
  return lines;
}

std::string joined(const json& names) {
  std::string list;
  for (const auto& name : names) list += (list.empty() ? "" : " ") + name.get<std::string>();
  return list.empty() ? "none" : list;
}

// "aoti_torch_mps_free (USE_MPS) ...": the shims no cell could run, with the backend each needs.
std::string joined_not_applicable(const json& release) {
  std::string list;
  for (const auto& shim : release.value("hand_written_not_applicable", json::array())) {
    list += fmt::format("{}{} ({})", list.empty() ? "" : " ", text(shim, "name"), text(shim, "needs"));
  }
  return list.empty() ? "none" : list;
}

}  // namespace

std::string render_matrix_coverage(const json& section) {
  if (!section.contains("coverage")) return "";
  const json& coverage = section.at("coverage");
  std::string rendered = "shim coverage (per runtime release; called = measured in the cells' processes):\n";
  if (!coverage.value("calls_measured", false)) rendered += fmt::format("  calls {}\n", text(coverage, "note"));
  for (const auto& line : coverage_lines(coverage)) rendered += "  " + line + "\n";
  const auto& releases = coverage.value("releases", json::array());
  if (!releases.empty()) {
    const json& newest = releases.back();
    rendered += fmt::format("  {} hand-written, not imported by any reference build: {}\n", text(newest, "release"),
                            joined(newest.value("hand_written_not_imported", json::array())));
    if (coverage.value("calls_measured", false)) {
      rendered += fmt::format("  {} hand-written, imported but never called: {}\n", text(newest, "release"),
                              joined(newest.value("hand_written_imported_not_called", json::array())));
    }
    rendered += fmt::format("  {} hand-written, not applicable here (a backend no cell ran on): {}\n",
                            text(newest, "release"), joined_not_applicable(newest));
  }
  return rendered;
}

std::string render_matrix_coverage_markdown(const json& section) {
  if (!section.contains("coverage")) return "";
  const json& coverage = section.at("coverage");
  const bool measured = coverage.value("calls_measured", false);
  std::string markdown =
      "\n### Shim coverage\n\nPer runtime release; *called* is measured in each cell's process.\n\n"
      "| release | hand-written declared | imported | called | all shims declared | imported | called |\n"
      "|---|---|---|---|---|---|---|\n";
  for (const auto& release : coverage.value("releases", json::array())) {
    const int declared = release.value("hand_written_declared", 0);
    const int imported = release.value("hand_written_imported", 0);
    const int called = release.value("hand_written_called", 0);
    markdown += fmt::format("| {} | {} | {} ({}) | {} | {} | {} | {} |\n", text(release, "release"), declared, imported,
                            percent(imported, declared),
                            measured ? fmt::format("{} ({})", called, percent(called, imported)) : "not measured",
                            release.value("declared", 0), release.value("imported", 0),
                            measured ? std::to_string(release.value("called", 0)) : "not measured");
  }
  if (!measured) markdown += fmt::format("\nCalls {}.\n", text(coverage, "note"));
  const auto& releases = coverage.value("releases", json::array());
  if (!releases.empty()) {
    const json& newest = releases.back();
    markdown += fmt::format("\nNot imported by any reference build ({}): {}\n", text(newest, "release"),
                            joined(newest.value("hand_written_not_imported", json::array())));
    if (measured) {
      markdown += fmt::format("\nImported, never called ({}): {}\n", text(newest, "release"),
                              joined(newest.value("hand_written_imported_not_called", json::array())));
    }
    markdown += fmt::format("\nNot applicable here, a backend no cell ran on ({}): {}\n", text(newest, "release"),
                            joined_not_applicable(newest));
  }
  return markdown;
}

json matrix_section(const MatrixResult& result) {
  json cells = json::array();
  for (const auto& cell : result.cells) {
    json ops = json::array();
    for (const auto& op : cell.ops) {
      json entry = {
          {"group", op.group}, {"op", op.op}, {"test", op.name}, {"outcome", op.outcome}, {"message", op.message}};
      if (!op.failure.empty()) entry["failure"] = op.failure;
      ops.push_back(std::move(entry));
    }
    cells.push_back({{"suite", cell.suite},
                     {"backend", backend_name(cell.backend)},
                     {"build", cell.build.to_string()},
                     {"target", cell.target.to_string()},
                     {"runtime", cell.runtime.to_string()},
                     {"expected", expectation_name(cell.expected)},
                     {"outcome", outcome_name(cell.outcome)},
                     {"reason", cell.reason},
                     {"failure", failure_name(cell.failure)},
                     {"duration_s", std::round(cell.duration_s * 100) / 100},
                     {"log", cell.log},
                     {"ops", ops}});
  }
  json section = {{"cells", cells}};
  if (!result.coverage.releases.empty()) section["coverage"] = coverage_section(result.coverage);
  return section;
}

std::vector<JUnitCase> matrix_junit_cases(const json& section) {
  std::vector<JUnitCase> cases;
  for (const auto& cell : section.at("cells")) {
    const std::string outcome = text(cell, "outcome");
    const bool finding = is_unexpected(outcome);
    bool an_op_failed = false;
    for (const auto& op : cell.value("ops", json::array())) {
      JUnitCase junit{.class_name = matrix_cell_class(cell),
                      .name = text(op, "op") + "." + text(op, "test"),
                      .message = text(op, "message")};
      if (text(op, "outcome") == "failed") {
        junit.outcome = JUnitCase::Outcome::Failed;
        junit.output = text(cell, "log");
        an_op_failed = true;
      }
      if (text(op, "outcome") == "skipped") junit.outcome = JUnitCase::Outcome::Skipped;
      cases.push_back(std::move(junit));
    }
    // The cell itself is a case when no op speaks for it: nothing ran, or every op passed in a
    // cell that should have failed.
    if (cell.value("ops", json::array()).empty() || (finding && !an_op_failed)) {
      JUnitCase junit{.class_name = matrix_cell_class(cell),
                      .name = "cell",
                      .message = text(cell, "reason"),
                      .output = text(cell, "log"),
                      .seconds = cell.value("duration_s", 0.0)};
      if (outcome == "crash" || outcome == "timeout") {
        junit.outcome = JUnitCase::Outcome::Error;
      } else if (finding) {
        junit.outcome = JUnitCase::Outcome::Failed;
      } else if (outcome == "not-run" || outcome == "loaded-not-executed") {
        junit.outcome = JUnitCase::Outcome::Skipped;
      }
      cases.push_back(std::move(junit));
    }
  }
  return cases;
}

std::string render_matrix_markdown(const json& section) {
  std::string markdown =
      "Rows: build B / target T. Columns: runtime R. pass, xfail (failed as predicted), FAIL, XPASS "
      "(passed where it must fail), CRASH, TIME (timeout), - (not run), load (a GPU library loaded and its ops "
      "registered without a GPU: not executed).\n";
  for (const auto& grid : grids_of(section)) {
    markdown += fmt::format("\n### {}\n\n| B / T |", grid.title);
    for (const auto& runtime : grid.runtimes) markdown += fmt::format(" R {} |", runtime);
    markdown += "\n|---|";
    for (std::size_t i = 0; i < grid.runtimes.size(); ++i) markdown += "---|";
    markdown += "\n";
    for (const auto& [row, by_runtime] : grid.rows) {
      markdown += fmt::format("| {} / {} |", row.build, row.target);
      for (const auto& runtime : grid.runtimes) {
        auto found = by_runtime.find(runtime);
        markdown +=
            found == by_runtime.end() ? " |" : fmt::format(" {} |", short_outcome(text(*found->second, "outcome")));
      }
      markdown += "\n";
    }
  }
  return markdown + render_matrix_coverage_markdown(section);
}

std::string render_matrix_grid(const json& section) {
  std::string grid_text;
  for (const auto& grid : grids_of(section)) {
    grid_text += fmt::format("{}\n  {:<13}", grid.title, "B / T");
    for (const auto& runtime : grid.runtimes) grid_text += fmt::format(" {:>6}", runtime);
    grid_text += "\n";
    for (const auto& [row, by_runtime] : grid.rows) {
      grid_text += fmt::format("  {:<13}", row.build + " / " + row.target);
      for (const auto& runtime : grid.runtimes) {
        auto found = by_runtime.find(runtime);
        grid_text +=
            fmt::format(" {:>6}", found == by_runtime.end() ? "" : short_outcome(text(*found->second, "outcome")));
      }
      grid_text += "\n";
    }
    grid_text += "\n";
  }
  std::map<std::string, int> counts;
  for (const auto& cell : section.at("cells")) {
    std::string outcome = text(cell, "outcome");
    ++counts[outcome];
    if (is_unexpected(outcome)) {
      const std::string failure = text(cell, "failure");
      grid_text += fmt::format("{} {}{}: {}\n", matrix_cell_class(cell), outcome,
                               failure.empty() || failure == "none" ? "" : " (" + failure + ")", text(cell, "reason"));
    }
  }
  std::string summary;
  for (const auto& label : kOutcomeLabels) {
    auto found = counts.find(std::string(label.outcome));
    if (found != counts.end())
      summary += fmt::format("{}{} {}", summary.empty() ? "" : ", ", found->second, found->first);
  }
  grid_text += fmt::format("{} cells: {}\n", section.at("cells").size(), summary.empty() ? "none" : summary);
  return grid_text + render_matrix_coverage(section);
}

std::string render_matrix_cost(const MatrixResult& result) {
  return fmt::format("({} builds, {} cached; {} cells from cache; {:.1f} s)\n", result.builds_total,
                     result.builds_cached, result.cells_cached, result.wall_s);
}

}  // namespace abicheck
