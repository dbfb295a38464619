#include "inventory/declaration_pairing.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "inventory/declaration_name.h"
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

std::vector<std::string> parameter_names(const ShimDeclaration& declaration) {
  std::vector<std::string> names;
  if (declaration.kind != DeclarationKind::Function) return names;
  // The signature is "<result> <name>(<type> <parameter>, ...)" as the inventory writes it.
  std::size_t open = declaration.signature.find(declaration.name + "(");
  std::size_t close = declaration.signature.rfind(')');
  if (open == std::string::npos || close == std::string::npos) return names;
  open += declaration.name.size() + 1;
  std::string_view list(declaration.signature.data() + open, close - open);
  auto take = [&](std::string_view parameter) {
    parameter.remove_prefix(std::min(parameter.find_first_not_of(' '), parameter.size()));
    std::size_t end = parameter.find_last_not_of(' ');
    std::size_t begin = parameter.find_last_of(" *&", end);
    bool named = end != std::string_view::npos && begin != std::string_view::npos && parameter[end] != ')' &&
                 parameter[end] != '*' && parameter[end] != '&' && parameter[end] != '>' && parameter[end] != ']';
    names.emplace_back(named ? parameter.substr(begin + 1, end - begin) : std::string_view{});
  };
  for (std::string_view parameter : split_parameters(list)) take(parameter);
  return names;
}

namespace {

// Its result type: the ABI type up to its parameter list.
std::string result_type(const ShimDeclaration& declaration) {
  return normal_signature(declaration.abi_type.substr(0, declaration.abi_type.find('(')));
}

}  // namespace

const ShimDeclaration* replacing_overload(const ShimDeclaration& removed,
                                          const std::vector<const ShimDeclaration*>& added) {
  if (removed.kind != DeclarationKind::Method) return nullptr;
  DeclarationName gone = declaration_name(removed.name);
  for (const ShimDeclaration* candidate : added) {
    if (candidate->kind != DeclarationKind::Method) continue;
    DeclarationName replacement = declaration_name(candidate->name);
    if (replacement.qualified() != gone.qualified()) continue;
    if (replacement.parameter_types.size() != gone.parameter_types.size() ||
        result_type(*candidate) != result_type(removed)) {
      continue;
    }
    if (removed.since < candidate->since || candidate->backend != removed.backend) continue;
    return candidate;
  }
  return nullptr;
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
  std::erase_if(pairing.removed, [&pairing](const ShimDeclaration* gone) {
    const ShimDeclaration* replacement = replacing_overload(*gone, pairing.added);
    if (replacement) pairing.replaced.emplace_back(gone, replacement);
    return replacement != nullptr;
  });
  return pairing;
}

}  // namespace abicheck
