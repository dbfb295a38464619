#pragma once

#include "check/extension_check.h"
#include "core/finding.h"

namespace abicheck {

// The check's verdict: its findings (target, lint, build, audit, smoke, each already in the author's
// words) and its summary lines (what works, what breaks where and why).
Judgement judge_check(const CheckResult& result);

}  // namespace abicheck
