#include <fmt/format.h>

#include <map>

#include "baseline/release_history.h"
#include "lint/headers/header_rule_support.h"
#include "lint/headers/header_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{"H006", "new-declaration-version", LintSeverity::Error,
                         "A new declaration does not carry the tree's own version.",
                         "Guard the new declaration with this tree's release."};

// An enumerator appended to an enum that shipped before: the enum is compiled into the extension and
// crosses the boundary as its integer, so a new value changes nothing an older build relies on (a
// renumbered one is the diff's enum-value-changed and H003's), and a guard inside the enum would only
// make its numbering depend on the target.
bool is_enumerator_of_shipped_enum(const ShimDeclaration& d, const std::map<DeclarationKey, TorchVersion>& first) {
  if (d.kind != DeclarationKind::EnumConstant) return false;
  std::size_t scope = d.name.rfind("::");
  return scope != std::string::npos && first.contains(DeclarationKey{d.name.substr(0, scope), DeclarationKind::Enum});
}

void check(const HeaderLintInput& input, const LintRule& rule, DiagnosticSink& sink) {
  auto first = first_shipped_releases(input.earlier);
  TorchVersion own = input.candidate.release.minor_release();
  for (const auto& d : input.candidate.declarations) {
    if (!is_targeted(d) || is_unguarded_macro(d) || is_compiled_in_cpp(d) || first.contains(key_of(d)) ||
        d.since == own || input.moved_in.contains(key_of(d)) || is_enumerator_of_shipped_enum(d, first)) {
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
