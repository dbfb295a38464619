#include "check/check_judgement.h"

namespace abicheck {

Judgement judge_check(const CheckResult& result) {
  Judgement judgement;
  for (const auto& finding : result.findings) {
    judgement.findings.push_back(
        {.stage = finding.stage, .kind = finding.what, .where = finding.where, .message = finding.message});
  }
  judgement.lines = result.verdict;
  return judgement;
}

}  // namespace abicheck
