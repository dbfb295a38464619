#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "lint/lint_rule.h"

namespace abicheck::testing {

// One `expect: [E003] words` comment of a lint fixture: the diagnostic the lint must report at
// that line (a trailing comment) or at the next line (a comment alone on its line).
struct ExpectedDiagnostic {
  SourcePosition where;  // column unused
  std::string rule;
  std::string message_part;
};

// Every expectation in every file under the fixture directory.
std::vector<ExpectedDiagnostic> read_expectations(const std::filesystem::path& fixture_dir);

// One line per diagnostic that no expectation names and per expectation that no diagnostic meets;
// empty when the lint found exactly what the fixture expects.
std::vector<std::string> mismatches(const std::vector<LintDiagnostic>& found,
                                    const std::vector<ExpectedDiagnostic>& expected);

}  // namespace abicheck::testing
