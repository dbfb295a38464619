#pragma once

#include <stdexcept>
#include <string>

namespace abicheck {

// The tool could not do its job (bad input, missing torch, unreadable file). The CLI prints the
// message as one line and exits with ExitCode::ToolError; the message names the file and the problem.
class ToolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The exit codes every command shares: never mix a finding with a failure of the tool.
enum class ExitCode : int {
  Clean = 0,      // the check ran and found nothing wrong
  Findings = 1,   // the check ran and found a problem
  ToolError = 2,  // the check could not run
};

}  // namespace abicheck
