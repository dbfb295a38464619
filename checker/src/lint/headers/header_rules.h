#pragma once

#include <filesystem>
#include <vector>

#include "inventory/shim_inventory.h"
#include "lint/lint_rule.h"

namespace abicheck {

// What `lint headers` compares: the stable surface of a candidate tree (a release or a PyTorch
// source tree) and the committed baselines of the releases before it.
struct HeaderLintInput {
  ShimInventory candidate;
  std::filesystem::path include_dir;   // where the candidate's headers are, for the diagnostics' paths
  std::vector<ShimInventory> earlier;  // baselines of releases older than the candidate, oldest first
};

// One rule of `lint headers`; documented in the <id> section of docs/lint-rules.md.
struct HeaderRule {
  LintRule rule;
  void (*check)(const HeaderLintInput& input, const LintRule& rule, DiagnosticSink& sink);
};

const std::vector<HeaderRule>& header_rules();
std::vector<LintDiagnostic> run_header_rules(const HeaderLintInput& input);

}  // namespace abicheck
