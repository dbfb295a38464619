#include <fmt/format.h>

#include "lint/extension/extension_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{"E008", "shim-dlsym", LintSeverity::Error,
                         "A shim is looked up with dlsym outside PyTorch's sanctioned dynamic-call macro.",
                         "Call the shim directly, or through PyTorch's dynamic-call macro."};

bool is_shim_name(const std::string& symbol, const ShimInventory* inventory) {
  if (symbol.starts_with("aoti_torch_") || symbol.starts_with("torch_")) return true;
  return inventory && inventory->find(symbol);
}

void check(const ExtensionFacts& facts, const ExtensionLintContext& context, const LintRule& rule,
           DiagnosticSink& sink) {
  for (const auto& unit : facts.units) {
    for (const auto& lookup : unit.dynamic_lookups) {
      if (lookup.in_torch_macro || !is_shim_name(lookup.symbol, context.build_inventory)) continue;
      sink.report(rule, lookup.where,
                  fmt::format("shim '{}' is looked up with {}: outside torch's own dynamic-call macro "
                              "(torch/csrc/stable/macros.h) no version check guards the call",
                              lookup.symbol, lookup.function));
    }
  }
}

}  // namespace

ExtensionRule shim_dlsym_rule() { return {kRule, check}; }

}  // namespace abicheck
