#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "lint/lint_rule.h"

namespace abicheck::testing {

// One `expect: [E003] words` comment of a lint fixture: the diagnostic the lint must report at
// that line (a trailing comment) or at the next line (a comment alone on its line). `expect-note:
// [E004] words` is a note under the finding there: another rule's finding of the same cause.
struct ExpectedDiagnostic {
  SourcePosition where;  // column unused
  std::string rule;      // "E003", or "note:E004" for a note
  std::string message_part;
};

// Every expectation in every file under the fixture directory.
std::vector<ExpectedDiagnostic> read_expectations(const std::filesystem::path& fixture_dir);

// One line per diagnostic that no expectation names and per expectation that no diagnostic meets;
// empty when the lint found exactly what the fixture expects.
std::vector<std::string> mismatches(const std::vector<LintDiagnostic>& found,
                                    const std::vector<ExpectedDiagnostic>& expected);

// Whether docs/lint-rules.md has the rule's section ("## E003 ...").
bool has_documentation_section(std::string_view rule_id);

}  // namespace abicheck::testing
