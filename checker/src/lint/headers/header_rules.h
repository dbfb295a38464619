#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "inventory/shim_inventory.h"
#include "lint/headers/wrapper_shim_uses.h"
#include "lint/lint_rule.h"

namespace abicheck {

// What `lint headers` compares: the stable surface of a candidate tree (a release or a PyTorch
// source tree) and the committed baselines of the releases before it.
// A declaration is the same declaration across releases when its name and kind match (its backend
// label may move, e.g. when 2.10 wrapped ATen/Config.h).
using DeclarationKey = std::pair<std::string, DeclarationKind>;

struct HeaderLintInput {
  ShimInventory candidate;
  std::filesystem::path include_dir;   // where the candidate's headers are, for the diagnostics' paths
  std::vector<ShimInventory> earlier;  // baselines of releases older than the candidate, oldest first
  std::vector<WrapperShimUse> wrapper_uses;  // H005: what the wrappers use at each target
  std::set<DeclarationKey> moved_in;   // declarations the previous release had outside the stable trees
};

// The release that first shipped each declaration of the earlier baselines (declarations only an
// extension without a target sees left out).
std::map<DeclarationKey, TorchVersion> first_shipped_releases(const HeaderLintInput& input);

// One rule of `lint headers`; documented in the <id> section of docs/lint-rules.md.
struct HeaderRule {
  LintRule rule;
  void (*check)(const HeaderLintInput& input, const LintRule& rule, DiagnosticSink& sink);
};

const std::vector<HeaderRule>& header_rules();
std::vector<LintDiagnostic> run_header_rules(const HeaderLintInput& input);

}  // namespace abicheck
