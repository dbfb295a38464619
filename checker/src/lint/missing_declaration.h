#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace abicheck {

// What a clang error says is missing, when it names a declaration that a newer release may have: a
// name not declared ("use of undeclared identifier 'torch_foo'", "no member named 'to' in namespace
// 'torch::stable'", "unknown type name", …), or a call that no visible overload of a declared name
// takes ("no matching function for call to 'new_empty'"; "too many arguments to function call,
// expected at most 3, have 6" with its note "'new_empty' declared here"; a constructor: "no matching
// conversion for functional-style cast from 'std::string' to 'torch::stable::Device'").
struct MissingDeclaration {
  std::string name;                      // "to"; empty when the error is of another kind
  std::string scope;                     // where the name was looked up, when the message says: "torch::stable"
  bool overload_missing = false;         // the name is declared; no overload of it fits the call
  std::optional<std::size_t> arguments;  // how many arguments the call passes, when the message says
};
MissingDeclaration missing_declaration_in(const std::string& message, const std::vector<std::string>& notes);

}  // namespace abicheck
