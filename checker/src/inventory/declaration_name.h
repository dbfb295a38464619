#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace abicheck {

// The parts of a declaration's name as the inventory spells it (the name of its DeclarationKey). A C
// shim, macro, struct or typedef is one identifier ("aoti_torch_empty_strided"); a C++ declaration is
// qualified ("c10::ScalarType::Float"); a method (a wrapper function, a member, a constructor) carries
// its parameter types and qualifiers too, so that overloads are told apart
// ("torch::stable::Tensor::size(long) const", "torch::stable::from_blob<typename, ...>(void *, ...)").
// This is the one reader of that spelling: the lint's rules, the release history and the diff ask it.
struct DeclarationName {
  // The namespaces and classes around it, an anonymous namespace left out (its members are found
  // by the enclosing one's name): "torch::stable::Tensor". Empty for a C name.
  std::string scope;
  // What a use spells: "size", "Float", "operator==", "Tensor" for a constructor.
  std::string name;
  // Whether the key has a parameter list (a method), and its parameter types by position, with
  // their whitespace made canonical.
  bool has_parameter_list = false;
  std::vector<std::string> parameter_types;

  std::string qualified() const;  // "torch::stable::Tensor::size"; `name` for a C name
  // Whether a use that a compiler's message places in `spelled_scope` ("torch::stable",
  // "torch::stable::Tensor") can mean this declaration: the same scope, an inline namespace aside.
  bool is_in_scope(std::string_view spelled_scope) const;
};

DeclarationName declaration_name(std::string_view inventory_name);

// The parameters of a parameter list's inside ("int a, std::pair<int, int> b"), split at its
// top-level commas; empty for an empty list.
std::vector<std::string_view> split_parameters(std::string_view list);

}  // namespace abicheck
