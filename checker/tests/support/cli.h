#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/process.h"

namespace abicheck::testing {

// Runs the built torch-abi-check with these arguments, the way a user would. When the run wrote a
// report document (--json FILE) and judged (exit 0 or 1), the document is also checked against
// docs/schemas/report.schema.json, and `report FILE` must exit as the command did: every test that
// writes JSON proves both.
ProcessResult run_cli(const std::vector<std::string>& arguments);

// The Python of ci/setup.sh's tools venv (jsonschema, the SARIF schema).
std::filesystem::path tools_python();

// Validates a JSON file against one of docs/schemas/*.schema.json; returns "" when valid, else the
// validator's words.
std::string schema_errors(const std::string& schema_name, const std::filesystem::path& file);

}  // namespace abicheck::testing
