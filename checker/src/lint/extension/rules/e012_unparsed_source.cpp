#include <fmt/format.h>

#include <regex>

#include "lint/extension/extension_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{
    "E012", "unparsed-source", LintSeverity::Error,
    "libclang refused a translation unit outright, or read no C++ in it, so no other rule could check it.",
    "Fix the compile command or the source (the finding quotes libclang's error); the other rules did not see "
    "this unit."};

// libclang prints its diagnostics as `file:line:col: error: message`; the first one that names a
// place is where the finding goes, else the unit's first line.
SourcePosition first_diagnostic_position(const std::string& diagnostics, const std::filesystem::path& source) {
  static const std::regex located(R"((?:^|\n)([^\n:]+):(\d+):(\d+): (?:fatal )?error: )");
  std::smatch match;
  if (std::regex_search(diagnostics, match, located)) {
    return {std::filesystem::path(match[1].str()).lexically_normal(), std::stoi(match[2].str()),
            std::stoi(match[3].str())};
  }
  return {source, 1, 1};
}

std::string first_error_line(const std::string& diagnostics) {
  std::size_t at = diagnostics.find("error: ");
  std::size_t start = at == std::string::npos ? 0 : at + 7;
  std::size_t end = diagnostics.find('\n', start);
  return diagnostics.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// The errors of the source itself other than a missing header (E009's), when it holds no declaration:
// a file of another language or of random bytes, of which no rule can see anything.
std::vector<const CompileError*> errors_of_no_cxx(const TranslationUnitFacts& unit) {
  std::vector<const CompileError*> errors;
  if (unit.main_file_declarations > 0) return errors;
  for (const auto& error : unit.errors) {
    if (error.where.file == unit.source && error.message.find("file not found") == std::string::npos) {
      errors.push_back(&error);
    }
  }
  return errors;
}

// A unit that libclang would not parse at all, or in which it read no C++, hides everything it
// contains from every other rule, so that is a finding with libclang's own words; the other units are
// linted as usual.
void check(const ExtensionFacts& facts, const ExtensionLintContext&, const LintRule& rule, DiagnosticSink& sink) {
  for (const auto& unit : facts.units) {
    if (unit.parse_refusal) {
      sink.report(rule, first_diagnostic_position(*unit.parse_refusal, unit.source),
                  fmt::format("libclang could not parse {} at all, so no rule checked it: {}",
                              unit.source.filename().string(), first_error_line(*unit.parse_refusal)));
      continue;
    }
    std::vector<const CompileError*> errors = errors_of_no_cxx(unit);
    if (errors.empty()) continue;
    sink.report(rule, errors.front()->where,
                fmt::format("libclang read no C++ in {}: no declaration, {} error{} (the first: {}), so no rule "
                            "checked it",
                            unit.source.filename().string(), errors.size(), errors.size() == 1 ? "" : "s",
                            errors.front()->message));
  }
}

}  // namespace

ExtensionRule unparsed_source_rule() { return {kRule, check}; }

}  // namespace abicheck
