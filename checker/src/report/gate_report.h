#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "gate/release_gate.h"
#include "report/junit.h"

namespace abicheck {

// The release gate's one report document (see html_report.h): the diff, lint and matrix sections as
// those commands write them, a "gate" section naming the candidate and the last release, and the
// verdict line. Lint paths are relative to the candidate's include dir, so the document does not
// depend on where the candidate is installed except in "gate".
nlohmann::json release_gate_document(const ReleaseGateResult& result);

// One line for people: "release gate: torch 2.16.0 against 2.15: passes" or "...: fails (diff, lint)".
std::string release_gate_verdict(const ReleaseGateResult& result);

// JUnit: a case per breaking change (or one passing "diff" case), per error diagnostic (or one
// passing "lint" case), and the matrix's own cases.
std::vector<JUnitCase> release_gate_junit_cases(const ReleaseGateResult& result);

}  // namespace abicheck
