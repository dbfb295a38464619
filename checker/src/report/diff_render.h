#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "diff/abi_change.h"

namespace abicheck {

// One entry of the report's "diffs" section:
// {"old","new","changes":[{"name","kind","verdict","detail"[,"suppressed"]}]}.
nlohmann::json diff_section(const AbiDiff& diff);

// What `diff` prints: breaking first, then needs-review, then compatible additions (as a count
// unless show_compatible), and the counts.
std::string render_diff_text(const AbiDiff& diff, bool show_compatible);

}  // namespace abicheck
