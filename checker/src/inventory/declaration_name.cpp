#include "inventory/declaration_name.h"

#include <cctype>

#include "inventory/declaration_pairing.h"

namespace abicheck {
namespace {

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Where a method's key opens its parameter list: at the '(' that matches the key's last ')' (a
// template's name may hold parentheses of its own). npos where the key has none.
std::size_t parameter_list_start(std::string_view key) {
  std::size_t close = key.rfind(')');
  if (close == std::string_view::npos) return std::string_view::npos;
  int depth = 0;
  for (std::size_t i = close + 1; i-- > 0;) {
    if (key[i] == ')') ++depth;
    if (key[i] == '(' && --depth == 0) return i;
  }
  return std::string_view::npos;
}

// Where `head` spells an operator's name ("...::operator==", "operator()"), npos for other names.
std::size_t operator_start(std::string_view head) {
  for (std::size_t at = head.find("operator"); at != std::string_view::npos; at = head.find("operator", at + 1)) {
    bool starts_name = at == 0 || head.substr(at - 1, 1) == ":";
    std::size_t after = at + 8;
    bool ends_word = after == head.size() || !is_identifier_char(head[after]);
    if (starts_name && ends_word) return at;
  }
  return std::string_view::npos;
}

// `head` without the template arguments at its end ("from_blob<typename, ...>" -> "from_blob").
std::string_view without_template_arguments(std::string_view head) {
  if (head.empty() || head.back() != '>') return head;
  int depth = 0;
  for (std::size_t i = head.size(); i-- > 0;) {
    if (head[i] == '>') ++depth;
    if (head[i] == '<' && --depth == 0) return head.substr(0, i);
  }
  return head;
}

// The components of a scope between its top-level "::", the empty ones (an anonymous namespace) left out.
std::vector<std::string_view> scope_components(std::string_view scope) {
  std::vector<std::string_view> components;
  int depth = 0;
  std::size_t start = 0;
  auto take = [&](std::size_t end) {
    if (end > start) components.push_back(scope.substr(start, end - start));
  };
  for (std::size_t i = 0; i < scope.size(); ++i) {
    if (scope[i] == '<') ++depth;
    if (scope[i] == '>') --depth;
    if (depth == 0 && scope.substr(i, 2) == "::") {
      take(i);
      start = i + 2;
      ++i;
    }
  }
  take(scope.size());
  return components;
}

std::string joined(const std::vector<std::string_view>& components) {
  std::string text;
  for (std::string_view component : components) {
    if (!text.empty()) text += "::";
    text += component;
  }
  return text;
}

}  // namespace

std::vector<std::string_view> split_parameters(std::string_view list) {
  std::vector<std::string_view> parameters;
  if (list.find_first_not_of(' ') == std::string_view::npos) return parameters;
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

DeclarationName declaration_name(std::string_view inventory_name) {
  DeclarationName parts;
  std::string_view head = inventory_name;
  if (std::size_t open = parameter_list_start(inventory_name); open != std::string_view::npos) {
    parts.has_parameter_list = true;
    std::size_t close = inventory_name.rfind(')');
    for (std::string_view parameter : split_parameters(inventory_name.substr(open + 1, close - open - 1))) {
      parts.parameter_types.push_back(normal_signature(parameter));
    }
    head = inventory_name.substr(0, open);
  }
  std::size_t name_start = operator_start(head);
  if (name_start == std::string_view::npos) {
    head = without_template_arguments(head);
    std::vector<std::string_view> components = scope_components(head);
    if (components.empty()) return parts;
    parts.name = components.back();
    components.pop_back();
    parts.scope = joined(components);
    return parts;
  }
  parts.name = head.substr(name_start);
  parts.scope = joined(scope_components(head.substr(0, name_start)));
  return parts;
}

std::string DeclarationName::qualified() const { return scope.empty() ? name : scope + "::" + name; }

bool DeclarationName::is_in_scope(std::string_view spelled_scope) const {
  std::vector<std::string_view> spelled = scope_components(spelled_scope);
  std::vector<std::string_view> declared = scope_components(scope);
  if (spelled == declared) return true;
  // An inline namespace is a component that one spelling has and the other may not: the same
  // outermost and innermost names are the same scope.
  return !spelled.empty() && !declared.empty() && spelled.front() == declared.front() &&
         spelled.back() == declared.back();
}

}  // namespace abicheck
