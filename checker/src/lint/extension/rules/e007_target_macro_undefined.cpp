#include <fmt/format.h>

#include <array>

#include "lint/extension/extension_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{"E007", "target-macro-undefined", LintSeverity::Warning,
                         "TORCH_TARGET_VERSION is pushed/undefined around something other than pybind11 or fmt.",
                         "Push and undefine TORCH_TARGET_VERSION only around the third-party headers that need it."};

// Third-party headers that tripped torch's header wrapping on 2.10-2.12 and are known to need the
// target hidden while they are included.
constexpr std::array<std::string_view, 2> kHeadersThatNeedIt = {"pybind11/", "fmt/"};

bool mentions_target(std::string_view text) { return text.find("TORCH_TARGET_VERSION") != std::string_view::npos; }

bool is_allowed_include(std::string_view argument) {
  if (argument.size() < 2) return false;
  std::string_view path = argument.substr(1);
  for (auto prefix : kHeadersThatNeedIt) {
    if (path.starts_with(prefix)) return true;
  }
  return false;
}

void check(const ExtensionFacts& facts, const ExtensionLintContext&, const LintRule& rule, DiagnosticSink& sink) {
  for (const auto& [file, directives] : facts.project_directives) {
    const PreprocessorDirective* hidden_since = nullptr;
    for (const auto& directive : directives) {
      bool hides = (directive.name == "undef" && mentions_target(directive.argument)) ||
                   (directive.name == "pragma" && directive.argument.starts_with("push_macro") &&
                    mentions_target(directive.argument));
      bool restores = (directive.name == "define" && mentions_target(directive.argument)) ||
                      (directive.name == "pragma" && directive.argument.starts_with("pop_macro") &&
                       mentions_target(directive.argument));
      if (hides && !hidden_since) hidden_since = &directive;
      if (restores) hidden_since = nullptr;
      if (hidden_since && directive.name == "include" && !is_allowed_include(directive.argument)) {
        sink.report(rule, {file, directive.line, directive.column},
                    fmt::format("{} is included with TORCH_TARGET_VERSION hidden (line {}): only pybind11 and fmt "
                                "headers are known to need that, anything else compiles without the target",
                                directive.argument, hidden_since->line));
      }
    }
    if (hidden_since) {
      sink.report(rule, {file, hidden_since->line, hidden_since->column},
                  "TORCH_TARGET_VERSION is hidden here and never restored (#pragma pop_macro): the rest of the "
                  "translation unit compiles without the target");
    }
  }
}

}  // namespace

ExtensionRule target_macro_undefined_rule() { return {kRule, check}; }

}  // namespace abicheck
