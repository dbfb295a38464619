#include "core/finding.h"

#include <algorithm>

namespace abicheck {

std::string_view to_string(FindingSeverity severity) {
  return severity == FindingSeverity::Error ? "error" : "warning";
}

bool Judgement::has_findings() const {
  return std::ranges::any_of(findings, [](const Finding& f) { return f.severity == FindingSeverity::Error; });
}

ExitCode Judgement::exit_code() const { return has_findings() ? ExitCode::Findings : ExitCode::Clean; }

void Judgement::add(const Judgement& other) {
  findings.insert(findings.end(), other.findings.begin(), other.findings.end());
  lines.insert(lines.end(), other.lines.begin(), other.lines.end());
}

}  // namespace abicheck
