#pragma once

#include <string>
#include <vector>

#include "diff/abi_change.h"

namespace abicheck {

// Reads two ABI models (ABIXML) with libabigail, compares them, and returns one SignatureChanged
// change per function whose type changed under the same name, with the parameter (or return type,
// or the struct or typedef behind it) that changed. Removals and additions are the inventory
// comparison's: it knows guards and backends. Throws ToolError naming the origin of an unreadable model.
std::vector<AbiChange> compare_abi_models(const std::string& old_abixml, const std::string& new_abixml,
                                          const std::string& old_origin, const std::string& new_origin);

}  // namespace abicheck
