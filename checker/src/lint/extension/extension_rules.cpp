#include "lint/extension/extension_rules.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "core/finding.h"

namespace abicheck {

const std::vector<ExtensionRule>& extension_rules() {
  static const std::vector<ExtensionRule> rules = {
      missing_target_rule(),     unstable_header_rule(), api_newer_than_target_rule(),  target_newer_than_build_rule(),
      malformed_target_rule(),   target_drift_rule(),    target_macro_undefined_rule(), shim_dlsym_rule(),
      unresolved_include_rule(), unreleased_api_rule(),  dispatcher_operator_rule(),    unparsed_source_rule(),
  };
  return rules;
}

std::vector<LintDiagnostic> run_extension_rules(const ExtensionFacts& facts, const ExtensionLintContext& context) {
  DiagnosticSink sink;
  for (const auto& rule : extension_rules()) rule.check(facts, context, rule.rule, sink);
  std::vector<LintDiagnostic> diagnostics = sink.take_sorted();
  // One mistake, one finding: a finding of a rule that explains others (E005's typo makes the target
  // newer than the build, E004) takes theirs as notes: those at its own place, else under its first.
  for (const auto& rule : extension_rules()) {
    if (rule.explains.empty()) continue;
    if (std::ranges::find(diagnostics, rule.rule.id, &LintDiagnostic::rule) == diagnostics.end()) continue;
    std::vector<LintDiagnostic> kept;
    std::vector<LintDiagnostic> follow;
    for (auto& diagnostic : diagnostics) {
      bool follows = rule.explains.find(diagnostic.rule) != std::string_view::npos;
      (follows ? follow : kept).push_back(std::move(diagnostic));
    }
    for (const auto& consequence : follow) {
      auto is_cause = [&](const LintDiagnostic& d) { return d.rule == rule.rule.id; };
      auto cause = std::ranges::find_if(kept, [&](const LintDiagnostic& d) {
        return is_cause(d) && d.where.file == consequence.where.file && d.where.line == consequence.where.line;
      });
      if (cause == kept.end()) cause = std::ranges::find_if(kept, is_cause);
      cause->notes.push_back(note_of(consequence.rule, consequence.message));
    }
    diagnostics = std::move(kept);
  }
  return diagnostics;
}

std::optional<TorchVersion> unit_target(const TranslationUnitFacts& unit) {
  if (!unit.effective_target) return std::nullopt;
  return TorchVersion::from_abi_value(*unit.effective_target);
}

bool may_mean(const MissingDeclaration& missing, const DeclarationName& declared) {
  if (missing.name != declared.name) return false;
  if (!missing.scope.empty() && !declared.is_in_scope(missing.scope)) return false;
  return !missing.arguments || (declared.has_parameter_list && declared.parameter_types.size() >= *missing.arguments);
}

std::optional<std::uint64_t> parse_integer_literal(std::string_view text, bool* is_hex) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  while (!text.empty() && (text.back() == 'u' || text.back() == 'U' || text.back() == 'l' || text.back() == 'L')) {
    text.remove_suffix(1);
  }
  bool hex = text.starts_with("0x") || text.starts_with("0X");
  if (hex) text.remove_prefix(2);
  if (text.empty()) return std::nullopt;
  std::uint64_t value = 0;
  for (char c : text) {
    int digit = std::isdigit(static_cast<unsigned char>(c))           ? c - '0'
                : hex && std::isxdigit(static_cast<unsigned char>(c)) ? std::tolower(c) - 'a' + 10
                                                                      : -1;
    if (digit < 0) return std::nullopt;
    std::uint64_t base = hex ? 16 : 10;
    if (value > (UINT64_MAX - digit) / base) return std::nullopt;
    value = value * base + digit;
  }
  if (is_hex) *is_hex = hex;
  return value;
}

}  // namespace abicheck
