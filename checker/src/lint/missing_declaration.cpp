#include "lint/missing_declaration.h"

#include <regex>

namespace abicheck {

MissingDeclaration missing_declaration_in(const std::string& message, const std::vector<std::string>& notes) {
  static const std::regex undeclared(
      R"(^(?:use of undeclared identifier|unknown type name|no member named|no type named|no template named|use of undeclared) '([^']+)'(?: in (?:namespace )?'([^']+)')?)");
  static const std::regex no_matching_call(R"(^no matching (?:member )?function for call to '([^']+)')");
  // A constructor call no constructor fits: direct, functional-style, or a conversion by one.
  static const std::regex no_matching_constructor(
      R"(^(?:no matching constructor for initialization of|no matching conversion for functional-style cast from '[^']+' to|no viable conversion from '[^']+' to) '([^']+)')");
  static const std::regex argument_count(R"(^too (?:many|few) arguments to function call, expected .*, have (\d+))");
  static const std::regex declared_here(R"(^'([^']+)' declared here)");
  MissingDeclaration missing;
  std::smatch match;
  if (std::regex_search(message, match, undeclared)) {
    missing.name = match[1].str();
    missing.scope = match[2].str();
  } else if (std::regex_search(message, match, no_matching_call)) {
    missing.name = match[1].str();
    missing.overload_missing = true;
  } else if (std::regex_search(message, match, no_matching_constructor)) {
    // A constructor is a member of its class named as the class.
    missing.scope = match[1].str();
    missing.name =
        missing.scope.substr(missing.scope.rfind(':') == std::string::npos ? 0 : missing.scope.rfind(':') + 1);
    missing.overload_missing = true;
  } else if (std::regex_search(message, match, argument_count)) {
    missing.arguments = std::stoul(match[1].str());
    for (const auto& note : notes) {
      std::smatch named;
      if (!std::regex_search(note, named, declared_here)) continue;
      missing.name = named[1].str();
      missing.overload_missing = true;
      break;
    }
  }
  return missing;
}

}  // namespace abicheck
