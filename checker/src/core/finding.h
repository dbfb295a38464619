#pragma once

#include <compare>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/tool_error.h"

namespace abicheck {

// An error finding fails the run (exit 1); a warning is reported and leaves it clean.
enum class FindingSeverity { Error, Warning };

std::string_view to_string(FindingSeverity severity);

// What a finding says happens to an extension, in terms a probe can show against the real releases
// (bench/probe_findings.py): it does not compile, it does not load (an undefined symbol), or it fails at
// call time (a misread stack, a value the runtime does not know, a wrong result). The report counts the
// findings by it; Unstated for a finding that claims none of these (a policy, a review, a tool problem).
enum class Consequence { Unstated, DoesNotCompile, DoesNotLoad, FailsAtCallTime };

std::string_view to_string(Consequence consequence);  // "does-not-compile", "does-not-load", ...

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
  Consequence consequence = Consequence::Unstated;
  // What else the same cause made a stage report, said under this finding rather than beside it: one
  // mistake is one finding (a target's typo also makes it newer than the build and than every release).
  std::vector<std::string> notes;
};

// A finding of `kind` said as a note under the finding that explains it: "[E004] the target ...". The one
// spelling of a note, for the lint's rules and for check.
std::string note_of(std::string_view kind, std::string_view message);

// What one kind of finding means and what a user can do about it: said once per kind, by the stage
// that judges it, and shown as the heading of the report's group of those findings.
struct KindText {
  std::string meaning;  // one line: what this kind of finding is
  std::string remedy;   // one line: what to do about it
};

struct FindingKind {
  std::string stage;
  std::string kind;
  KindText text;
};

// One row of a stage's table of its kinds.
struct KindRow {
  std::string_view kind;
  std::string_view meaning;
  std::string_view remedy;
};

// The text of `kind` in `rows`; nullopt when no row has it.
std::optional<KindText> find_kind_text(std::span<const KindRow> rows, std::string_view kind);

// A stage's words for its own kinds; nullopt for a kind it does not know.
using KindExplainer = std::function<std::optional<KindText>(std::string_view kind)>;

// A stage's verdict on its own result: the findings and the summary lines a person reads first.
struct Judgement {
  std::vector<Finding> findings;
  std::vector<std::string> lines;
  std::vector<FindingKind> kinds;  // one per (stage, kind) among the findings that its stage explained

  bool has_findings() const;  // an error-severity finding
  ExitCode exit_code() const;
  // Joins another stage's judgement into this one (a composed command's verdict).
  void add(const Judgement& other);
  // Explains each kind of the findings of `stage` not explained yet: a suppression file's own kinds
  // (stale, expired) in core's words, the others in the stage's.
  void explain_kinds(std::string_view stage, const KindExplainer& explain);
  const FindingKind* kind_of(const Finding& finding) const;
};

}  // namespace abicheck
