#pragma once

#include "audit/binary_audit.h"
#include "core/finding.h"

namespace abicheck {

// The audit's verdict on its report: every binary that is not stable, every input that could not
// be audited, and every allowlist entry that matched nothing is a finding.
Judgement judge_audit(const AuditReport& report);

}  // namespace abicheck
