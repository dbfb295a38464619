#pragma once

#include "core/finding.h"
#include "diff/abi_change.h"

namespace abicheck {

// The diff's verdict: every breaking change that no suppression accepted is a finding.
Judgement judge_diff(const AbiDiff& diff);

}  // namespace abicheck
