#include <fmt/format.h>

#include "lint/extension/extension_rules.h"
#include "lint/extension/project_target.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{"E006", "target-drift", LintSeverity::Error,
                         "Targets disagree across the project: compile definitions, build files and torch>= pins.",
                         "Declare one target everywhere: build flags, build files and the torch>= pin."};

std::string describe(const SourcePosition& where) {
  return fmt::format("{}:{}", where.file.filename().string(), where.line);
}

// The project's target (lint/extension/project_target.h) is what it promises; every other target it
// writes down (build files, #defines in sources) and every torch>= pin should say the same. Compile
// commands are left out: a database may hold several libraries built at different targets on
// purpose (the reference kernels do), and what a build file says reaches them anyway.
void check(const ExtensionFacts& facts, const ExtensionLintContext&, const LintRule& rule, DiagnosticSink& sink) {
  std::vector<TargetDefinition> definitions = target_definitions(facts);
  std::optional<ProjectTarget> promised = project_target(definitions);
  if (!promised || !is_written_down(promised->definition)) return;
  for (const auto& definition : definitions) {
    auto version = target_version(definition);
    if (!is_written_down(definition) || !version || *version == promised->version) continue;
    sink.report(rule, definition.where,
                fmt::format("TORCH_TARGET_VERSION is {} here but {} at {}", version->to_string(),
                            promised->version.to_string(), describe(promised->definition.where)));
  }
  for (const auto& requirement : facts.torch_requirements) {
    TorchVersion pinned = requirement.minimum.minor_release();
    if (pinned == promised->version) continue;
    std::string consequence = pinned < promised->version ? "it installs on torch releases the binary cannot load into"
                                                         : "it refuses torch releases the binary supports";
    sink.report(rule, requirement.where,
                fmt::format("'{}' disagrees with TORCH_TARGET_VERSION {} at {}: {}", requirement.text,
                            promised->version.to_string(), describe(promised->definition.where), consequence));
  }
}

}  // namespace

ExtensionRule target_drift_rule() { return {kRule, check}; }

}  // namespace abicheck
