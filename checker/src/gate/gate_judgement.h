#pragma once

#include "core/finding.h"
#include "gate/release_gate.h"

namespace abicheck {

// The gate's verdict: the diff's, the header lint's (paths relative to the candidate's include dir),
// the matrix's findings, the device runtime findings of the matrix's libraries against the candidate
// (the audit's release_load_findings), and one line that says whether the candidate passes.
Judgement judge_release_gate(const ReleaseGateResult& result);

}  // namespace abicheck
