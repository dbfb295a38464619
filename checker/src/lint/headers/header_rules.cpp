#include "lint/headers/header_rules.h"

#include "inventory/inventory_collector.h"

#include <fmt/format.h>
#include <map>
#include <sstream>

namespace abicheck {
namespace {

// A declaration is the same declaration across releases when its name and kind match (its backend
// label may move, e.g. when 2.10 wrapped ATen/Config.h).
using DeclarationKey = std::pair<std::string, DeclarationKind>;

DeclarationKey key_of(const ShimDeclaration& d) { return {d.name, d.kind}; }

// Declarations only an extension without any target sees are outside the targeted surface.
bool is_targeted(const ShimDeclaration& d) { return d.backend != kUntargetedOnly; }

std::string describe(const ShimDeclaration& d) {
  return d.backend.empty() ? fmt::format("'{}'", d.name) : fmt::format("'{}' ({})", d.name, d.backend);
}

SourcePosition position_of(const HeaderLintInput& input, const ShimDeclaration& d) {
  return {input.include_dir / d.header, d.line, 1};
}

// The release that first shipped each declaration of the earlier baselines.
std::map<DeclarationKey, TorchVersion> first_releases(const HeaderLintInput& input) {
  std::map<DeclarationKey, TorchVersion> first;
  for (const auto& baseline : input.earlier) {
    for (const auto& d : baseline.declarations) {
      if (is_targeted(d)) first.try_emplace(key_of(d), baseline.release.minor_release());
    }
  }
  return first;
}

std::string normal_signature(const std::string& signature) {
  std::istringstream words(signature);
  std::string word;
  std::string normal;
  while (words >> word) normal += (normal.empty() ? "" : " ") + word;
  return normal;
}

void check_guard_too_weak(const HeaderLintInput& input, const LintRule& rule, DiagnosticSink& sink) {
  auto first = first_releases(input);
  for (const auto& d : input.candidate.declarations) {
    if (!is_targeted(d)) continue;
    auto shipped = first.find(key_of(d));
    if (shipped == first.end() || d.since >= shipped->second) continue;
    sink.report(rule, position_of(input, d),
                fmt::format("{} is visible at target {} but first shipped in {}: an extension targeting {} "
                            "compiles against it and then fails to load there (missing or too weak guard)",
                            describe(d), d.since.to_string(), shipped->second.to_string(), d.since.to_string()));
  }
}

void check_guard_too_strong(const HeaderLintInput& input, const LintRule& rule, DiagnosticSink& sink) {
  auto first = first_releases(input);
  for (const auto& d : input.candidate.declarations) {
    if (!is_targeted(d)) continue;
    auto shipped = first.find(key_of(d));
    if (shipped == first.end() || d.since <= shipped->second) continue;
    sink.report(rule, position_of(input, d),
                fmt::format("{} is guarded at {} but shipped in {}: extensions that already target {} lose it",
                            describe(d), d.since.to_string(), shipped->second.to_string(),
                            shipped->second.to_string()));
  }
}

void check_removed_or_changed(const HeaderLintInput& input, const LintRule& rule, DiagnosticSink& sink) {
  if (input.earlier.empty()) return;
  const ShimInventory& previous = input.earlier.back();
  std::map<DeclarationKey, const ShimDeclaration*> now;
  for (const auto& d : input.candidate.declarations) {
    if (is_targeted(d)) now.emplace(key_of(d), &d);
  }
  for (const auto& old : previous.declarations) {
    if (!is_targeted(old)) continue;
    auto found = now.find(key_of(old));
    if (found == now.end()) {
      sink.report(rule, position_of(input, old),
                  fmt::format("{} of {} ({}:{} there) is gone at every target", describe(old),
                              previous.release.to_string(), old.header, old.line));
    } else if (old.kind != DeclarationKind::Macro &&
               normal_signature(found->second->signature) != normal_signature(old.signature)) {
      sink.report(rule, position_of(input, *found->second),
                  fmt::format("{} changed its signature since {}: '{}' became '{}'", describe(old),
                              previous.release.to_string(), normal_signature(old.signature),
                              normal_signature(found->second->signature)));
    }
  }
}

void check_new_declaration_version(const HeaderLintInput& input, const LintRule& rule, DiagnosticSink& sink) {
  auto first = first_releases(input);
  TorchVersion own = input.candidate.release.minor_release();
  for (const auto& d : input.candidate.declarations) {
    if (!is_targeted(d) || first.contains(key_of(d)) || d.since == own) continue;
    sink.report(rule, position_of(input, d),
                fmt::format("{} is new in {} but its guard says {}: a new declaration must carry the tree's own "
                            "version (#if TORCH_FEATURE_VERSION >= TORCH_VERSION_{}_{}_0)",
                            describe(d), own.to_string(), d.since.to_string(), own.major, own.minor));
  }
}

}  // namespace

const std::vector<HeaderRule>& header_rules() {
  static const std::vector<HeaderRule> rules = {
      {{"H001", "guard-too-weak", LintSeverity::Error,
        "A declaration is visible at a target older than the first release that shipped it."},
       check_guard_too_weak},
      {{"H002", "guard-too-strong", LintSeverity::Error,
        "A declaration's guard is newer than the first release that shipped it."},
       check_guard_too_strong},
      {{"H003", "removed-or-changed", LintSeverity::Error,
        "A declaration of the previous release disappears or changes its signature."},
       check_removed_or_changed},
      {{"H006", "new-declaration-version", LintSeverity::Error,
        "A new declaration does not carry the tree's own version."},
       check_new_declaration_version},
  };
  return rules;
}

std::vector<LintDiagnostic> run_header_rules(const HeaderLintInput& input) {
  DiagnosticSink sink;
  for (const auto& rule : header_rules()) rule.check(input, rule.rule, sink);
  return sink.take_sorted();
}

}  // namespace abicheck
