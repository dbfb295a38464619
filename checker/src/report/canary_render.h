#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "canary/canary_run.h"
#include "report/junit.h"

namespace abicheck {

// The report's "canary" section:
// {"spec", "releases": ["2.9.1", …], "gpu", "cells", "as_predicted",
//  "packages": [{"name", "distribution", "version", "wheel", "sha256", "why", "verdict", "min_torch",
//                "requires_torch": [...], "device_code", "operator_reference",
//                "cells": [{"release", "predicted", "prediction_reason", "observed", "detail", "notes": [...],
//                           "operators", "seconds", "cached", "as_predicted"}]}],
//  "problems": [{"package", "problem"}]}
nlohmann::json canary_section(const CanaryResult& result);

// The renderings read the section, so `report` renders a canary it read back as the command does.
// A row per package, a column per release: what happened, "!" where the prediction said otherwise;
// then each disagreement with both sides, the problems, and the agreement figure.
std::string render_canary_grid(const nlohmann::json& section);
std::string render_canary_markdown(const nlohmann::json& section);
std::string render_canary_html(const nlohmann::json& section);
// One testcase per cell: failed where the observation disagrees with an unforeseen break, skipped
// where nothing was executed.
std::vector<JUnitCase> canary_junit_cases(const nlohmann::json& section);
// "(56 cells: 49 run, 7 from cache; 95.2 s)": what the run cost.
std::string render_canary_cost(const CanaryResult& result);

}  // namespace abicheck
