#include <fmt/format.h>

#include "baseline/release_history.h"
#include "lint/headers/header_rule_support.h"
#include "lint/headers/header_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{"H001", "guard-too-weak", LintSeverity::Error,
                         "A declaration is visible at a target older than the first release that shipped it.",
                         "Guard the declaration with the release that first shipped it."};

void check(const HeaderLintInput& input, const LintRule& rule, DiagnosticSink& sink) {
  auto first = first_shipped_releases(input.earlier);
  for (const auto& d : input.candidate.declarations) {
    if (!is_targeted(d) || is_unguarded_macro(d) || is_compiled_in_cpp(d)) continue;
    auto shipped = first.find(key_of(d));
    if (shipped == first.end() || d.since >= shipped->second || input.moved_in.contains(key_of(d))) continue;
    sink.report(rule, position_of(input, d),
                fmt::format("{} is visible at target {} but first shipped in {}: an extension targeting {} "
                            "compiles against it and then fails to load there (missing or too weak guard)",
                            describe(d), d.since.to_string(), shipped->second.to_string(), d.since.to_string()));
  }
}

}  // namespace

HeaderRule guard_too_weak_rule() { return {kRule, check}; }

}  // namespace abicheck
