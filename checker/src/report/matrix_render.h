#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "matrix/matrix_runner.h"
#include "report/junit.h"

namespace abicheck {

// The report's "matrix" section:
// {"cells":[{"suite","backend","build","target","runtime","expected","outcome","reason","duration_s","log",
//            "ops":[{"group","op","test","outcome","message"}]}]}
nlohmann::json matrix_section(const MatrixResult& result);

// The renderings below read the section, so `report` renders a matrix it read back exactly as the
// matrix command renders its own.
// One testcase per (cell, op); a cell without op results (build failed, load refused, not run) is
// one testcase named after the cell.
std::vector<JUnitCase> matrix_junit_cases(const nlohmann::json& section);
// One table per suite and backend: a row per (build, target), a column per runtime.
std::string render_matrix_markdown(const nlohmann::json& section);
// The same grid for a terminal, then the unexpected cells and the counts per outcome.
std::string render_matrix_grid(const nlohmann::json& section);
// The shim coverage of the section (declared / imported / called per release, and what is not
// covered), as text and as Markdown; "" when the section has none. The grid and the Markdown
// rendering include it.
std::string render_matrix_coverage(const nlohmann::json& section);
std::string render_matrix_coverage_markdown(const nlohmann::json& section);
// "(40 builds, 38 cached; 100 cells from cache; 12.3 s)": what the run cost.
std::string render_matrix_cost(const MatrixResult& result);

}  // namespace abicheck
