#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "inventory/declaration_pairing.h"
#include "inventory/shim_inventory.h"
#include "lint/headers/wrapper_shim_uses.h"
#include "lint/lint_rule.h"

namespace abicheck {

// What `lint headers` compares: the stable surface of a candidate tree (a release or a PyTorch
// source tree) and the committed baselines of the releases before it.
struct HeaderLintInput {
  ShimInventory candidate;
  std::filesystem::path include_dir;   // where the candidate's headers are, for the diagnostics' paths
  std::vector<ShimInventory> earlier;  // baselines of releases older than the candidate, oldest first
  // The committed baseline of the candidate's own release, when there is one: a patch release or a
  // change to the headers of a shipped release is judged against what that release shipped too.
  std::optional<ShimInventory> shipped;
  std::vector<WrapperShimUse> wrapper_uses;  // H005: what the wrappers use at each target
  std::set<DeclarationKey> moved_in;         // declarations the previous release had outside the stable trees
};

// One rule of `lint headers`: what it is, and the check that reads the input and reports.
// Its fixture pair is fixtures/lint/headers/<id>/{bad,good}; its documentation is the <id>
// section of docs/lint-rules.md.
struct HeaderRule {
  LintRule rule;
  void (*check)(const HeaderLintInput& input, const LintRule& rule, DiagnosticSink& sink);
};

const std::vector<HeaderRule>& header_rules();
std::vector<LintDiagnostic> run_header_rules(const HeaderLintInput& input);

// The rules, one per file in lint/headers/rules/.
HeaderRule guard_too_weak_rule();           // H001
HeaderRule guard_too_strong_rule();         // H002
HeaderRule removed_or_changed_rule();       // H003
HeaderRule version_macro_rule();            // H004
HeaderRule wrapper_guard_too_weak_rule();   // H005
HeaderRule new_declaration_version_rule();  // H006
HeaderRule headers_do_not_compile_rule();   // H007

}  // namespace abicheck
