#include <fmt/format.h>

#include "lint/extension/extension_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{"E009", "unresolved-include", LintSeverity::Error,
                         "An #include cannot be found on the include path the build would use.",
                         "Add the missing include directory to the build, or install what provides the header."};

constexpr std::string_view kNotFound = "' file not found";

// clang says "'torch/foo.h' file not found"; the header's name is between the quotes.
std::optional<std::string> missing_header(const std::string& message) {
  if (!message.starts_with('\'') || !message.ends_with(kNotFound)) return std::nullopt;
  return message.substr(1, message.size() - 1 - kNotFound.size());
}

bool is_in_project(const std::filesystem::path& file, const std::filesystem::path& root) {
  auto relative = file.lexically_relative(root);
  return !relative.empty() && *relative.begin() != "..";
}

// An include the parser cannot resolve hides everything the header declares from every rule (an
// unstable <torch/...> header among them), so it is a finding of its own, never dropped. Only
// includes written in the project's files: one inside a third-party header (pybind11's <Python.h>)
// is found by the real build through that library's own include dirs, which the lint does not model.
void check(const ExtensionFacts& facts, const ExtensionLintContext&, const LintRule& rule, DiagnosticSink& sink) {
  for (const auto& unit : facts.units) {
    for (const auto& error : unit.errors) {
      auto header = missing_header(error.message);
      if (!header || !is_in_project(error.where.file, facts.root)) continue;
      sink.report(rule, error.where,
                  fmt::format("'{}' is not found on the include path (torch's include/ and "
                              "include/torch/csrc/api/include, as cpp_extension gives them, and the unit's own "
                              "-I flags): nothing it declares is checked, and the build fails the same way",
                              *header));
    }
  }
}

}  // namespace

ExtensionRule unresolved_include_rule() { return {kRule, check}; }

}  // namespace abicheck
