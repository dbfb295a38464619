#include <fmt/format.h>

#include "lint/extension/extension_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{"E001", "missing-target", LintSeverity::Error,
                         "A translation unit includes torch headers but defines no TORCH_TARGET_VERSION.",
                         "Define TORCH_TARGET_VERSION (the oldest torch to run on) in the build, e.g. "
                         "-DTORCH_TARGET_VERSION=0x020a000000000000."};

void check(const ExtensionFacts& facts, const ExtensionLintContext&, const LintRule& rule, DiagnosticSink& sink) {
  for (const auto& unit : facts.units) {
    if (unit.torch_inclusions.empty() || !unit.target_definitions.empty()) continue;
    const TorchInclusion& first = unit.torch_inclusions.front();
    sink.report(rule, first.chain.front(),
                fmt::format("includes torch headers ({}) but defines no TORCH_TARGET_VERSION, so the binary needs "
                            "the torch it was built with; pass -DTORCH_TARGET_VERSION=<oldest torch supported>",
                            first.header));
  }
}

}  // namespace

ExtensionRule missing_target_rule() { return {kRule, check}; }

}  // namespace abicheck
