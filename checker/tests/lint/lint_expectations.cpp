#include "lint/lint_expectations.h"

#include <fmt/format.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "core/project_paths.h"

namespace abicheck::testing {
namespace {

std::string trim(const std::string& text) {
  auto begin = text.find_first_not_of(" \t");
  auto end = text.find_last_not_of(" \t");
  return begin == std::string::npos ? "" : text.substr(begin, end - begin + 1);
}

// Code before the comment that holds the expectation, once comment markers are dropped.
bool has_code_before(const std::string& prefix) {
  std::string code = std::regex_replace(prefix, std::regex(R"(//|/\*|#\s*$|\s#\s)"), " ");
  code = trim(code);
  return !code.empty() && code != "#";
}

}  // namespace

std::vector<ExpectedDiagnostic> read_expectations(const std::filesystem::path& fixture_dir) {
  static const std::regex entry(R"(expect(-note)?: \[([A-Z][0-9]{3})\])");
  std::vector<ExpectedDiagnostic> expectations;
  for (const auto& item : std::filesystem::recursive_directory_iterator(fixture_dir)) {
    if (!item.is_regular_file()) continue;
    std::ifstream in(item.path());
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
      ++number;
      std::vector<std::smatch> matches;
      for (std::sregex_iterator it(line.begin(), line.end(), entry), end; it != end; ++it) matches.push_back(*it);
      if (matches.empty()) continue;
      std::string prefix = line.substr(0, matches.front().position(0));
      int target_line = has_code_before(prefix) ? number : number + 1;
      for (std::size_t i = 0; i < matches.size(); ++i) {
        auto text_begin = matches[i].position(0) + matches[i].length(0);
        auto text_end = i + 1 < matches.size() ? matches[i + 1].position(0) : static_cast<long>(line.size());
        expectations.push_back({{item.path().lexically_normal(), target_line, 0},
                                (matches[i][1].matched ? "note:" : "") + matches[i][2].str(),
                                trim(line.substr(text_begin, text_end - text_begin))});
      }
    }
  }
  return expectations;
}

std::vector<std::string> mismatches(const std::vector<LintDiagnostic>& reported,
                                    const std::vector<ExpectedDiagnostic>& expected) {
  // A note "[E004] ..." under a finding is met by an `expect-note: [E004]` at the finding's line.
  static const std::regex note_of_rule(R"(^\[([A-Z][0-9]{3})\] (.*)$)");
  std::vector<LintDiagnostic> found;
  for (const auto& diagnostic : reported) {
    found.push_back(diagnostic);
    for (const auto& note : diagnostic.notes) {
      std::smatch parts;
      if (!std::regex_match(note, parts, note_of_rule)) continue;
      found.push_back({.where = diagnostic.where, .rule = "note:" + parts[1].str(), .message = parts[2].str()});
    }
  }
  std::vector<std::string> problems;
  std::vector<bool> met(expected.size(), false);
  for (const auto& diagnostic : found) {
    bool matched = false;
    for (std::size_t i = 0; i < expected.size() && !matched; ++i) {
      const auto& expectation = expected[i];
      if (met[i] || expectation.rule != diagnostic.rule || expectation.where.line != diagnostic.where.line ||
          std::filesystem::weakly_canonical(expectation.where.file) !=
              std::filesystem::weakly_canonical(diagnostic.where.file) ||
          diagnostic.message.find(expectation.message_part) == std::string::npos) {
        continue;
      }
      met[i] = matched = true;
    }
    if (!matched) {
      problems.push_back(fmt::format("unexpected: {}:{}:{}: [{}] {}", diagnostic.where.file.string(),
                                     diagnostic.where.line, diagnostic.where.column, diagnostic.rule,
                                     diagnostic.message));
    }
  }
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (met[i]) continue;
    problems.push_back(fmt::format("missing: {}:{}: [{}] {}", expected[i].where.file.string(), expected[i].where.line,
                                   expected[i].rule, expected[i].message_part));
  }
  return problems;
}

bool has_documentation_section(std::string_view rule_id) {
  std::ifstream in(project_root() / "docs" / "lint-rules.md");
  std::stringstream text;
  text << in.rdbuf();
  return text.str().find(fmt::format("## {} ", rule_id)) != std::string::npos;
}

}  // namespace abicheck::testing
