#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace abicheck {

// The report document is one JSON object made of the --json outputs of the commands, each under its
// section, plus an optional title and verdict lines from the command that composed it:
//   {"title": "...",
//    "matrix": {"cells": [...]},        (matrix --json)
//    "diffs":  [{"old": "2.14", "new": "2.15", "changes": [...]}, ...],  (diff --json, one per
//                                                                       release pair, oldest first)
//    "lint":   {"diagnostics": [...]},  (lint --json)
//    "audit":  {"binaries": [...]},     (audit --json)
//    "verdict": {"lines": ["works on torch 2.10 ... 2.15", ...]}}
// Every section is optional; the HTML shows what the document has.

// The section a command's --json output belongs to, told from its shape ("matrix" for {"cells"},
// "diff" for {"changes"}, "lint" for {"diagnostics"}, "audit" for {"binaries"}); empty when none.
std::string report_section_of(const nlohmann::json& command_output);

// Puts a command's --json output into the document under its section (a diff joins "diffs",
// replacing an earlier diff of the same pair). Throws ToolError (naming `source`) when the output
// has none of the known shapes.
void add_to_report(nlohmann::json& document, const nlohmann::json& command_output, const std::string& source);

// What the document says overall: one line per section present (per release pair for diffs), and
// whether any is a finding (an unexpected matrix outcome, a breaking change no suppression
// accepted, an error diagnostic, a binary that is not stable).
struct ReportVerdict {
  bool has_findings = false;
  std::vector<std::string> sections_with_findings;  // "matrix", "diff", "lint", "audit", in that order
  std::vector<std::string> lines;
};
ReportVerdict judge_report(const nlohmann::json& document);

// One self-contained HTML page (inline CSS and JS, nothing fetched) with the summary verdict, one
// grid per matrix suite and backend with every cell's log, and the diff, lint and audit tables.
// The document is embedded as <script type="application/json" id="report-data">. Deterministic:
// the same document renders to the same bytes.
std::string render_html_report(const nlohmann::json& document);

}  // namespace abicheck
