#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "core/suppression_file.h"

namespace abicheck {

// The "suppression_problems" array of the audit, diff and lint sections (docs/suppressions.md):
// [{"kind":"stale"|"expired","file","line","entry","reason","expires"}].
nlohmann::json suppression_problems_json(const std::vector<SuppressionProblem>& problems);

// One line per problem, `file:line: stale suppression: ...`.
std::string render_suppression_problems_text(const std::vector<SuppressionProblem>& problems);

}  // namespace abicheck
