#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <deque>
#include <map>
#include <tuple>

#include "baseline/release_history.h"
#include "inventory/inventory_collector.h"
#include "lint/headers/header_rule_support.h"
#include "lint/headers/header_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{
    "H005", "wrapper-guard-too-weak", LintSeverity::Error,
    "Code of the header-only wrappers uses a shim at a target where the shim is not declared or not shipped.",
    "Guard the wrapper code with the shim's own release."};

// The stable declaration a wrapper's use names: the C shim function of that name, else a
// declaration whose name or last name component it is (an undeclared member of an enum).
const ShimDeclaration* used_declaration(const ShimInventory& inventory, const std::string& name) {
  if (const ShimDeclaration* function = inventory.find(name)) return function;
  for (const auto& d : inventory.declarations) {
    std::string_view declared = d.name;
    if (auto colons = declared.rfind("::"); colons != std::string_view::npos) declared.remove_prefix(colons + 2);
    if (declared == name) return &d;
  }
  return nullptr;
}

// A use is broken at a target when the front end found the name undeclared there (the wrapper's
// guard is weaker than the declaration's), or when it resolved to a shim that first shipped after
// that target (the extension using the wrapper would not load on the target). Each use is reported
// once, at the oldest target where it breaks.
void check(const HeaderLintInput& input, const LintRule& rule, DiagnosticSink& sink) {
  auto first = first_shipped_releases(input.earlier);
  TorchVersion own = input.candidate.release.minor_release();
  std::map<std::pair<SourcePosition, std::string>, std::pair<const WrapperShimUse*, TorchVersion>> oldest;
  std::deque<WrapperShimUse> macro_uses;  // a macro's uses with `declared` as the inventory says (stable addresses)
  for (const auto& use : input.wrapper_uses) {
    // A macro body's identifier counts only where it is a shim function's name: the body's other
    // tokens (parameters, helpers, enumerators' last names) are not uses of a declaration.
    const ShimDeclaration* d =
        use.in_macro ? input.candidate.find(use.name) : used_declaration(input.candidate, use.name);
    if (!d || !is_targeted(*d)) continue;
    TorchVersion shipped_in = own;  // new in this tree
    if (auto shipped = first.find(key_of(*d)); shipped != first.end()) {
      shipped_in = shipped->second;
    } else if (input.moved_in.contains(key_of(*d))) {
      shipped_in = d->since;
    }
    TorchVersion needs = std::max(d->since, shipped_in);
    const WrapperShimUse* seen = &use;
    if (use.in_macro) {
      // A macro naming a backend's shim is expanded by that backend's code only (STD_CUDA_CHECK needs
      // cuda_runtime.h): it is judged where the backend defines are set.
      if (!d->backend.empty() && !use.with_backends) continue;
      // No front end resolved the name: it is declared at the use's target where the inventory says so.
      WrapperShimUse& resolved = macro_uses.emplace_back(use);
      resolved.declared = use.target >= d->since;
      seen = &resolved;
    }
    if (seen->declared && use.target >= needs) continue;
    auto [it, inserted] = oldest.try_emplace({use.where, use.name}, seen, needs);
    if (!inserted &&
        std::tie(use.target, use.with_backends) < std::tie(it->second.first->target, it->second.first->with_backends)) {
      it->second = {seen, needs};
    }
  }
  for (const auto& [key, broken] : oldest) {
    const auto& [use, needs] = broken;
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
