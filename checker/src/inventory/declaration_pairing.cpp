#include "inventory/declaration_pairing.h"

#include <map>
#include <sstream>

#include "inventory/inventory_collector.h"

namespace abicheck {
namespace {

using DeclarationIndex = std::map<DeclarationKey, const ShimDeclaration*>;

DeclarationIndex index_of(const ShimInventory& inventory, DeclarationFilter considered) {
  DeclarationIndex index;
  for (const auto& declaration : inventory.declarations) {
    if (!considered || considered(declaration)) index.try_emplace(key_of(declaration), &declaration);
  }
  return index;
}

}  // namespace

bool is_targeted(const ShimDeclaration& declaration) { return declaration.backend != kUntargetedOnly; }

DeclarationKey key_of(const ShimDeclaration& declaration) { return {declaration.name, declaration.kind}; }

std::string normal_signature(std::string_view signature) {
  std::istringstream words{std::string(signature)};
  std::string word;
  std::string normal;
  while (words >> word) normal += (normal.empty() ? "" : " ") + word;
  return normal;
}

bool same_signature(const ShimDeclaration& before, const ShimDeclaration& after) {
  if (!before.abi_type.empty() && !after.abi_type.empty()) return before.abi_type == after.abi_type;
  return normal_signature(before.signature) == normal_signature(after.signature);
}

DeclarationPairing pair_declarations(const ShimInventory& before, const ShimInventory& after,
                                     DeclarationFilter considered) {
  DeclarationIndex old_index = index_of(before, considered);
  DeclarationIndex new_index = index_of(after, considered);
  DeclarationPairing pairing;
  for (const auto& [key, old_declaration] : old_index) {
    auto found = new_index.find(key);
    if (found == new_index.end()) {
      pairing.removed.push_back(old_declaration);
    } else {
      pairing.kept.emplace_back(old_declaration, found->second);
    }
  }
  for (const auto& [key, new_declaration] : new_index) {
    if (!old_index.contains(key)) pairing.added.push_back(new_declaration);
  }
  return pairing;
}

}  // namespace abicheck
