#pragma once

#include "check/extension_check.h"
#include "check/package_check.h"
#include "core/finding.h"

namespace abicheck {

// The check's verdict: its findings (target, lint, build, audit, smoke, each already in the author's
// words) and its summary lines (what works, what breaks where and why).
Judgement judge_check(const CheckResult& result);

// A package's check: the audit's findings (what it could not read, an object that is not stable, a
// device runtime or operator that breaks on a release it needs) and the aoti cells' (a release from
// its minimum on where it did not load, run or match, with the cause and the workaround), led by one
// line: what it needs, where it loads, where it fails.
Judgement judge_package_check(const PackageCheckResult& result);

}  // namespace abicheck
