#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "lint/headers/header_rule_support.h"
#include "lint/headers/header_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{"H007", "headers-do-not-compile", LintSeverity::Error,
                         "The stable headers newly fail to compile at some target or backend configuration.",
                         "Fix the headers at the failing configuration (the finding quotes the first compiler error)."};

// Every extension that compiles at a failing configuration stops compiling, so each error the
// headers did not have before (in the newest earlier baseline, or the shipped one of this release)
// is a finding, reported once with every configuration it shows in. A use that H005 reports (a
// wrapper calling a shim its guard hides) is left to it; any other not-declared error (a member an
// inline function uses removed) is this rule's.
void check(const HeaderLintInput& input, const LintRule& rule, DiagnosticSink& sink) {
  std::set<std::string> known;
  if (!input.earlier.empty()) known = input.earlier.back().compile_error_identities();
  if (input.shipped) known.merge(input.shipped->compile_error_identities());
  std::set<SourcePosition> explained_by_h005;
  for (const auto& [key, broken] : broken_wrapper_uses(input)) {
    if (!broken.use.declared) explained_by_h005.insert({broken.use.where.file, broken.use.where.line, 0});
  }
  for (const auto& error : new_compile_errors(input.candidate, known)) {
    SourcePosition where{(input.include_dir / error.header).lexically_normal(), std::max(error.line, 1), 1};
    if (explained_by_h005.contains({where.file, where.line, 0})) continue;
    sink.report(rule, where,
                fmt::format("the headers of {} do not compile at {}: {}", input.candidate.release.to_string(),
                            error.configurations(), error.message()),
                Consequence::DoesNotCompile);
  }
}

}  // namespace

HeaderRule headers_do_not_compile_rule() { return {kRule, check}; }

}  // namespace abicheck
