#include "inventory/declaration_pairing.h"

#include <algorithm>
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

// The parameters of a parameter list ("int a, std::pair<int, int> b"), split at its top-level commas.
std::vector<std::string_view> split_parameters(std::string_view list) {
  std::vector<std::string_view> parameters;
  if (list.empty()) return parameters;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    char c = list[i];
    if (c == '(' || c == '<' || c == '[') ++depth;
    if (c == ')' || c == '>' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      parameters.push_back(list.substr(start, i - start));
      start = i + 1;
    }
  }
  parameters.push_back(list.substr(start));
  return parameters;
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

// Where a method's key ("<qualified name>(<type>, <type>, ...)[ const]") opens and closes its parameter
// list: the one whose ')' is the key's last (a template's name may hold parentheses of its own).
// npos for both where the key has none.
std::pair<std::size_t, std::size_t> parameter_list_of(const std::string& key) {
  std::size_t close = key.rfind(')');
  if (close == std::string::npos) return {std::string::npos, std::string::npos};
  int depth = 0;
  for (std::size_t i = close + 1; i-- > 0;) {
    if (key[i] == ')') ++depth;
    if (key[i] == '(' && --depth == 0) return {i, close};
  }
  return {std::string::npos, std::string::npos};
}

// A method's name without its parameter list ("torch::stable::amax").
std::string method_name(const ShimDeclaration& declaration) {
  return declaration.name.substr(0, parameter_list_of(declaration.name).first);
}

// Its result type: the ABI type up to its parameter list.
std::string result_type(const ShimDeclaration& declaration) {
  return normal_signature(declaration.abi_type.substr(0, declaration.abi_type.find('(')));
}

}  // namespace

std::vector<std::string> method_parameter_types(const ShimDeclaration& declaration) {
  std::vector<std::string> types;
  if (declaration.kind != DeclarationKind::Method) return types;
  auto [open, close] = parameter_list_of(declaration.name);
  if (open == std::string::npos) return types;
  std::string_view list(declaration.name.data() + open + 1, close - open - 1);
  for (std::string_view parameter : split_parameters(list)) {
    if (std::string type = normal_signature(parameter); !type.empty()) types.push_back(type);
  }
  return types;
}

const ShimDeclaration* replacing_overload(const ShimDeclaration& removed,
                                          const std::vector<const ShimDeclaration*>& added) {
  if (removed.kind != DeclarationKind::Method) return nullptr;
  std::string name = method_name(removed);
  std::size_t arity = method_parameter_types(removed).size();
  for (const ShimDeclaration* candidate : added) {
    if (candidate->kind != DeclarationKind::Method || method_name(*candidate) != name) continue;
    if (method_parameter_types(*candidate).size() != arity || result_type(*candidate) != result_type(removed)) continue;
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
