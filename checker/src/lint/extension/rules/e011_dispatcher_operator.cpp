#include <fmt/format.h>

#include "baseline/operator_calls.h"
#include "lint/extension/extension_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{
    "E011", "dispatcher-operator", LintSeverity::Error,
    "An operator called through the dispatcher is missing, or has another schema, at the "
    "project's target or at a later release.",
    "Raise the target to a release whose schema fits, or call an overload that every claimed release has."};

// The call's stack is built for the schema of the torch the project builds with (B). The oldest
// release from which every release up to B has that same schema is the minimum torch for the call;
// a later release with another schema and no adapter for builds of B breaks it.
void check(const ExtensionFacts& facts, const ExtensionLintContext& context, const LintRule& rule,
           DiagnosticSink& sink) {
  auto build = context.operator_schemas.find(context.build_torch);
  if (build == context.operator_schemas.end()) return;
  for (const auto& unit : facts.units) {
    for (const auto& call : unit.dispatcher_calls) {
      if (!registers_namespace(build->second, call.op)) continue;
      std::string name = call.qualified_name();
      const OperatorSchema* called = build->second.find(name);
      if (!called) {
        sink.report(rule, call.where,
                    fmt::format("operator '{}' is not registered in torch {}: {} fails at run time", name,
                                context.build_torch.to_string(), call.function));
        continue;
      }
      TorchVersion minimum = schema_holds_since(context.operator_schemas, context.build_torch, name);
      TorchVersion target = unit_target(unit).value_or(context.build_torch).minor_release();
      // What the target registers is a fact only with the target's own schemas (a --baselines without
      // that release has none): without them, the call is not claimed to fail there.
      auto at_target_release = context.operator_schemas.find(target);
      if (target < minimum && at_target_release != context.operator_schemas.end()) {
        const OperatorSchema* at_target = at_target_release->second.find(name);
        sink.report(rule, call.where,
                    fmt::format("operator '{}' has the schema this call is built for only from torch {}; at the "
                                "target {} it is {}",
                                name, minimum.to_string(), target.to_string(),
                                at_target ? "'" + at_target->text + "'" : "not registered"));
      }
      if (auto broken = first_operator_break(context.operator_schemas, context.build_torch, name)) {
        sink.report(
            rule, call.where,
            fmt::format("operator '{}' breaks on torch {}: there it is {}, and no schema adapter covers "
                        "callers built with {}",
                        name, broken->release.to_string(), broken->describe(), context.build_torch.to_string()));
      }
    }
  }
}

}  // namespace

ExtensionRule dispatcher_operator_rule() { return {kRule, check}; }

}  // namespace abicheck
