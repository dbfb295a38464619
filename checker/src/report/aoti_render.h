#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "aoti/aoti_run.h"

namespace abicheck {

// The report's "aoti" section:
// {"releases": ["2.9.1", …],
//  "packages": [{"model", "build", "file", "compile_error", "compile_seconds", "shims": [...],
//                "audit_problems": [...],
//                "cells": [{"release", "ran", "predicted_loads", "prediction_reason", "outcome", "detail",
//                           "cause", "workaround", "workaround_verified", "warnings", "seconds", "cached"}]}],
//  "coverage": {"shims": N, "cpu_shims": N, "names": [...]},
//  "cost": {"compiles_run", "compiles_cached", "cells_run", "cells_cached", "wall_s"}}
nlohmann::json aoti_section(const AotiResult& result);

// From the section (so `report` renders what it read back as the command does): a row per package,
// a column per release ("ok", what failed, or the audit's prediction in brackets where nothing ran),
// then each failure's cause and workaround, the coverage and the cost.
std::string render_aoti_text(const nlohmann::json& section);

// The HTML report's "aoti" section: the same grid (a row per package, a column per release, coloured as
// the matrix's cells; the audit's prediction in brackets where nothing ran), each cell opening what
// happened (the loader's words, the cause, the workaround), then the coverage and the cost.
std::string render_aoti_html(const nlohmann::json& section);

}  // namespace abicheck
