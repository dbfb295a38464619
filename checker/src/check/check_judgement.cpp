#include "check/check_judgement.h"

namespace abicheck {

Judgement judge_check(const CheckResult& result) { return {result.findings, result.verdict}; }

}  // namespace abicheck
