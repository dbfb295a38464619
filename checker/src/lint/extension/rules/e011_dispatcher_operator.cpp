#include <fmt/format.h>

#include <algorithm>

#include "lint/extension/extension_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{"E011", "dispatcher-operator", LintSeverity::Error,
                         "An operator called through the dispatcher is missing, or has another schema, at the "
                         "project's target or at a later release."};

std::string schema_or_absent(const OperatorSchemas& schemas, const std::string& name) {
  const OperatorSchema* schema = schemas.find(name);
  return schema ? "'" + schema->text + "'" : "not registered";
}

// An operator of a namespace torch registers nothing in (the extension's own, another library's) is
// not torch's to check.
bool torch_namespace(const OperatorSchemas& schemas, const std::string& op) {
  std::string prefix = op.substr(0, op.find("::") + 2);
  return std::ranges::any_of(schemas.schemas, [&](const OperatorSchema& s) { return s.name.starts_with(prefix); });
}

bool adapted(const OperatorSchemas& release, const std::string& op, TorchVersion built_with) {
  return std::ranges::any_of(release.adapters, [&](const SchemaAdapter& adapter) {
    return adapter.name == op && built_with < adapter.applies_below;
  });
}

// The call's stack is built for the schema of the torch the project builds with (B). The oldest
// release from which every release up to B has that same schema is the minimum torch for the call;
// a later release with another schema and no adapter for builds of B breaks it.
void check(const ExtensionFacts& facts, const ExtensionLintContext& context, const LintRule& rule,
           DiagnosticSink& sink) {
  auto build = context.operator_schemas.find(context.build_torch);
  if (build == context.operator_schemas.end()) return;
  for (const auto& unit : facts.units) {
    for (const auto& call : unit.dispatcher_calls) {
      if (!torch_namespace(build->second, call.op)) continue;
      std::string name = call.qualified_name();
      const OperatorSchema* called = build->second.find(name);
      if (!called) {
        sink.report(rule, call.where,
                    fmt::format("operator '{}' is not registered in torch {}: {} fails at run time", name,
                                context.build_torch.to_string(), call.function));
        continue;
      }
      TorchVersion minimum = context.build_torch;
      for (auto older = std::make_reverse_iterator(build); older != context.operator_schemas.rend(); ++older) {
        const OperatorSchema* schema = older->second.find(name);
        if (!schema || schema->text != called->text) break;
        minimum = older->first;
      }
      TorchVersion target = unit_target(unit).value_or(context.build_torch).minor_release();
      if (target < minimum) {
        const OperatorSchema* at_target = nullptr;
        if (auto found = context.operator_schemas.find(target); found != context.operator_schemas.end()) {
          at_target = found->second.find(name);
        }
        sink.report(rule, call.where,
                    fmt::format("operator '{}' has the schema this call is built for only from torch {}; at the "
                                "target {} it is {}",
                                name, minimum.to_string(), target.to_string(),
                                at_target ? "'" + at_target->text + "'" : "not registered"));
      }
      for (auto newer = std::next(build); newer != context.operator_schemas.end(); ++newer) {
        const OperatorSchema* schema = newer->second.find(name);
        if (schema && schema->text == called->text) continue;
        if (adapted(newer->second, call.op, context.build_torch)) continue;
        sink.report(rule, call.where,
                    fmt::format("operator '{}' breaks on torch {}: there it is {}, and no schema adapter covers "
                                "callers built with {}",
                                name, newer->first.to_string(), schema_or_absent(newer->second, name),
                                context.build_torch.to_string()));
        break;
      }
    }
  }
}

}  // namespace

ExtensionRule dispatcher_operator_rule() { return {kRule, check}; }

}  // namespace abicheck
