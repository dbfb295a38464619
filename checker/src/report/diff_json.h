#pragma once

#include <nlohmann/json.hpp>

#include "diff/abi_change.h"

namespace abicheck {

// What `diff --json` writes, and what the report's "diffs" section holds:
// {"old","new","changes":[{"name","kind","verdict","detail"[,"suppressed"]}]}.
nlohmann::ordered_json diff_to_json(const AbiDiff& diff);

}  // namespace abicheck
