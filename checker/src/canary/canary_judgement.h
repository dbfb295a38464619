#pragma once

#include "canary/canary_run.h"
#include "core/finding.h"

namespace abicheck {

// The canary's verdict: every cell where what happened differs from the prediction. A break the
// prediction did not foresee (it said "loads") is an error, named by what happened; a prediction of
// failure that the package disproved, or a failure of another kind, is a warning: the tool should
// learn it. A package that could not be got ready is a warning of its own.
Judgement judge_canary(const CanaryResult& result);

// "xformers==0.0.35 on torch 2.15": how a cell is named to people.
std::string canary_cell_label(const CanaryRow& row, const CanaryCell& cell);

}  // namespace abicheck
