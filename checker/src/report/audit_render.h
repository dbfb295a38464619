#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "audit/binary_audit.h"

namespace abicheck {

// The report's "audit" section:
// {"binaries":[{"path","wheel","verdict","min_torch","min_torch_to_load","declared_target",...,
//   "unstable_symbols","shim_symbols",...,"device":{"toolkit","libraries","recorded"},
//   "releases":[{"release","runtime","claimed","loads",...}]}],"wheels":[...],"errors":[...],
//   "suppression_problems":[...]} (report/suppression_render.h).
nlohmann::json audit_section(const AuditReport& report);

// "min torch 2.13 (to load: 2.9)": every shim used, dlsym names included, and the imports alone
// (what the loader needs). Both always, since either alone misleads.
std::string min_torch_text(const std::optional<TorchVersion>& min_torch,
                           const std::optional<TorchVersion>& min_torch_to_load);

// What `audit` prints: per binary its verdict, minimum torch, shims by release, device runtime, whether
// it loads into each stored release, and unstable imports (all of them with verbose), then the wheels,
// the allowlist's stale and expired entries and the counts.
std::string render_audit_text(const AuditReport& report, bool verbose);

}  // namespace abicheck
