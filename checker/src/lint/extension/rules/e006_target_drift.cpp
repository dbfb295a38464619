#include <algorithm>
#include <fmt/format.h>

#include "lint/extension/extension_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{"E006", "target-drift", LintSeverity::Error,
                         "Targets disagree across the project: compile definitions, build files and torch>= pins."};

std::optional<TorchVersion> version_of(const TargetDefinition& definition) {
  auto value = definition.value ? definition.value : parse_integer_literal(definition.value_text);
  if (!value) return std::nullopt;
  return TorchVersion::from_abi_value(*value);
}

std::string describe(const SourcePosition& where) {
  return fmt::format("{}:{}", where.file.filename().string(), where.line);
}

// The oldest target the project writes down (build files, #defines in sources) is what it
// promises; every other such target and every torch>= pin should say the same. Compile commands
// are left out: a database may hold several libraries built at different targets on purpose
// (the reference kernels do), and what a build file says reaches them anyway.
void check(const ExtensionFacts& facts, const ExtensionLintContext&, const LintRule& rule, DiagnosticSink& sink) {
  std::vector<std::pair<TargetDefinition, TorchVersion>> targets;
  auto add = [&](const TargetDefinition& definition) {
    bool written_down = definition.origin == TargetDefinition::Origin::Source ||
                        definition.origin == TargetDefinition::Origin::BuildFile;
    auto version = version_of(definition);
    if (written_down && version) targets.emplace_back(definition, version->minor_release());
  };
  for (const auto& unit : facts.units) std::ranges::for_each(unit.target_definitions, add);
  std::ranges::for_each(facts.build_file_targets, add);
  if (targets.empty()) return;
  auto reference = *std::ranges::min_element(targets, [](const auto& a, const auto& b) {
    return std::tie(a.second, a.first.where) < std::tie(b.second, b.first.where);
  });
  for (const auto& [definition, version] : targets) {
    if (version == reference.second) continue;
    sink.report(rule, definition.where,
                fmt::format("TORCH_TARGET_VERSION is {} here but {} at {}", version.to_string(),
                            reference.second.to_string(), describe(reference.first.where)));
  }
  for (const auto& requirement : facts.torch_requirements) {
    TorchVersion pinned = requirement.minimum.minor_release();
    if (pinned == reference.second) continue;
    std::string consequence = pinned < reference.second ? "it installs on torch releases the binary cannot load into"
                                                        : "it refuses torch releases the binary supports";
    sink.report(rule, requirement.where,
                fmt::format("'{}' disagrees with TORCH_TARGET_VERSION {} at {}: {}", requirement.text,
                            reference.second.to_string(), describe(reference.first.where), consequence));
  }
}

}  // namespace

ExtensionRule target_drift_rule() { return {kRule, check}; }

}  // namespace abicheck
