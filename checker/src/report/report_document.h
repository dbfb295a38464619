#pragma once

#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.h"

namespace abicheck {

// The one JSON document that every command writes with --json and that `report` reads back
// (schema: docs/schemas/report.schema.json). A change of its shape bumps the version.
//   {"schema_version": 1, "command": "audit", "title": "...",
//    "verdict": {"exit_code": 1, "lines": ["audit: 2 binaries, 1 not stable"],
//                "findings": [{"stage", "kind", "severity", "where", "message"[, "file", "line", "column"]}]},
//    "audit": {...}, "lint": {...}, "matrix": {...}, "canary": {...}, "diffs": [{...}], "check": {...},
//    "gate": {...}}
// The verdict is the stage's own judgement, written once; renderers and `report` never judge again.
inline constexpr int kReportSchemaVersion = 14;

// A document of `command` with the judgement as its verdict; the caller adds the sections.
nlohmann::json new_report_document(std::string_view command, std::string_view title, const Judgement& judgement);

// The verdict's error findings by what they say happens to an extension ("errors by consequence: 3 do
// not compile, ..."), for the summaries people read; empty for a clean verdict.
std::string consequence_line(const nlohmann::json& verdict);
// A finding's message with its notes (what the same cause made other rules report) after it, for the
// formats that give a finding one cell or one line.
std::string message_with_notes(const nlohmann::json& finding);

// The judgement a document carries (its "verdict").
Judgement judgement_of(const nlohmann::json& document);

// Reads a document that a command wrote. Throws ToolError naming the file when it is not valid JSON,
// carries no schema_version (not a torch-abi-check report, or one from before versioning), or has a
// version this build does not read.
nlohmann::json read_report_document(const std::filesystem::path& path);

// Several documents as one: their sections side by side (diffs of release pairs joined, oldest
// first) and their verdicts joined. Throws ToolError naming the file when two documents hold the
// same section. `sources` names each document in errors.
nlohmann::json merge_report_documents(const std::vector<nlohmann::json>& documents,
                                      const std::vector<std::string>& sources, std::string_view title);

// The sections a document may hold, in the order the report shows them.
inline constexpr std::string_view kReportSections[] = {"check", "gate",  "matrix", "canary",
                                                       "aoti",  "diffs", "lint",   "audit"};

}  // namespace abicheck
