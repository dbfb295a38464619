#include "core/finding.h"

#include <algorithm>

#include "core/suppression_file.h"

namespace abicheck {

std::string_view to_string(FindingSeverity severity) {
  return severity == FindingSeverity::Error ? "error" : "warning";
}

std::string_view to_string(Consequence consequence) {
  switch (consequence) {
    case Consequence::DoesNotCompile: return "does-not-compile";
    case Consequence::DoesNotLoad: return "does-not-load";
    case Consequence::FailsAtCallTime: return "fails-at-call-time";
    case Consequence::Unstated: break;
  }
  return "unstated";
}

std::optional<KindText> find_kind_text(std::span<const KindRow> rows, std::string_view kind) {
  auto row = std::ranges::find(rows, kind, &KindRow::kind);
  if (row == rows.end()) return std::nullopt;
  return KindText{.meaning = std::string(row->meaning), .remedy = std::string(row->remedy)};
}

bool Judgement::has_findings() const {
  return std::ranges::any_of(findings, [](const Finding& f) { return f.severity == FindingSeverity::Error; });
}

ExitCode Judgement::exit_code() const { return has_findings() ? ExitCode::Findings : ExitCode::Clean; }

void Judgement::add(const Judgement& other) {
  findings.insert(findings.end(), other.findings.begin(), other.findings.end());
  lines.insert(lines.end(), other.lines.begin(), other.lines.end());
  for (const auto& kind : other.kinds) {
    bool known =
        std::ranges::any_of(kinds, [&](const FindingKind& k) { return k.stage == kind.stage && k.kind == kind.kind; });
    if (!known) kinds.push_back(kind);
  }
}

const FindingKind* Judgement::kind_of(const Finding& finding) const {
  auto found = std::ranges::find_if(
      kinds, [&](const FindingKind& k) { return k.stage == finding.stage && k.kind == finding.kind; });
  return found == kinds.end() ? nullptr : &*found;
}

void Judgement::explain_kinds(std::string_view stage, const KindExplainer& explain) {
  for (const auto& finding : findings) {
    if (finding.stage != stage || kind_of(finding) != nullptr) continue;
    std::optional<KindText> text = suppression_kind_text(finding.kind);
    if (!text) text = explain(finding.kind);
    if (text) kinds.push_back({.stage = finding.stage, .kind = finding.kind, .text = std::move(*text)});
  }
}

std::string note_of(std::string_view kind, std::string_view message) {
  return "[" + std::string(kind) + "] " + std::string(message);
}

}  // namespace abicheck
