#pragma once

#include <string>
#include <vector>

#include "matrix/matrix_runner.h"
#include "report/junit.h"

namespace abicheck {

// {"cells":[{"suite","backend","build","target","runtime","expected","outcome","reason","duration_s","log","ops"}]}
std::string render_matrix_json(const MatrixResult& result);
// One testcase per (cell, op); a cell without op results (build failed, load refused, not run) is
// one testcase named after the cell.
std::vector<JUnitCase> matrix_junit_cases(const MatrixResult& result);
// One table per suite and backend: a row per (build, target), a column per runtime.
std::string render_matrix_markdown(const MatrixResult& result);
// The same grid for a terminal, with a legend and the counts.
std::string render_matrix_grid(const MatrixResult& result);

}  // namespace abicheck
