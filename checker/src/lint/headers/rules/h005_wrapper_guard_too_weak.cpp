#include <fmt/format.h>
#include <fmt/ranges.h>

#include "inventory/inventory_collector.h"
#include "lint/headers/header_rule_support.h"
#include "lint/headers/header_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{
    "H005", "wrapper-guard-too-weak", LintSeverity::Error,
    "Code of the header-only wrappers uses a shim at a target where the shim is not declared or not shipped.",
    "Guard the wrapper code with the shim's own release."};

// A use is broken at a target when the front end found the name undeclared there (the wrapper's
// guard is weaker than the declaration's), or when it resolved to a shim that first shipped after
// that target (the extension using the wrapper would not load on the target). Each use is reported
// once, at the oldest target where it breaks (broken_wrapper_uses).
void check(const HeaderLintInput& input, const LintRule& rule, DiagnosticSink& sink) {
  for (const auto& [key, broken] : broken_wrapper_uses(input)) {
    const WrapperShimUse* use = &broken.use;
    const TorchVersion& needs = broken.needs;
    const ShimDeclaration* d = used_declaration(input.candidate, use->name);
    std::string at = fmt::format("target {}", use->target.to_string());
    if (use->with_backends) at += fmt::format(" with {}", fmt::join(kBackendDefines, ", "));
    if (!use->declared) {
      std::string consequence = use->in_macro
                                    ? fmt::format(
                                          "the macro's guard is weaker than the shim's, and an extension that "
                                          "expands it at {} does not compile",
                                          use->target.to_string())
                                    : fmt::format(
                                          "the wrapper's guard is weaker than the shim's, and the header does "
                                          "not compile at {}",
                                          use->target.to_string());
      sink.report(rule, use->where,
                  fmt::format("{} is used here at {}, where it is not declared (its own guard: {}{}): {}", describe(*d),
                              at, d->since.to_string(), d->backend.empty() ? "" : " and " + d->backend, consequence));
    } else {
      sink.report(rule, use->where,
                  fmt::format("{} is used here at {}, but it first shipped in {}: an extension targeting {} that "
                              "uses this wrapper fails to load on torch {} (the shim's own guard is too weak too)",
                              describe(*d), at, needs.to_string(), use->target.to_string(), use->target.to_string()));
    }
  }
}

}  // namespace

HeaderRule wrapper_guard_too_weak_rule() { return {kRule, check}; }

}  // namespace abicheck
