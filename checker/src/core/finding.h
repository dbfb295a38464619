#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/tool_error.h"

namespace abicheck {

// An error finding fails the run (exit 1); a warning is reported and leaves it clean.
enum class FindingSeverity { Error, Warning };

std::string_view to_string(FindingSeverity severity);

// One thing a stage found wrong, in the stage's own words. Every stage judges its own result into
// these; the report only renders them, so a command and `report` on its JSON can never disagree.
struct Finding {
  std::string stage;  // "audit", "diff", "lint", "matrix", "check", "gate"
  std::string kind;   // the rule or change kind: "E003", "signature-changed", "unexpected-fail", "unstable"
  FindingSeverity severity = FindingSeverity::Error;
  std::string where;  // for people: "src/ops.cpp:10:3", "aoti_torch_foo", "libops.so"
  std::string message;
  // Where in a file, when the finding has a place there (SARIF and clickable output need it).
  std::string file;
  int line = 0;
  int column = 0;
};

// A stage's verdict on its own result: the findings and the summary lines a person reads first.
struct Judgement {
  std::vector<Finding> findings;
  std::vector<std::string> lines;

  bool has_findings() const;  // an error-severity finding
  ExitCode exit_code() const;
  // Joins another stage's judgement into this one (a composed command's verdict).
  void add(const Judgement& other);
};

}  // namespace abicheck
