#include "diff/operator_compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "baseline/operator_calls.h"

namespace abicheck {
namespace {

std::string describe(const OperatorArgument& argument) {
  std::string text = argument.type;
  if (!argument.alias.empty()) text = fmt::format("{} ({})", text, argument.alias);
  if (!argument.name.empty()) text += " " + argument.name;
  if (argument.default_value) text += "=" + *argument.default_value;
  return text;
}

// The schema without its name: two overloads with the same one are the same operator under two names.
std::string_view signature_of(const OperatorSchema& schema) {
  std::string_view text = schema.text;
  return text.substr(text.find('('));
}

void compare_arguments(const OperatorSchema& old_schema, const OperatorSchema& new_schema,
                       std::vector<AbiChange>& changes) {
  const std::string name = new_schema.qualified_name();
  const auto& old_arguments = old_schema.arguments;
  const auto& new_arguments = new_schema.arguments;
  std::size_t common = std::min(old_arguments.size(), new_arguments.size());
  for (std::size_t i = 0; i < common; ++i) {
    const auto& before = old_arguments[i];
    const auto& after = new_arguments[i];
    if (before.type != after.type) {
      changes.push_back({name, ChangeKind::ArgumentTypeChanged,
                         fmt::format("argument {}: {} -> {}", i, describe(before), describe(after))});
      continue;
    }
    if (before.name != after.name) {
      changes.push_back({name, ChangeKind::ArgumentRenamed,
                         fmt::format("argument {}: {} -> {}", i, describe(before), describe(after))});
    }
    if (before.alias != after.alias) {
      changes.push_back({name, ChangeKind::AliasChanged,
                         fmt::format("argument {}: {} -> {}", after.name, describe(before), describe(after))});
    }
    if (before.default_value != after.default_value) {
      changes.push_back({name, ChangeKind::ArgumentDefaultChanged,
                         fmt::format("argument {}: {} -> {}", after.name, describe(before), describe(after))});
    }
  }
  for (std::size_t i = common; i < new_arguments.size(); ++i) {
    const auto& added = new_arguments[i];
    changes.push_back(
        {name, added.default_value ? ChangeKind::ArgumentAddedWithDefault : ChangeKind::ArgumentAddedWithoutDefault,
         fmt::format("argument {} added: {}", i, describe(added))});
  }
  for (std::size_t i = common; i < old_arguments.size(); ++i) {
    changes.push_back(
        {name, ChangeKind::ArgumentRemoved, fmt::format("argument {} removed: {}", i, describe(old_arguments[i]))});
  }
}

void compare_returns(const OperatorSchema& old_schema, const OperatorSchema& new_schema,
                     std::vector<AbiChange>& changes) {
  auto types = [](const std::vector<OperatorArgument>& returns) {
    std::vector<std::string> list;
    for (const auto& value : returns) list.push_back(value.type);
    return list;
  };
  auto aliases = [](const std::vector<OperatorArgument>& returns) {
    std::vector<std::string> list;
    for (const auto& value : returns) list.push_back(value.alias);
    return list;
  };
  std::string_view old_text = old_schema.text, new_text = new_schema.text;
  std::string detail = fmt::format("returns {} -> {}", old_text.substr(old_text.rfind(" -> ") + 4),
                                   new_text.substr(new_text.rfind(" -> ") + 4));
  if (types(old_schema.returns) != types(new_schema.returns)) {
    changes.push_back({new_schema.qualified_name(), ChangeKind::ReturnChanged, detail});
  } else if (aliases(old_schema.returns) != aliases(new_schema.returns)) {
    changes.push_back({new_schema.qualified_name(), ChangeKind::AliasChanged, detail});
  }
}

void accept_adapted(const OperatorSchemas& old_schemas, const OperatorSchemas& new_schemas,
                    std::vector<AbiChange>& changes) {
  for (auto& change : changes) {
    if (verdict_of(change.kind) != Verdict::Breaking) continue;
    for (const auto& adapter : new_schemas.adapters) {
      if (adapter.name == operator_of(change.name) && old_schemas.release < adapter.applies_below) {
        change.suppressed_because =
            fmt::format("torch {} adapts the stacks of {} callers built before {}", new_schemas.release.to_string(),
                        adapter.name, adapter.applies_below.to_string());
      }
    }
  }
}

}  // namespace

std::vector<AbiChange> compare_operator_schemas(const OperatorSchemas& old_schemas,
                                                const OperatorSchemas& new_schemas) {
  std::map<std::string, const OperatorSchema*> old_by_name, new_by_name;
  std::set<std::string> old_operators, new_operators;
  for (const auto& schema : old_schemas.schemas) {
    old_by_name[schema.qualified_name()] = &schema;
    old_operators.insert(schema.name);
  }
  for (const auto& schema : new_schemas.schemas) {
    new_by_name[schema.qualified_name()] = &schema;
    new_operators.insert(schema.name);
  }

  std::vector<AbiChange> changes;
  std::set<std::string> renamed_to, removed_operators;
  for (const auto& [name, old_schema] : old_by_name) {
    if (auto found = new_by_name.find(name); found != new_by_name.end()) {
      compare_arguments(*old_schema, *found->second, changes);
      compare_returns(*old_schema, *found->second, changes);
      continue;
    }
    if (!new_operators.contains(old_schema->name)) {
      // One change for the operator, not one per overload.
      if (removed_operators.insert(old_schema->name).second) {
        changes.push_back({old_schema->name, ChangeKind::OperatorRemoved, old_schema->text});
      }
      continue;
    }
    // A plain pointer: clang 14 (which clang-tidy runs) cannot capture a structured binding.
    const OperatorSchema* removed = old_schema;
    auto renamed = std::ranges::find_if(new_schemas.schemas, [&](const OperatorSchema& candidate) {
      return candidate.name == removed->name && !old_by_name.contains(candidate.qualified_name()) &&
             signature_of(candidate) == signature_of(*removed);
    });
    if (renamed != new_schemas.schemas.end()) {
      renamed_to.insert(renamed->qualified_name());
      changes.push_back({name, ChangeKind::OverloadRenamed, fmt::format("now {}", renamed->qualified_name())});
    } else {
      changes.push_back({name, ChangeKind::OverloadRemoved, old_schema->text});
    }
  }
  for (const auto& [name, new_schema] : new_by_name) {
    if (old_by_name.contains(name) || renamed_to.contains(name)) continue;
    changes.push_back({name, ChangeKind::OperatorAdded, new_schema->text});
  }
  accept_adapted(old_schemas, new_schemas, changes);
  return changes;
}

}  // namespace abicheck
