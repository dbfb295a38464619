#include <fmt/format.h>

#include "lint/extension/extension_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{"E004", "target-newer-than-build", LintSeverity::Error,
                         "The target is newer than the torch the extension is built with.",
                         "Build with a torch at least as new as the target, or lower the target."};

void check(const ExtensionFacts& facts, const ExtensionLintContext& context, const LintRule& rule,
           DiagnosticSink& sink) {
  for (const auto& unit : facts.units) {
    auto target = unit_target(unit);
    if (!target || unit.target_definitions.empty() || target->minor_release() <= context.build_torch.minor_release()) {
      continue;
    }
    sink.report(rule, unit.target_definitions.back().where,
                fmt::format("TORCH_TARGET_VERSION is {}, newer than the torch it is built with ({}): the headers "
                            "cannot provide what the target promises (an #error from 2.15, a silent bug before)",
                            target->to_string(), context.build_torch.to_string()));
  }
}

}  // namespace

ExtensionRule target_newer_than_build_rule() { return {kRule, check}; }

}  // namespace abicheck
