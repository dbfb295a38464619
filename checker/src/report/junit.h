#pragma once

#include <string>
#include <vector>

namespace abicheck {

// One JUnit testcase: a matrix cell and op, an audited binary, a lint rule on a file.
struct JUnitCase {
  enum class Outcome { Passed, Failed, Skipped, Error };
  std::string class_name;  // groups cases in CI viewers: "matrix.cpu.2.9.2.9", "audit"
  std::string name;
  Outcome outcome = Outcome::Passed;
  std::string message;  // one line: why it failed or was skipped
  std::string output;   // the log, shown by CI viewers under the case
  double seconds = 0;
};

// A JUnit XML document with one <testsuite> named suite_name; cases keep their order.
std::string render_junit(const std::string& suite_name, const std::vector<JUnitCase>& cases);

}  // namespace abicheck
