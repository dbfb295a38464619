#include <fmt/format.h>

#include <algorithm>

#include "lint/extension/extension_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{"E004", "target-newer-than-build", LintSeverity::Error,
                         "The target is newer than the torch the extension is built with.",
                         "Build with a torch at least as new as the target, or lower the target."};

// A finding at the line where the user wrote the target. A -D on a compile command has no line: a
// build file that writes the same value (setup.py's extra_compile_args, CMake's definitions) is
// where it comes from; without one (a hand-written compile database, the lint's --target) the
// finding is at the unit's first line and says the value is on its compile command, as E005 does.
struct WrittenAt {
  SourcePosition where;
  std::string_view preface;  // before the message
};

WrittenAt where_written(const TargetDefinition& definition, const ExtensionFacts& facts) {
  if (definition.where.line > 0) return {definition.where, ""};
  auto in_build_file =
      std::ranges::find(facts.build_file_targets, definition.value_text, &TargetDefinition::value_text);
  if (in_build_file != facts.build_file_targets.end()) return {in_build_file->where, ""};
  return {{definition.where.file, 1, 1}, "on the compile command: "};
}

void check(const ExtensionFacts& facts, const ExtensionLintContext& context, const LintRule& rule,
           DiagnosticSink& sink) {
  for (const auto& unit : facts.units) {
    auto target = unit_target(unit);
    if (!target || unit.target_definitions.empty() || target->minor_release() <= context.build_torch.minor_release()) {
      continue;
    }
    WrittenAt written = where_written(unit.target_definitions.back(), facts);
    sink.report(rule, written.where,
                fmt::format("{}TORCH_TARGET_VERSION is {}, newer than the torch it is built with ({}): the headers "
                            "cannot provide what the target promises (an #error from 2.15, a silent bug before)",
                            written.preface, target->to_string(), context.build_torch.to_string()));
  }
}

}  // namespace

ExtensionRule target_newer_than_build_rule() { return {kRule, check}; }

}  // namespace abicheck
