#pragma once

#include <map>
#include <string>
#include <vector>

#include "baseline/operator_schemas.h"
#include "core/torch_version.h"
#include "inventory/declaration_name.h"
#include "inventory/shim_inventory.h"
#include "lint/extension/extension_facts.h"
#include "lint/lint_rule.h"

namespace abicheck {

// What the extension rules know beyond the project's facts.
struct ExtensionLintContext {
  TorchVersion build_torch;                        // B: the torch whose headers the project is built with
  std::vector<TorchVersion> known_releases;        // every release with a baseline or in the store, oldest first
  const ShimInventory* build_inventory = nullptr;  // B's stable surface with each declaration's `since` (E003)
  // Every name a release of the history declares, qualified, by kind, with the oldest that does
  // (E010; empty: E010 is not checked). From first_declaring_releases_by_name (baseline/release_history.h).
  std::map<std::pair<std::string, DeclarationKind>, TorchVersion> released_names;
  // The operator baselines of the history, by minor release (E011; empty: E011 is not checked).
  std::map<TorchVersion, OperatorSchemas> operator_schemas;
};

// One rule of `lint extension`: what it is, and the check that reads the facts and reports.
// Its fixture pair is fixtures/lint/extension/<id>/{bad,good}; its documentation is the <id>
// section of docs/lint-rules.md.
struct ExtensionRule {
  LintRule rule;
  void (*check)(const ExtensionFacts& facts, const ExtensionLintContext& context, const LintRule& rule,
                DiagnosticSink& sink);
  // The rules whose findings follow from a finding of this one ("E004 E006"): when it reports, theirs
  // become notes under its first finding, so that one mistake is one finding.
  std::string_view explains = {};
};

const std::vector<ExtensionRule>& extension_rules();

std::vector<LintDiagnostic> run_extension_rules(const ExtensionFacts& facts, const ExtensionLintContext& context);

// Shared by several rules: the target a translation unit is compiled at, when it has a valid one.
std::optional<TorchVersion> unit_target(const TranslationUnitFacts& unit);
// Whether what a compile error says is missing can be the declaration of this name: the same name, in
// the scope the error looked in when it names one, and for a call of a known argument count, an
// overload with as many parameters at least (defaults are not in the inventory).
bool may_mean(const MissingDeclaration& missing, const DeclarationName& declared);
// An integer literal as C++ writes it (0x…, decimal, with u/l suffixes); nullopt for anything else.
std::optional<std::uint64_t> parse_integer_literal(std::string_view text, bool* is_hex = nullptr);

// The rules, one per file in lint/extension/rules/.
ExtensionRule missing_target_rule();           // E001
ExtensionRule unstable_header_rule();          // E002
ExtensionRule api_newer_than_target_rule();    // E003
ExtensionRule target_newer_than_build_rule();  // E004
ExtensionRule malformed_target_rule();         // E005
ExtensionRule target_drift_rule();             // E006
ExtensionRule target_macro_undefined_rule();   // E007
ExtensionRule shim_dlsym_rule();               // E008
ExtensionRule unresolved_include_rule();       // E009
ExtensionRule unreleased_api_rule();           // E010
ExtensionRule dispatcher_operator_rule();      // E011
ExtensionRule unparsed_source_rule();          // E012

}  // namespace abicheck
