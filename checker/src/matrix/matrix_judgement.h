#pragma once

#include "core/finding.h"
#include "matrix/matrix_runner.h"

namespace abicheck {

// The matrix's verdict: every cell whose outcome differs from what the version rules predict.
Judgement judge_matrix(const MatrixResult& result);

// What each outcome that is a finding means ("unexpected-fail", "crash", ...) and what to do.
std::optional<KindText> matrix_kind_text(std::string_view kind);

// How a cell is named to people: "ops cpu B2.9 T2.9 R2.15".
std::string cell_label(const MatrixCell& cell);

}  // namespace abicheck
