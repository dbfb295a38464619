#include "lint/headers/header_rules.h"

#include "lint/headers/header_rule_support.h"

namespace abicheck {

const std::vector<HeaderRule>& header_rules() {
  static const std::vector<HeaderRule> rules = {
      guard_too_weak_rule(),         guard_too_strong_rule(),       removed_or_changed_rule(),
      version_macro_rule(),          wrapper_guard_too_weak_rule(), new_declaration_version_rule(),
      headers_do_not_compile_rule(),
  };
  return rules;
}

std::vector<LintDiagnostic> run_header_rules(const HeaderLintInput& input) {
  DiagnosticSink sink;
  for (const auto& rule : header_rules()) rule.check(input, rule.rule, sink);
  return sink.take_sorted();
}

}  // namespace abicheck
