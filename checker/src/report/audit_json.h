#pragma once

#include <nlohmann/json.hpp>

#include "audit/binary_audit.h"

namespace abicheck {

// What `audit --json` writes, and what the report's "audit" section holds:
// {"binaries":[{"path","wheel","verdict","min_torch","min_torch_to_load","declared_target",...,
//   "unstable_symbols","shim_symbols",...}],"wheels":[...],"errors":[...],"stale_allowlist_entries":[...]}.
nlohmann::json audit_to_json(const AuditReport& report);

}  // namespace abicheck
