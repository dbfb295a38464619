#pragma once

#include <nlohmann/json_fwd.hpp>

#include "gate/release_gate.h"

namespace abicheck {

// The release gate's report document (report_document.h): the gate's judgement as its verdict, a
// "gate" section naming the candidate and the last release, and the diff, lint and matrix sections
// as those commands write them. Lint paths are relative to the candidate's include dir, so the
// document does not depend on where the candidate is installed except in "gate".
nlohmann::json release_gate_document(const ReleaseGateResult& result);

}  // namespace abicheck
