#include "lint/extension/project_target.h"

#include <algorithm>
#include <iterator>
#include <string>
#include <tuple>

#include "lint/directive_scanner.h"
#include "lint/extension/extension_rules.h"

namespace abicheck {

std::optional<TorchVersion> target_version(const TargetDefinition& definition) {
  auto value = definition.value ? definition.value : parse_integer_literal(definition.value_text);
  auto version = value ? TorchVersion::from_abi_value(*value) : TorchVersion::try_parse(definition.value_text);
  if (!version) return std::nullopt;
  return version->minor_release();
}

bool is_written_down(const TargetDefinition& definition) {
  return definition.origin == TargetDefinition::Origin::Source ||
         definition.origin == TargetDefinition::Origin::BuildFile;
}

std::optional<ProjectTarget> project_target(const std::vector<TargetDefinition>& definitions) {
  std::optional<ProjectTarget> oldest_written;
  std::optional<ProjectTarget> oldest_compiled;
  for (const auto& definition : definitions) {
    auto version = target_version(definition);
    if (!version) continue;
    std::optional<ProjectTarget>* oldest = nullptr;
    if (is_written_down(definition)) {
      oldest = &oldest_written;
    } else if (definition.origin == TargetDefinition::Origin::CommandLine) {
      oldest = &oldest_compiled;
    } else {
      continue;  // the lint's own --target option is not the project's
    }
    if (!*oldest || std::tie(*version, definition.where) < std::tie((*oldest)->version, (*oldest)->definition.where)) {
      *oldest = ProjectTarget{*version, definition};
    }
  }
  return oldest_written ? oldest_written : oldest_compiled;
}

std::vector<TargetDefinition> target_definitions(const ExtensionFacts& facts) {
  std::vector<TargetDefinition> definitions;
  for (const auto& unit : facts.units) {
    definitions.insert(definitions.end(), unit.target_definitions.begin(), unit.target_definitions.end());
  }
  definitions.insert(definitions.end(), facts.build_file_targets.begin(), facts.build_file_targets.end());
  return definitions;
}

std::vector<TargetDefinition> target_definitions(const ExtensionSources& sources) {
  std::vector<TargetDefinition> definitions;
  constexpr std::string_view kDefinePrefix = "TORCH_TARGET_VERSION ";
  for (const auto& unit : sources.units) {
    // Without a compilation database every unit carries the build files' target, listed below once.
    std::ranges::copy_if(
        unit.command_line_targets, std::back_inserter(definitions),
        [](const TargetDefinition& definition) { return definition.origin != TargetDefinition::Origin::BuildFile; });
    for (const auto& directive : scan_preprocessor_directives_of(unit.source)) {
      if (directive.name != "define" || !directive.argument.starts_with(kDefinePrefix)) continue;
      std::string value = directive.argument.substr(kDefinePrefix.size());
      value.erase(0, value.find_first_not_of(" \t"));
      definitions.push_back(
          {{unit.source, directive.line, directive.column}, TargetDefinition::Origin::Source, value, std::nullopt});
    }
  }
  definitions.insert(definitions.end(), sources.build_file_targets.begin(), sources.build_file_targets.end());
  return definitions;
}

}  // namespace abicheck
