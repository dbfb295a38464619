#pragma once

#include "audit/binary_audit.h"
#include "core/finding.h"

namespace abicheck {

// The audit's verdict on its report: every binary that is not stable, every input that could not
// be audited, every allowlist entry that matched nothing, every device runtime that keeps a binary
// from loading into a release it claims (release_load_findings) and every operator it calls through
// the dispatcher that breaks on a release it claims (operator_findings) is a finding.
Judgement judge_audit(const AuditReport& report);

// What each kind of the audit's findings means and what to do ("unstable", "device-library-mismatch",
// ...); `check` and the release gate explain the audit findings they make with it too.
std::optional<KindText> audit_kind_text(std::string_view kind);

// Why `object` does not load into the releases it claims, as far as the device runtime and symbols
// that no library of its load defines go (its torch symbols are the verdict's findings), one finding
// per reason with the releases it holds for;
// `where` names the object. Used by the audit, `check` and the release gate alike. A toolkit the
// release was not built for is a warning: the binary is fine, and a build of that torch release for
// its toolkit may exist on another index. Another major of a separately versioned library (cuDNN 8
// against 9) is an error: no build of the release brings it. A minor difference is a warning.
std::vector<Finding> release_load_findings(const ObjectAudit& object, const std::string& where);

// The operators `object` calls through the dispatcher that break on a release it claims
// (OperatorUse::breaks), one finding each; `where` names the object; `only_release`: only the breaks on
// that release (the release gate's candidate). Used by the audit, `check` and the release gate alike.
std::vector<Finding> operator_findings(const ObjectAudit& object, const std::string& where,
                                       std::optional<TorchVersion> only_release = std::nullopt);

// "tagged manylinux_2_28_x86_64, but on the systems that tag names it does not load: needs GLIBC_2.34
// (libc.so.6), which they do not define (its symbol versions fit manylinux_2_34)": the message of a
// platform-tag-unmet finding, and the wheel's line of the audit's text.
std::string platform_misfit_message(const PlatformTagMisfit& misfit);

// "loads into 2.10 (CUDA 12.8); not into 2.11, 2.12 (CUDA 13.0): needs CUDA 12 runtime": one line
// per object for the summary, empty when no release was given.
std::string release_load_summary(const ObjectAudit& object);

}  // namespace abicheck
