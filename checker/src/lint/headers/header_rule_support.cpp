#include "lint/headers/header_rule_support.h"

#include <fmt/format.h>

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

}  // namespace abicheck
