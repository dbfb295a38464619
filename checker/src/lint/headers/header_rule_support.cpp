#include "lint/headers/header_rule_support.h"

#include <fmt/format.h>

#include "inventory/inventory_collector.h"

namespace abicheck {

bool is_unguarded_macro(const ShimDeclaration& declaration) { return declaration.kind == DeclarationKind::Macro; }

bool is_compiled_in_cpp(const ShimDeclaration& declaration) {
  if (declaration.kind == DeclarationKind::Method) return true;
  return (declaration.kind == DeclarationKind::Struct || declaration.kind == DeclarationKind::Typedef) &&
         declaration.header.starts_with("torch/csrc/stable/") && declaration.name.starts_with("torch::");
}

std::string describe(const ShimDeclaration& declaration) {
  return declaration.backend.empty() ? fmt::format("'{}'", declaration.name)
                                     : fmt::format("'{}' ({})", declaration.name, declaration.backend);
}

SourcePosition position_of(const HeaderLintInput& input, const ShimDeclaration& declaration) {
  return {input.include_dir / declaration.header, declaration.line, 1};
}

}  // namespace abicheck
