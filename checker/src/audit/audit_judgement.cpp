#include "audit/audit_judgement.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace abicheck {

Judgement judge_audit(const AuditReport& report) {
  Judgement judgement;
  for (const auto& object : report.binaries) {
    if (object.verdict == AuditVerdict::Stable) continue;
    judgement.findings.push_back({.stage = "audit",
                                  .kind = std::string(to_string(object.verdict)),
                                  .where = object.path,
                                  .message = fmt::format("{}", fmt::join(object.reasons, "; "))});
  }
  for (const auto& failure : report.failures) {
    judgement.findings.push_back(
        {.stage = "audit", .kind = "not-audited", .where = failure.path, .message = failure.problem});
  }
  for (const auto& entry : report.stale_allowlist_entries) {
    judgement.findings.push_back({.stage = "audit",
                                  .kind = "stale-allowlist-entry",
                                  .where = fmt::format("allowlist line {}", entry.line),
                                  .message = fmt::format("'{}' matches nothing; remove it", entry.pattern),
                                  .line = entry.line});
  }
  auto not_stable =
      std::ranges::count_if(report.binaries, [](const ObjectAudit& o) { return o.verdict != AuditVerdict::Stable; });
  judgement.lines.push_back(fmt::format(
      "audit: {} {}, {} not stable{}{}", report.binaries.size(), report.binaries.size() == 1 ? "binary" : "binaries",
      not_stable, report.failures.empty() ? "" : fmt::format(", {} not audited", report.failures.size()),
      report.stale_allowlist_entries.empty()
          ? ""
          : fmt::format(", {} stale allowlist {}", report.stale_allowlist_entries.size(),
                        report.stale_allowlist_entries.size() == 1 ? "entry" : "entries")));
  return judgement;
}

}  // namespace abicheck
