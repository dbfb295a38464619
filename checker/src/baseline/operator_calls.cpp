#include "baseline/operator_calls.h"

#include <algorithm>
#include <iterator>

namespace abicheck {

std::string operator_of(std::string_view qualified_name) {
  std::size_t scope = qualified_name.find("::");
  std::size_t dot = qualified_name.find('.', scope == std::string_view::npos ? 0 : scope);
  return std::string(qualified_name.substr(0, dot));
}

bool registers_namespace(const OperatorSchemas& release, std::string_view op) {
  std::size_t scope = op.find("::");
  if (scope == std::string_view::npos) return false;
  std::string_view prefix = op.substr(0, scope + 2);
  return std::ranges::any_of(release.schemas, [&](const OperatorSchema& s) { return s.name.starts_with(prefix); });
}

bool adapter_covers(const OperatorSchemas& release, std::string_view op, TorchVersion built_with) {
  return std::ranges::any_of(release.adapters, [&](const SchemaAdapter& adapter) {
    return adapter.name == op && built_with < adapter.applies_below;
  });
}

std::optional<TorchVersion> first_registering_release(const OperatorHistory& history, std::string_view qualified_name) {
  for (const auto& [release, schemas] : history) {
    if (schemas.find(qualified_name)) return release;
  }
  return std::nullopt;
}

TorchVersion schema_holds_since(const OperatorHistory& history, TorchVersion built_with,
                                std::string_view qualified_name) {
  auto build = history.find(built_with);
  if (build == history.end()) return built_with;
  const OperatorSchema* called = build->second.find(qualified_name);
  if (!called) return built_with;
  TorchVersion since = built_with;
  for (auto older = std::make_reverse_iterator(build); older != history.rend(); ++older) {
    const OperatorSchema* schema = older->second.find(qualified_name);
    if (!schema || schema->text != called->text) break;
    since = older->first;
  }
  return since;
}

std::string OperatorBreak::describe() const { return schema ? "'" + schema->text + "'" : "not registered"; }

std::optional<OperatorBreak> first_operator_break(const OperatorHistory& history, TorchVersion built_with,
                                                  std::string_view qualified_name) {
  auto build = history.find(built_with);
  if (build == history.end()) return std::nullopt;
  const OperatorSchema* called = build->second.find(qualified_name);
  std::string op = operator_of(qualified_name);
  for (auto newer = std::next(build); newer != history.end(); ++newer) {
    const OperatorSchema* schema = newer->second.find(qualified_name);
    if (schema && called && schema->text == called->text) continue;
    if (!schema && !called) continue;
    if (adapter_covers(newer->second, op, built_with)) continue;
    return OperatorBreak{newer->first, schema};
  }
  return std::nullopt;
}

}  // namespace abicheck
