#include "lint/headers/header_rule_support.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "baseline/release_history.h"
#include "inventory/declaration_name.h"
#include "inventory/inventory_collector.h"

namespace abicheck {

bool is_unguarded_macro(const ShimDeclaration& declaration) { return declaration.kind == DeclarationKind::Macro; }

std::string describe(const ShimDeclaration& declaration) {
  return declaration.backend.empty() ? fmt::format("'{}'", declaration.name)
                                     : fmt::format("'{}' ({})", declaration.name, declaration.backend);
}

SourcePosition position_of(const HeaderLintInput& input, const ShimDeclaration& declaration) {
  return {input.include_dir / declaration.header, declaration.line, 1};
}

const ShimDeclaration* used_declaration(const ShimInventory& inventory, const std::string& name) {
  if (const ShimDeclaration* function = inventory.find(name)) return function;
  for (const auto& d : inventory.declarations) {
    if (declaration_name(d.name).name == name) return &d;
  }
  return nullptr;
}

std::map<std::pair<SourcePosition, std::string>, BrokenWrapperUse> broken_wrapper_uses(const HeaderLintInput& input) {
  auto first = first_shipped_releases(input.earlier);
  TorchVersion own = input.candidate.release.minor_release();
  std::map<std::pair<SourcePosition, std::string>, BrokenWrapperUse> oldest;
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
    WrapperShimUse seen = use;
    if (use.in_macro) {
      // A macro naming a backend's shim is expanded by that backend's code only (STD_CUDA_CHECK needs
      // cuda_runtime.h): it is judged where the backend defines are set.
      if (!d->backend.empty() && !use.with_backends) continue;
      // No front end resolved the name: it is declared at the use's target where the inventory says so.
      seen.declared = use.target >= d->since;
    }
    if (seen.declared && use.target >= needs) continue;
    auto [it, inserted] = oldest.try_emplace({use.where, use.name}, BrokenWrapperUse{seen, needs});
    if (!inserted &&
        std::tie(use.target, use.with_backends) < std::tie(it->second.use.target, it->second.use.with_backends)) {
      it->second = {seen, needs};
    }
  }
  return oldest;
}

}  // namespace abicheck
