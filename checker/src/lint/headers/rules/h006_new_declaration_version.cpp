#include <fmt/format.h>

#include "baseline/release_history.h"
#include "lint/headers/header_rule_support.h"
#include "lint/headers/header_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{"H006", "new-declaration-version", LintSeverity::Error,
                         "A new declaration does not carry the tree's own version.",
                         "Guard the new declaration with this tree's release."};

void check(const HeaderLintInput& input, const LintRule& rule, DiagnosticSink& sink) {
  auto first = first_shipped_releases(input.earlier);
  TorchVersion own = input.candidate.release.minor_release();
  for (const auto& d : input.candidate.declarations) {
    if (!is_targeted(d) || is_version_macro(d) || first.contains(key_of(d)) || d.since == own ||
        input.moved_in.contains(key_of(d))) {
      continue;
    }
    sink.report(rule, position_of(input, d),
                fmt::format("{} is new in {} but its guard says {}: a new declaration must carry the tree's own "
                            "version (#if TORCH_FEATURE_VERSION >= TORCH_VERSION_{}_{}_0)",
                            describe(d), own.to_string(), d.since.to_string(), own.major, own.minor));
  }
}

}  // namespace

HeaderRule new_declaration_version_rule() { return {kRule, check}; }

}  // namespace abicheck
